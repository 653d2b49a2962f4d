// Evidence for a disputed charge (spec §2 "Order detail" action buttons, §4 "Defence pack and transaction
// details", §7): a defence pack is a PDF; its JSON twin carries exactly the facts the PDF prints.
import { Type, type Static } from 'typebox';
import { ActivityEntry } from './order-detail.js';
import { Envelope } from './envelope.js';

/**
 * The Stripe dispute-evidence fields (https://docs.stripe.com/api/disputes/evidence_object) a pack answers;
 * the evidence index names, for each section, the fields it supports.
 */
export const STRIPE_EVIDENCE_FIELDS = [
  'product_description',
  'customer_name',
  'customer_email_address',
  'customer_purchase_ip',
  'customer_signature',
  'receipt',
  'service_date',
  'service_documentation',
  'customer_communication',
  'access_activity_log',
  'refund_policy_disclosure',
] as const;
export type StripeEvidenceField = (typeof STRIPE_EVIDENCE_FIELDS)[number];

/**
 * The PayPal evidence types (https://developer.paypal.com/api/customer-disputes/v1/, `evidence_type`) a pack answers,
 * named in the index of a pack for an order PayPal took.
 */
export const PAYPAL_EVIDENCE_TYPES = [
  'ITEM_DESCRIPTION',
  'DETAILS_OF_PURCHASE',
  'PROOF_OF_RECEIPT_COPY',
  'COPY_OF_CONTRACT',
  'RETURN_POLICY',
  'PROOF_FOR_SOFTWARE_OR_SERVICE_DELIVERED',
  'VALID_SUPPORTING_DOCUMENT',
] as const;
export type PayPalEvidenceType = (typeof PAYPAL_EVIDENCE_TYPES)[number];

export const EVIDENCE_SECTION_KEYS = ['sale', 'agreement', 'delivery', 'use', 'timeline', 'document'] as const;
export type EvidenceSectionKey = (typeof EVIDENCE_SECTION_KEYS)[number];

/** A PDF answer (`application/pdf`): its bytes go out as they are; the schema documents them in the OpenAPI. */
export const PdfFile = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary' });

const PACK_TYPE_MESSAGE = 'Defence pack type must be 1 or 2.';

export const DefencePackBody = Type.Object({
  orderId: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S', errorMessage: 'Please enter the order id.' }),
  // The message sits on each choice: a failed union reports its first choice's failure.
  defencePackType: Type.Union([
    Type.Literal(1, { errorMessage: PACK_TYPE_MESSAGE }),
    Type.Literal(2, { errorMessage: PACK_TYPE_MESSAGE }),
  ]),
});
export type DefencePackBody = Static<typeof DefencePackBody>;

/**
 * One line of the evidence index: a section of the pack and what it answers at the order's gateway: Stripe's evidence
 * fields, PayPal's evidence types, or in plain words for a gateway without a dispute API (Authorize.Net, none).
 */
export const EvidenceSection = Type.Object({
  key: Type.Enum(EVIDENCE_SECTION_KEYS),
  title: Type.String(),
  fields: Type.Array(Type.String()),
});
export type EvidenceSection = Static<typeof EvidenceSection>;

/** What was sold. Money as text with two decimals ('89.00') beside its cents; times ISO 8601 UTC. */
export const EvidenceSale = Type.Object({
  service: Type.String(),
  processingType: Type.String(),
  amount: Type.String(),
  amountCents: Type.Integer(),
  currency: Type.String(),
  paymentStatus: Type.String(),
  gateway: Type.Optional(Type.String()),
  transactionId: Type.Optional(Type.String()),
  merchantName: Type.Optional(Type.String()),
  orderDate: Type.String(),
  processStatus: Type.String(),
  customerName: Type.String(),
  customerEmail: Type.String(),
  seller: Type.String(),
});

/** Proof of agreement: the terms the customer saw and the traces of their consent. */
export const EvidenceAgreement = Type.Object({
  /** The version of the landing site's legal texts the customer agreed to, and when that version was saved. */
  legalVersion: Type.Integer(),
  legalVersionSavedAt: Type.String(),
  disclaimer: Type.String(),
  feeText: Type.String(),
  ipAddress: Type.Optional(Type.String()),
  browser: Type.Optional(Type.String()),
  timezone: Type.Optional(Type.String()),
  signedAt: Type.Optional(Type.String()),
  /** Whether the signature image is in the document store (the PDF prints it, or says "not on file"). */
  signatureOnFile: Type.Boolean(),
});

export const EvidenceMail = Type.Object({
  kind: Type.String(),
  subject: Type.String(),
  to: Type.String(),
  provider: Type.String(),
  state: Type.String(),
  providerMessageId: Type.Optional(Type.String()),
  queuedAt: Type.String(),
  sentAt: Type.Optional(Type.String()),
});

export const EvidenceDownload = Type.Object({
  at: Type.String(),
  ip: Type.String(),
  device: Type.Optional(Type.String()),
  deviceType: Type.Optional(Type.String()),
  browser: Type.Optional(Type.String()),
  os: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  timezone: Type.Optional(Type.String()),
});

export const EvidenceDocument = Type.Object({
  name: Type.String(),
  contentType: Type.String(),
  sizeBytes: Type.Integer(),
  sha256: Type.String(),
  uploadedAt: Type.String(),
  uploadedBy: Type.Optional(Type.String()),
  /** The newest document: the approved one, which the PDF reproduces after its sections. */
  approved: Type.Boolean(),
  /** What the desk read in it at upload (issue 35): IRCC's application number, the eTA's validity (YYYY-MM-DD). */
  applicationNumber: Type.Optional(Type.String()),
  approvedOn: Type.Optional(Type.String()),
  expiresOn: Type.Optional(Type.String()),
  /** It named the order's traveller (passport number and surname); absent for documents from before the check. */
  matchedTraveller: Type.Optional(Type.Boolean()),
});

/** Everything a defence pack states, in the order of its sections (`index`). Oldest events first. */
export const DefencePackDetails = Type.Object({
  orderId: Type.String(),
  defencePackType: Type.Union([Type.Literal(1), Type.Literal(2)]),
  generatedAt: Type.String(),
  /** The index's heading over `fields`: "Answers the Stripe evidence fields", "… the PayPal evidence types", "Evidence". */
  indexHeading: Type.String(),
  index: Type.Array(EvidenceSection),
  sale: EvidenceSale,
  agreement: EvidenceAgreement,
  mails: Type.Array(EvidenceMail),
  downloads: Type.Array(EvidenceDownload),
  timeline: Type.Array(ActivityEntry),
  documents: Type.Array(EvidenceDocument),
  /** When the order's personal data was erased (retention, issue 24): the pack says so instead of missing data. */
  erasedAt: Type.Optional(Type.String()),
});
export type DefencePackDetails = Static<typeof DefencePackDetails>;
export const DefencePackDetailsResponse = Envelope(DefencePackDetails);
