// Spec §2 "Send Invoice", §5, §7 `POST /admin/send-invoice {orderId}`: the invoice of a paid order, as a PDF
// mailed to the customer through the outbox.
import { Type, type Static } from 'typebox';
import { MIN_INVOICE_ORDER_ID_LENGTH } from './domain.js';
import { Envelope } from './envelope.js';
import { MailDelivery } from './mail.js';

/**
 * Spec §5 "Send invoice": required, then at least 6 characters. The first failing rule speaks: empty or blank
 * text is "not entered", a short id is "too short".
 */
export const SendInvoiceBody = Type.Object({
  orderId: Type.String({
    maxLength: 64,
    errorMessage: { default: 'Please enter your order id.', maxLength: 'Order Id must be at most 64 characters.' },
    allOf: [
      { minLength: 1, pattern: '\\S', errorMessage: 'Please enter your order id.' },
      {
        minLength: MIN_INVOICE_ORDER_ID_LENGTH,
        errorMessage: `Order Id must be at least ${MIN_INVOICE_ORDER_ID_LENGTH} characters.`,
      },
    ],
  }),
});
export type SendInvoiceBody = Static<typeof SendInvoiceBody>;

export const SentInvoice = Type.Object({
  orderId: Type.String(),
  invoiceNumber: Type.String(),
  /** The outbox row of this mail; it shows in the order's Email History. */
  mailId: Type.Integer(),
  to: Type.String(),
  provider: Type.String(),
  /** True when the order already had its invoice and the same invoice was mailed again. */
  resent: Type.Boolean(),
  /** What happened to the invoice mail: queued, or not sent and why. */
  delivery: MailDelivery,
});
export type SentInvoice = Static<typeof SentInvoice>;
export const SendInvoiceResponse = Envelope(SentInvoice);
