// The defence pack as a PDF: a first page with the summary and the evidence index (each section with the
// fields of the order's gateway it answers and its page), then the sections in the pack's order, then the approved document
// itself (its own pages, or the image on a page of its own). Every page carries the order id and
// "Page n of m".
import type { DefencePackDetails, EvidenceSectionKey } from '@eta/contracts';
import { appendPdf, type OpenedPdf } from '../../lib/pdf/assemble.js';
import { inspectPdf } from '../../lib/pdf/inspect.js';
import { bothZones, moneyText, sizeText, utcStamp } from '../../lib/pdf/format.js';
import { isPdf, pdfImageKind } from '../../lib/pdf/images.js';
import { PdfBuilder, type CellMark } from '../../lib/pdf/pdf-builder.js';

export interface PackFiles {
  /** The customer's signature image, when the store holds it. */
  signature?: Uint8Array | undefined;
  /** The approved document's bytes (the newest of the order's documents), when the store holds them. */
  approved?: Uint8Array | undefined;
  /** Why the approved document is not reproduced although it is on file (it was beyond the workers' limits). */
  approvedLeftOut?: string | undefined;
}

const at = (iso: string) => bothZones(new Date(iso));
const orDash = (value: string | undefined) => value ?? '—';

const MAIL_KINDS: Record<string, string> = {
  approval: 'Approved eTA',
  resend: 'Approved eTA (resent)',
  invoice: 'Invoice',
  refund: 'Refund',
};

/** One paragraph a reviewer can read first: who bought what, agreed how, received it when, used it how. */
function storyOf(facts: DefencePackDetails): string {
  const { sale, agreement } = facts;
  const who = facts.erasedAt
    ? 'The customer (personal data since erased)'
    : `${sale.customerName} (${sale.customerEmail})`;
  const sentences = [
    `${who} ordered the ${sale.service} (${sale.processingType} processing) ` +
      `from ${sale.seller} on ${utcStamp(new Date(sale.orderDate))} and paid ${moneyText(sale.amountCents, sale.currency)}` +
      `${sale.transactionId ? ` (transaction ${sale.transactionId})` : ''}.`,
  ];
  if (agreement.ipAddress || agreement.signedAt) {
    sentences.push(
      `At checkout the customer accepted the terms shown below${agreement.signedAt ? ` and signed on ${utcStamp(new Date(agreement.signedAt))}` : ''}` +
        `${agreement.ipAddress ? ` from IP address ${agreement.ipAddress}` : ''}.`,
    );
  }
  const delivered = facts.mails.find((m) => m.sentAt && (m.kind === 'approval' || m.kind === 'resend'));
  sentences.push(
    delivered?.sentAt
      ? `The approved eTA was e-mailed to ${delivered.to} on ${utcStamp(new Date(delivered.sentAt))}.`
      : 'No e-mail delivering the approved eTA is recorded as sent.',
  );
  const first = facts.downloads[0];
  sentences.push(
    first
      ? `The customer downloaded it from the order portal ${facts.downloads.length === 1 ? 'once' : `${facts.downloads.length} times`}, ` +
          `first on ${utcStamp(new Date(first.at))} from IP address ${first.ip}.`
      : 'No download of the approved eTA is recorded.',
  );
  return sentences.join(' ');
}

function saleSection(pdf: PdfBuilder, facts: DefencePackDetails): void {
  const { sale } = facts;
  pdf.facts([
    ['Service', sale.service],
    ['Processing type', sale.processingType],
    ['Amount', moneyText(sale.amountCents, sale.currency)],
    ['Payment status', sale.paymentStatus],
    ['Payment gateway', orDash(sale.gateway)],
    ['Transaction id', orDash(sale.transactionId)],
    ['Merchant name', orDash(sale.merchantName)],
    ['Order date', at(sale.orderDate)],
    ['Order status', sale.processStatus],
    ['Seller', sale.seller],
    ['Customer', sale.customerName],
    ['Customer e-mail', sale.customerEmail],
  ]);
}

