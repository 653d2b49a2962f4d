// One template per mail kind, branded per landing site, each as HTML and text. Every value that comes from a
// customer, an order or a site is escaped in the HTML. The same rendering feeds the outbox and "View Email
// Content", so what staff see is what was (or will be) sent.
import { DEFAULT_LANDING_SITE, type ProcessingType } from '@eta/contracts';

export interface MailBranding {
  siteKey: string;
  displayName: string;
  /** Absolute URL of the site's logo; empty for a site without one (the mail shows its name alone). */
  logoUrl: string;
  sender: string;
  footerContact: string;
  supportPhone: string | null;
  /** Where the site's customer portal lives (no trailing slash). */
  portalUrl: string;
  /** Footer links, absolute (http, https or mailto only). */
  links: { label: string; url: string }[];
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** Subjects and headers are one line: a line break in a name must never start a header of its own. */
const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();

/** The site's key travels with the link so the portal shows that site's branding (the default needs none). */
export const trackOrderLink = (b: MailBranding, orderId: string): string =>
  `${b.portalUrl}/track-order/${encodeURIComponent(orderId)}${b.siteKey === DEFAULT_LANDING_SITE ? '' : `?site=${encodeURIComponent(b.siteKey)}`}`;

/** A site's stored link (relative, absolute or mailto) as an absolute link, or null when it is not one we send. */
export function absoluteLink(url: string, portalUrl: string): string | null {
  try {
    const absolute = new URL(url, `${portalUrl}/`);
    return ['http:', 'https:', 'mailto:'].includes(absolute.protocol) ? absolute.toString() : null;
  } catch {
    return null;
  }
}

export const VALIDITY_TEXT =
  'Your eTA is valid for up to five years, or until the passport you applied with expires, whichever comes first. ' +
  'Travel with that same passport: the eTA is linked to it electronically.';

function contactLines(b: MailBranding): string[] {
  return [`E-mail: ${b.footerContact}`, ...(b.supportPhone ? [`Telephone: ${b.supportPhone}`] : [])];
}

/** The shared frame: logo and site name, the body, contact details and footer links. */
function layout(b: MailBranding, title: string, bodyHtml: string): string {
  const e = escapeHtml;
  const links = b.links
    .map((l) => `<a href="${e(l.url)}" style="color:#555;margin:0 8px">${e(l.label)}</a>`)
    .join(' | ');
  const contact = contactLines(b)
    .map((line) => e(line))
    .join('<br>');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(title)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f4;font-family:Arial,Helvetica,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f4"><tr><td align="center" style="padding:24px 8px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:6px">
<tr><td style="padding:20px 24px;border-bottom:3px solid #d52b1e">${b.logoUrl ? `<img src="${e(b.logoUrl)}" alt="${e(b.displayName)}" height="40" style="vertical-align:middle"> ` : ''}<strong style="font-size:18px;vertical-align:middle">${e(b.displayName)}</strong></td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5">${bodyHtml}</td></tr>
<tr><td style="padding:16px 24px;background:#fafafa;font-size:13px;color:#555"><strong>Contact us</strong><br>${contact}</td></tr>
<tr><td style="padding:12px 24px;font-size:12px;color:#777;text-align:center">${links}<br>&copy; ${new Date().getUTCFullYear()} ${e(b.displayName)}</td></tr>
</table></td></tr></table></body></html>`;
}

function textFooter(b: MailBranding): string {
  return [
    '',
    'Contact us',
    ...contactLines(b),
    '',
    ...b.links.map((l) => `${l.label}: ${l.url}`),
    `© ${new Date().getUTCFullYear()} ${b.displayName}`,
  ].join('\n');
}

/**
 * The approval mail (spec §2 "Customer approval-letter preview"): greeting, order id, the link to the portal's
 * track-order page, validity text, contact details and footer links. It links rather than attaches, so every
 * download of the document is logged as evidence. A resend says the same.
 */
/** An approval's own facts as the desk read them (issue 35): IRCC's application number, the expiry (YYYY-MM-DD). */
export interface ApprovalFactsText {
  applicationNumber: string | null;
  expiresOn: string | null;
}

/** "19 November 2031", as the approval mail and the portal say a date. */
export const longDate = (isoDate: string): string =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** The approval's number and validity as sentences, or none when the desk did not read them. */
function approvalFactLines(facts: ApprovalFactsText | undefined): string[] {
  const lines: string[] = [];
  if (facts?.applicationNumber) lines.push(`Application number: ${facts.applicationNumber}`);
  if (facts?.expiresOn) lines.push(`Your eTA is valid until ${longDate(facts.expiresOn)}.`);
  return lines;
}

export function renderApprovalMail(
  b: MailBranding,
  order: { orderId: string; applicantName: string; approval?: ApprovalFactsText },
): RenderedMail {
  const e = escapeHtml;
  const facts = approvalFactLines(order.approval);
  const link = trackOrderLink(b, order.orderId);
  const greeting = order.applicantName.trim() ? `Dear ${order.applicantName.trim()},` : 'Dear applicant,';
  const subject = oneLine(`Your Canada eTA is approved - order ${order.orderId}`);
  const html = layout(
    b,
    subject,
    `<p>${e(greeting)}</p>
<p>Good news: your Electronic Travel Authorization (eTA) for Canada has been approved.</p>
<p>Order ID: <strong>${e(order.orderId)}</strong></p>
${facts.map((line) => `<p>${e(line)}</p>`).join('\n')}
<p>Download your approved eTA from our secure portal with your order ID and e-mail address:</p>
<p style="text-align:center;margin:24px 0"><a href="${e(link)}" style="background:#d52b1e;color:#ffffff;padding:12px 24px;border-radius:4px;text-decoration:none;font-weight:bold">Download your eTA</a></p>
<p style="font-size:13px;color:#555">If the button does not work, copy this link into your browser:<br><a href="${e(link)}">${e(link)}</a></p>
<p>${e(VALIDITY_TEXT)}</p>
<p>Kind regards,<br>${e(b.displayName)}</p>`,
  );
  const text = [
    greeting,
    '',
    'Good news: your Electronic Travel Authorization (eTA) for Canada has been approved.',
    '',
    `Order ID: ${order.orderId}`,
    ...facts,
    '',
    'Download your approved eTA from our secure portal with your order ID and e-mail address:',
    link,
    '',
    VALIDITY_TEXT,
    '',
    'Kind regards,',
    b.displayName,
    textFooter(b),
  ].join('\n');
  return { subject, html, text };
}

const PROCESSING_PROMISES: Record<ProcessingType, string> = {
  Standard: 'We review your application and submit it to the Government of Canada, usually within 72 hours.',
  Priority: 'You chose priority processing: we review and submit your application first, usually within 24 hours.',
  Future: 'You chose a processing date: we start working on your application on',
};

/**
 * The order-confirmation mail an order gets when it comes in: the order id, what happens next and the link
 * where the customer follows the order (and later downloads the approved eTA).
 */
export function renderConfirmationMail(
  b: MailBranding,
  order: { orderId: string; applicantName: string; processingType: ProcessingType; processingDate: string | null },
): RenderedMail {
  const e = escapeHtml;
  const link = trackOrderLink(b, order.orderId);
  const greeting = order.applicantName.trim() ? `Dear ${order.applicantName.trim()},` : 'Dear applicant,';
  const subject = oneLine(`We have received your Canada eTA application - order ${order.orderId}`);
  const next =
    order.processingType === 'Future' && order.processingDate
      ? `${PROCESSING_PROMISES.Future} ${order.processingDate}.`
      : PROCESSING_PROMISES[order.processingType];
  const html = layout(
    b,
    subject,
    `<p>${e(greeting)}</p>
<p>Thank you: we have received your application for an Electronic Travel Authorization (eTA) for Canada and your payment.</p>
<p>Order ID: <strong>${e(order.orderId)}</strong><br>Processing: <strong>${e(order.processingType)}</strong></p>
<p>${e(next)} We will e-mail you as soon as your eTA is approved.</p>
<p>Follow your order with your order ID and e-mail address:</p>
<p style="text-align:center;margin:24px 0"><a href="${e(link)}" style="background:#d52b1e;color:#ffffff;padding:12px 24px;border-radius:4px;text-decoration:none;font-weight:bold">Track your order</a></p>
<p style="font-size:13px;color:#555">If the button does not work, copy this link into your browser:<br><a href="${e(link)}">${e(link)}</a></p>
<p>Kind regards,<br>${e(b.displayName)}</p>`,
  );
  const text = [
    greeting,
    '',
    'Thank you: we have received your application for an Electronic Travel Authorization (eTA) for Canada and your payment.',
    '',
    `Order ID: ${order.orderId}`,
    `Processing: ${order.processingType}`,
    '',
    `${next} We will e-mail you as soon as your eTA is approved.`,
    '',
    'Follow your order with your order ID and e-mail address:',
    link,
    '',
    'Kind regards,',
    b.displayName,
    textFooter(b),
  ].join('\n');
  return { subject, html, text };
}

/** The invoice mail: the invoice PDF travels as an attachment (modules/invoices builds it). */
export function renderInvoiceMail(
  b: MailBranding,
  invoice: { orderId: string; customerName: string; invoiceNumber: string; amountText: string },
): RenderedMail {
  const e = escapeHtml;
  const greeting = invoice.customerName.trim() ? `Dear ${invoice.customerName.trim()},` : 'Dear customer,';
  const subject = oneLine(`Invoice ${invoice.invoiceNumber} for order ${invoice.orderId}`);
  const html = layout(
    b,
    subject,
    `<p>${e(greeting)}</p>
<p>Thank you for your order. Your invoice is attached to this e-mail as a PDF.</p>
<p>Order ID: <strong>${e(invoice.orderId)}</strong><br>Invoice number: <strong>${e(invoice.invoiceNumber)}</strong><br>Amount: <strong>${e(invoice.amountText)}</strong></p>
<p>Kind regards,<br>${e(b.displayName)}</p>`,
  );
  const text = [
    greeting,
    '',
    'Thank you for your order. Your invoice is attached to this e-mail as a PDF.',
    '',
    `Order ID: ${invoice.orderId}`,
    `Invoice number: ${invoice.invoiceNumber}`,
    `Amount: ${invoice.amountText}`,
    '',
    'Kind regards,',
    b.displayName,
    textFooter(b),
  ].join('\n');
  return { subject, html, text };
}
