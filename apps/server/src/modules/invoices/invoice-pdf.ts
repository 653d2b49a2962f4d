// The invoice as a PDF (spec §2 "Send Invoice"): the seller (the order's landing site), the invoice number
// and date, the customer, the service, the amount and currency, and the payment with its reference.
import { SERVICE_DESCRIPTION } from '@eta/contracts';
import { dateOnly, moneyText, utcStamp } from '../../lib/pdf/format.js';
import { PdfBuilder } from '../../lib/pdf/pdf-builder.js';

export interface InvoiceFacts {
  invoiceNumber: string;
  issuedAt: Date;
  orderId: string;
  orderDate: Date;
  seller: { name: string; contact: string; phone: string | null };
  customer: { name: string; email: string; address: string[] };
  processingType: string;
  amountCents: number;
  currency: string;
  gateway: string | null;
  paymentReference: string | null;
}

export async function renderInvoice(facts: InvoiceFacts): Promise<Uint8Array> {
  const amount = moneyText(facts.amountCents, facts.currency);
  const pdf = new PdfBuilder({
    title: `Invoice ${facts.invoiceNumber}`,
    author: facts.seller.name,
    subject: `Invoice ${facts.invoiceNumber} for order ${facts.orderId}`,
  });
  pdf.title('Invoice', `${facts.seller.name} · ${facts.invoiceNumber}`);
  pdf.facts([
    ['Invoice number', facts.invoiceNumber],
    ['Invoice date', dateOnly(facts.issuedAt)],
    ['Order id', facts.orderId],
    ['Order date', utcStamp(facts.orderDate)],
  ]);
  pdf.subheading('Seller');
  pdf.paragraph(
    [
      facts.seller.name,
      `E-mail: ${facts.seller.contact}`,
      ...(facts.seller.phone ? [`Telephone: ${facts.seller.phone}`] : []),
    ].join('\n'),
  );
  pdf.subheading('Billed to');
  pdf.paragraph([facts.customer.name, facts.customer.email, ...facts.customer.address].join('\n'));
  pdf.subheading('Service');
  pdf.table(
    [
      { header: 'Description', width: 0.52 },
      { header: 'Processing', width: 0.16 },
      { header: 'Quantity', width: 0.12 },
      { header: 'Amount', width: 0.2 },
    ],
    [[`${SERVICE_DESCRIPTION}\nOrder ${facts.orderId}`, facts.processingType, '1', amount]],
    '',
  );
  pdf.subheading('Payment');
  pdf.facts([
    ['Total', amount],
    ['Status', 'Paid in full'],
    ['Currency', facts.currency],
    ['Paid on', utcStamp(facts.orderDate)],
    ['Paid with', facts.gateway ?? '—'],
    ['Payment reference', facts.paymentReference ?? '—'],
  ]);
  pdf.paragraph(`Thank you for your order. Questions about this invoice: ${facts.seller.contact}.`, { muted: true });
  return pdf.toBytes({ text: `Invoice ${facts.invoiceNumber} · Order ${facts.orderId} · ${facts.seller.name}` });
}