function agreementSection(pdf: PdfBuilder, facts: DefencePackDetails, files: PackFiles): void {
  const { agreement, sale } = facts;
  pdf.paragraph(
    `The texts below are version ${agreement.legalVersion} of ${sale.seller}'s legal texts, in force since ` +
      `${utcStamp(new Date(agreement.legalVersionSavedAt))}: the version the customer was shown and agreed to.`,
    { muted: true },
  );
  pdf.subheading(`Disclaimer shown on ${sale.seller} (version ${agreement.legalVersion})`);
  pdf.paragraph(agreement.disclaimer || 'No disclaimer text is recorded for this landing site.');
  pdf.subheading(`Fee page (version ${agreement.legalVersion})`);
  pdf.paragraph(agreement.feeText || 'No fee-page text is recorded for this landing site.');
  pdf.subheading('The customer at checkout');
  pdf.facts([
    ['IP address', orDash(agreement.ipAddress)],
    ['Browser', orDash(agreement.browser)],
    ['Time zone', orDash(agreement.timezone)],
    ['Agreed and signed on', agreement.signedAt ? at(agreement.signedAt) : '—'],
    ['Legal texts agreed to', `version ${agreement.legalVersion}`],
  ]);
  pdf.subheading('Signature', 140);
  const kind = files.signature && pdfImageKind(files.signature);
  if (files.signature && kind) {
    const signed = agreement.signedAt
      ? `Signed on ${utcStamp(new Date(agreement.signedAt))}`
      : 'Signing time not recorded';
    pdf.image(files.signature, { width: 260, height: 100 }, `${signed}, from ${orDash(agreement.ipAddress)}`);
  } else if (files.signature) {
    pdf.paragraph('The signature is on file in a format this pack cannot print.', { muted: true });
  } else if (facts.erasedAt) {
    pdf.paragraph(`Signature image: erased with the order's personal data on ${utcStamp(new Date(facts.erasedAt))}.`, {
      muted: true,
    });
  } else {
    pdf.paragraph('Signature image: not on file.', { muted: true });
  }
}

function deliverySection(pdf: PdfBuilder, facts: DefencePackDetails): void {
  pdf.paragraph(
    'Every e-mail sent to the customer about this order, oldest first. The message id is the mail provider’s own ' +
      'record of the message and can be looked up with the provider.',
    { muted: true },
  );
  pdf.table(
    [
      { header: 'Sent (US Eastern / UTC)', width: 0.22 },
      { header: 'Kind', width: 0.11 },
      { header: 'Subject', width: 0.26 },
      { header: 'Recipient', width: 0.19 },
      { header: 'Provider and message id', width: 0.22 },
    ],
    facts.mails.map((m) => [
      m.sentAt ? at(m.sentAt) : `Not sent (${m.state})\nqueued ${utcStamp(new Date(m.queuedAt))}`,
      MAIL_KINDS[m.kind] ?? m.kind,
      m.subject,
      m.to,
      m.providerMessageId ? `${m.provider}\n${m.providerMessageId}` : m.provider,
    ]),
    'No e-mail has been sent to the customer about this order.',
  );
}

function useSection(pdf: PdfBuilder, facts: DefencePackDetails): void {
  pdf.paragraph(
    'Every download of the approved document from the customer portal, oldest first. The portal hands the document ' +
      'out only to someone who gives both the order id and the customer’s e-mail address.',
    { muted: true },
  );
  pdf.table(
    [
      { header: 'Time (US Eastern / UTC)', width: 0.22 },
      { header: 'IP address', width: 0.16 },
      { header: 'Device', width: 0.15 },
      { header: 'Browser', width: 0.13 },
      { header: 'OS', width: 0.12 },
      { header: 'Location', width: 0.22 },
    ],
    facts.downloads.map((d) => [
      at(d.at),
      d.ip,
      [d.device, d.deviceType].filter(Boolean).join('\n') || '—',
      orDash(d.browser),
      orDash(d.os),
      [d.location, d.timezone].filter(Boolean).join('\n') || '—',
    ]),
    'The approved document has not been downloaded from the customer portal.',
  );
}

