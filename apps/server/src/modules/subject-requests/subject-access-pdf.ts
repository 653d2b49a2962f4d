// The subject-access export as a PDF a person can read (issue 24): a cover page with the request and the list of
// orders, then per order its fields, e-mails, downloads, remarks and the staff actions on it. Built in the worker
// pool (subject-requests.service.ts): everything it takes and gives can cross into a worker thread.
import { bothZones, moneyText, utcStamp } from '../../lib/pdf/format.js';
import { PdfBuilder } from '../../lib/pdf/pdf-builder.js';
import type { SubjectAccessExport } from './subject-requests.service.js';

const at = (iso: string) => bothZones(new Date(iso));

/** Fields printed elsewhere on the page (the heading, the amount, the erasure and hold lines) or internal. */
const SKIPPED_FIELDS = new Set([
  'order_id',
  'version',
  'amount_cents',
  'currency',
  'assign_to_id',
  'erasedAt',
  'legalHold',
]);

/** Labels where the field's name does not read well. */
const LABELS: Record<string, string> = {
  create_ts: 'Ordered on',
  email: 'E-mail',
  legal_version: 'Legal texts agreed to (version)',
  assign_to: 'Handled by',
};

const labelOf = (field: string) => {
  if (LABELS[field]) return LABELS[field];
  const words = field.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

const valueText = (value: string | number | boolean): string =>
  typeof value === 'boolean'
    ? value
      ? 'Yes'
      : 'No'
    : typeof value === 'string' && ISO_TIME.test(value)
      ? utcStamp(new Date(value))
      : String(value);

export async function renderSubjectAccess(doc: SubjectAccessExport): Promise<Uint8Array> {
  const { request, orders } = doc;
  const pdf = new PdfBuilder({
    title: `Subject access request: ${request.email}`,
    author: 'eTA Desk',
    subject: 'Personal data held about one customer',
  });
  pdf.title('Personal data we hold', `For ${request.email} · prepared ${utcStamp(new Date(request.generatedAt))}`);
  pdf.facts([
    ['E-mail address', request.email],
    ['Prepared on', at(request.generatedAt)],
    ['Prepared by', request.generatedBy || '—'],
    ['Orders found', String(request.orderCount)],
  ]);
  pdf.paragraph(
    'This document lists every order placed with this e-mail address, with the e-mails sent about it, the downloads ' +
      'of its document from the customer portal and the remarks staff wrote on it. The same data is available as a ' +
      'machine-readable JSON file.',
    { muted: true },
  );
  pdf.subheading('Orders');
  pdf.table(
    [
      { header: 'Order', width: 0.2 },
      { header: 'Placed', width: 0.28 },
      { header: 'Status', width: 0.2 },
      { header: 'Personal data', width: 0.32 },
    ],
    orders.map((o) => [
      o.orderId,
      at(o.createdAt),
      o.status,
      o.erasedAt
        ? `Erased on ${utcStamp(new Date(o.erasedAt))}`
        : o.legalHold
          ? `Kept: on legal hold (${o.legalHold.reason})`
          : 'Held',
    ]),
    'No order was found for this e-mail address.',
  );

  for (const order of orders) {
    const d = order.details;
    pdf.newPage();
    pdf.heading(`Order ${order.orderId}`);
    if (order.legalHold) {
      pdf.paragraph(
        `On legal hold since ${utcStamp(new Date(order.legalHold.heldAt))}: ${order.legalHold.reason}. ` +
          'Its data is kept, and not erased, until the hold is released.',
      );
    }
    if (order.erasedAt) {
      pdf.paragraph(
        `The personal data of this order was erased on ${utcStamp(new Date(order.erasedAt))}. ` +
          'Only what accounting and the evidence trail need is kept: the order id, amount, dates, statuses and payment references.',
      );
    }
    const detail = d as unknown as Record<string, unknown>;
    const fields: [string, string][] = [
      ['Amount', moneyText(Number(detail.amount_cents ?? 0), String(detail.currency ?? ''))],
    ];
    for (const [name, value] of Object.entries(detail)) {
      if (SKIPPED_FIELDS.has(name) || value === null || value === undefined || value === '') continue;
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      fields.push([labelOf(name), valueText(value)]);
    }
    pdf.subheading('What the order holds');
    pdf.facts(fields);

    pdf.subheading('E-mails sent');
    pdf.table(
      [
        { header: 'Queued', width: 0.24 },
        { header: 'Kind', width: 0.12 },
        { header: 'Subject', width: 0.3 },
        { header: 'To', width: 0.2 },
        { header: 'State', width: 0.14 },
      ],
      d.mailHistory.map((m) => [at(m.create_ts), m.kind, m.subject, m.to, m.state]),
      'No e-mail was sent about this order.',
    );
    pdf.subheading('Downloads from the customer portal');
    pdf.table(
      [
        { header: 'Time', width: 0.26 },
        { header: 'IP address', width: 0.2 },
        { header: 'Browser and system', width: 0.3 },
        { header: 'Location', width: 0.24 },
      ],
      d.downloadHistory.map((w) => [
        at(w.create_ts),
        w.ip,
        [w.browser, w.os, w.device].filter(Boolean).join(', ') || '—',
        w.location ?? '—',
      ]),
      'The document of this order was never downloaded.',
    );
    pdf.subheading('Remarks by staff');
    pdf.table(
      [
        { header: 'Time', width: 0.26 },
        { header: 'By', width: 0.2 },
        { header: 'Remark', width: 0.54 },
      ],
      d.remark.map((r) => [at(r.create_ts), r.remark_name, r.remark]),
      'No remark was written on this order.',
    );
    pdf.subheading('What staff did');
    pdf.table(
      [
        { header: 'Time', width: 0.26 },
        { header: 'By', width: 0.2 },
        { header: 'What', width: 0.54 },
      ],
      d.activity.map((e) => [
        at(e.at),
        e.actor ?? '',
        [e.action, e.from && e.to ? `${e.from} → ${e.to}` : ''].filter(Boolean).join(': '),
      ]),
      'No staff action is recorded.',
    );
  }
  return pdf.toBytes({ text: `Subject access request · ${request.email}` });
}
