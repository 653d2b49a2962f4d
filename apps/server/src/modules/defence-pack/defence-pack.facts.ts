// What a defence pack states, from the order's dispute file: one set of facts printed by the PDF and sent
// as JSON, so the two can never disagree. The sections follow the order card-network disputes read them,
// except that each pack puts its own evidence first: pack 1 the e-mails, pack 2 the downloads.
import {
  SERVICE_DESCRIPTION,
  STATUS_LABELS,
  type DefencePackDetails,
  type DefencePackType,
  type EvidenceSectionKey,
  type PayPalEvidenceType,
  type StripeEvidenceField,
} from '@eta/contracts';
import { centsText } from '../../lib/pdf/format.js';
import { toActivity } from '../order-detail/order-detail.service.js';
import type { EvidenceRow } from './defence-pack.repository.js';
import { isoTime } from '../../lib/time.js';

const TITLES: Record<EvidenceSectionKey, string> = {
  sale: 'What was sold',
  agreement: 'Proof of agreement',
  delivery: 'Proof of delivery: e-mails',
  use: 'Proof of use: downloads',
  timeline: 'Order timeline',
  document: 'Approved document',
};

/** What each section answers, in the words of the order's gateway, under the index's heading. */
interface EvidenceVocabulary {
  heading: string;
  fields: Record<EvidenceSectionKey, readonly string[]>;
}

const STRIPE: EvidenceVocabulary = {
  heading: 'Answers the Stripe evidence fields',
  fields: {
    sale: ['product_description', 'customer_name', 'customer_email_address', 'receipt'],
    agreement: ['customer_purchase_ip', 'customer_signature', 'refund_policy_disclosure'],
    delivery: ['customer_communication', 'service_date'],
    use: ['access_activity_log'],
    timeline: ['service_documentation'],
    document: ['service_documentation'],
  } satisfies Record<EvidenceSectionKey, readonly StripeEvidenceField[]>,
};

/** PayPal's evidence types: a digital service's delivery is PROOF_FOR_SOFTWARE_OR_SERVICE_DELIVERED (no tracking). */
const PAYPAL: EvidenceVocabulary = {
  heading: 'Answers the PayPal evidence types',
  fields: {
    sale: ['ITEM_DESCRIPTION', 'DETAILS_OF_PURCHASE', 'PROOF_OF_RECEIPT_COPY'],
    agreement: ['COPY_OF_CONTRACT', 'RETURN_POLICY'],
    delivery: ['PROOF_FOR_SOFTWARE_OR_SERVICE_DELIVERED'],
    use: ['PROOF_FOR_SOFTWARE_OR_SERVICE_DELIVERED'],
    timeline: ['VALID_SUPPORTING_DOCUMENT'],
    document: ['PROOF_FOR_SOFTWARE_OR_SERVICE_DELIVERED'],
  } satisfies Record<EvidenceSectionKey, readonly PayPalEvidenceType[]>,
};

/** A gateway without a dispute API (Authorize.Net), or none: what each section proves, in plain words. */
const PLAIN: EvidenceVocabulary = {
  heading: 'Evidence',
  fields: {
    sale: ['product description', 'customer name and e-mail', 'receipt'],
    agreement: ['purchase IP address', 'signature', 'terms and refund policy agreed to'],
    delivery: ['e-mails to the customer', 'date of service'],
    use: ['downloads of the approved document'],
    timeline: ['record of the service'],
    document: ['the document delivered'],
  },
};

const VOCABULARIES: Readonly<Record<string, EvidenceVocabulary>> = { Stripe: STRIPE, PayPal: PAYPAL };

const SECTION_ORDER: Record<DefencePackType, EvidenceSectionKey[]> = {
  1: ['delivery', 'sale', 'agreement', 'use', 'timeline', 'document'],
  2: ['use', 'sale', 'agreement', 'delivery', 'timeline', 'document'],
};

/** What a pack prints for a customer fact that retention erased. */
const ERASED = '(erased)';

const present = (value: string | null | undefined) => (value ? value : undefined);

const customerNameOf = (row: { passport_first_name: string | null; passport_surname: string | null }) =>
  [row.passport_first_name, row.passport_surname].filter(Boolean).join(' ') || 'Not given';

export function defencePackFacts(
  row: EvidenceRow,
  type: DefencePackType,
  signatureOnFile: boolean,
  generatedAt: Date,
): DefencePackDetails {
  // The fields of the gateway the order was paid through: the pack is read by that gateway's reviewers.
  const vocabulary = (row.gateway_name ? VOCABULARIES[row.gateway_name] : undefined) ?? PLAIN;
  return {
    orderId: row.order_id,
    defencePackType: type,
    generatedAt: generatedAt.toISOString(),
    indexHeading: vocabulary.heading,
    index: SECTION_ORDER[type].map((key) => ({ key, title: TITLES[key], fields: [...vocabulary.fields[key]] })),
    sale: {
      service: SERVICE_DESCRIPTION,
      processingType: row.processing_type,
      amount: centsText(row.amount_cents),
      amountCents: row.amount_cents,
      currency: row.currency,
      paymentStatus: row.payment_status,
      gateway: present(row.gateway_name),
      transactionId: present(row.transaction_id),
      merchantName: present(row.merchant_name),
      orderDate: isoTime(row.created_at),
      processStatus: STATUS_LABELS[row.process_status],
      customerName: row.erased_at ? ERASED : customerNameOf(row),
      customerEmail: row.erased_at ? ERASED : row.email,
      seller: row.site_name,
    },
    agreement: {
      legalVersion: row.legal_version,
      legalVersionSavedAt: isoTime(row.legal_saved_at),
      disclaimer: row.disclaimer,
      feeText: row.fee_text,
      ipAddress: present(row.ip_address),
      browser: present(row.customer_browser),
      timezone: present(row.customer_timezone),
      signedAt: row.customer_date ? isoTime(row.customer_date) : undefined,
      signatureOnFile,
    },
    mails: row.mails.map((m) => ({
      kind: m.kind,
      subject: m.subject,
      to: m.to_address,
      provider: m.provider,
      state: m.state,
      providerMessageId: present(m.provider_message_id),
      queuedAt: isoTime(m.created_at),
      sentAt: m.sent_at ? isoTime(m.sent_at) : undefined,
    })),
    downloads: row.downloads.map((d) => ({
      at: isoTime(d.created_at),
      ip: d.ip,
      device: present(d.device),
      deviceType: present(d.device_type),
      browser: present(d.browser),
      os: present(d.os),
      location: present(d.location),
      timezone: present(d.timezone),
    })),
    timeline: row.timeline.map((entry) => toActivity(entry, row.site_name)),
    documents: row.documents.map((d, i) => ({
      name: d.original_name,
      contentType: d.content_type,
      sizeBytes: d.size_bytes,
      sha256: d.sha256,
      uploadedAt: isoTime(d.created_at),
      uploadedBy: present(d.uploaded_by),
      approved: i === 0,
      applicationNumber: present(d.application_number),
      approvedOn: present(d.approved_on),
      expiresOn: present(d.expires_on),
      ...(d.matched === null ? {} : { matchedTraveller: d.matched === 'true' }),
    })),
    ...(row.erased_at ? { erasedAt: isoTime(row.erased_at) } : {}),
  };
}