function timelineSection(pdf: PdfBuilder, facts: DefencePackDetails): void {
  pdf.table(
    [
      { header: 'Time (US Eastern / UTC)', width: 0.24 },
      { header: 'By', width: 0.22 },
      { header: 'What happened', width: 0.54 },
    ],
    facts.timeline.map((e) => [
      at(e.at),
      e.actor ?? '',
      [e.action, e.from && e.to ? `${e.from} → ${e.to}` : (e.to ?? ''), e.detail ?? ''].filter(Boolean).join(': '),
    ]),
    'No staff action is recorded for this order.',
  );
}

/** Lists the documents and says where the approved one is; an image is drawn on its own page here. */
function documentSection(
  pdf: PdfBuilder,
  facts: DefencePackDetails,
  files: PackFiles,
  appendix: OpenedPdf | undefined,
  notOpened: string | undefined,
): void {
  pdf.table(
    [
      { header: 'File', width: 0.22 },
      { header: 'Type and size', width: 0.14 },
      { header: 'SHA-256 fingerprint', width: 0.3 },
      { header: 'Uploaded (US Eastern / UTC)', width: 0.22 },
      { header: 'By', width: 0.12 },
    ],
    facts.documents.map((d) => [
      d.approved ? `${d.name}\n(approved document)` : d.name,
      `${d.contentType}\n${sizeText(d.sizeBytes)}`,
      d.sha256,
      at(d.uploadedAt),
      orDash(d.uploadedBy),
    ]),
    'No approved document is on file for this order.',
  );
  const approved = facts.documents[0];
  if (!approved) return;
  // The service delivered a valid authorisation: what the approval itself states, as read at upload (issue 35).
  const stated = [
    approved.applicationNumber ? `application number ${approved.applicationNumber}` : null,
    approved.approvedOn ? `approved on ${approved.approvedOn}` : null,
    approved.expiresOn ? `valid until ${approved.expiresOn}` : null,
  ].filter(Boolean);
  if (stated.length > 0 || approved.matchedTraveller !== undefined) {
    pdf.paragraph(
      [
        stated.length > 0 ? `The approved eTA states: ${stated.join(', ')}.` : '',
        approved.matchedTraveller
          ? "At upload the desk checked that it names this order's traveller (passport number and surname)."
          : approved.matchedTraveller === false
            ? "At upload the desk could not match it to this order's traveller; a staff member sent it after checking it."
            : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  if (files.approvedLeftOut) {
    pdf.paragraph(`The approved document is not reproduced here: ${files.approvedLeftOut}. Its fingerprint is above.`, {
      muted: true,
    });
  } else if (!files.approved && facts.erasedAt) {
    pdf.paragraph(
      `The approved document was deleted with the order's personal data on ${utcStamp(new Date(facts.erasedAt))}; ` +
        'its fingerprint is above.',
      { muted: true },
    );
  } else if (!files.approved) {
    pdf.paragraph('The approved document could not be read from the document store; its fingerprint is above.', {
      muted: true,
    });
  } else if (appendix) {
    pdf.paragraph(
      `The approved document follows: ${appendix.pageCount === 1 ? '1 page' : `${appendix.pageCount} pages`}, ` +
        'reproduced whole and scaled slightly to keep the footer clear.',
    );
  } else if (pdfImageKind(files.approved)) {
    pdf.paragraph('The approved document is an image; it follows on the next page.');
    pdf.imagePage(files.approved, `Approved document: ${approved.name}`);
  } else {
    pdf.paragraph(
      notOpened
        ? `The approved document is a PDF this pack cannot reproduce: ${notOpened}. Its fingerprint is above.`
        : 'The approved document is on file in a format this pack cannot reproduce; its fingerprint is above.',
      { muted: true },
    );
  }
}

/**
 * The pack's PDF from its facts and files. It opens an untrusted PDF, so it runs in the worker pool
 * (defence-pack.service.ts); everything it takes and gives can cross into a worker thread.
 */
export async function renderDefencePack(facts: DefencePackDetails, files: PackFiles): Promise<Uint8Array> {
  const opened = files.approved && isPdf(files.approved) ? await inspectPdf(files.approved) : undefined;
  const appendix = opened?.readable ? opened : undefined;
  const notOpened = opened && !opened.readable ? opened.reason : undefined;
  const { sale } = facts;
  const pdf = new PdfBuilder({
    title: `Defence pack ${facts.defencePackType}: order ${facts.orderId}`,
    author: sale.seller,
    subject: `Chargeback evidence for order ${facts.orderId}`,
  });
  pdf.title(
    `Defence pack ${facts.defencePackType}: chargeback evidence`,
    `Order ${facts.orderId} · ${sale.seller} · prepared ${utcStamp(new Date(facts.generatedAt))}`,
  );
  if (facts.erasedAt) {
    pdf.paragraph(
      `Personal data erased on ${utcStamp(new Date(facts.erasedAt))}: this order's retention period ended or its ` +
        'customer asked for erasure, so names, contact details, IP addresses, the signature and the approved document ' +
        'are no longer held. The order, payment, mail and download records below are what was kept.',
    );
  }
  pdf.facts([
    ['Order id', facts.orderId],
    ['Customer', facts.erasedAt ? 'Personal data erased' : `${sale.customerName}\n${sale.customerEmail}`],
    ['Service', `${sale.service}, ${sale.processingType} processing`],
    ['Amount', moneyText(sale.amountCents, sale.currency)],
    ['Payment', [sale.gateway, sale.transactionId].filter(Boolean).join(' · ') || '—'],
    ['Ordered on', at(sale.orderDate)],
    ['E-mails sent', String(facts.mails.filter((m) => m.sentAt).length)],
    ['Downloads', String(facts.downloads.length)],
  ]);
  pdf.subheading('Summary');
  pdf.paragraph(storyOf(facts));
  pdf.subheading('Evidence index');
  const pageCells: CellMark[] = [];
  pdf.table(
    [
      { header: '#', width: 0.06 },
      { header: 'Section', width: 0.34 },
      { header: facts.indexHeading, width: 0.48 },
      { header: 'Page', width: 0.12 },
    ],
    facts.index.map((s, i) => [String(i + 1), s.title, s.fields.join(', '), '']),
    '',
    { column: 3, into: pageCells },
  );

  const render: Record<EvidenceSectionKey, () => void> = {
    sale: () => saleSection(pdf, facts),
    agreement: () => agreementSection(pdf, facts, files),
    delivery: () => deliverySection(pdf, facts),
    use: () => useSection(pdf, facts),
    timeline: () => timelineSection(pdf, facts),
    document: () => documentSection(pdf, facts, files, appendix, notOpened),
  };
  const pages: number[] = [];
  facts.index.forEach((section, i) => {
    // The lead section opens page 2; the rest follow on.
    if (i === 0) pdf.newPage();
    pdf.heading(`${i + 1}. ${section.title}`);
    pages.push(pdf.pageNumber());
    render[section.key]();
  });
  pageCells.forEach((cell, i) => pdf.fill(cell, String(pages[i] ?? '')));

  const footer = `Defence pack ${facts.defencePackType} · Order ${facts.orderId} · ${sale.seller}`;
  const body = await pdf.toBytes({ text: footer, pagesAfter: appendix?.pageCount ?? 0 });
  return appendix ? appendPdf(body, appendix, footer) : body;
}
