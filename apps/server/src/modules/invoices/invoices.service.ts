// Send Invoice (spec §2, §5, §7 `POST /admin/send-invoice {orderId}`): the invoice of a paid order as a
// PDF, mailed to the customer through the outbox. One transaction issues the number, records the invoice
// and queues the mail with the PDF attached, and writes the audit row; the PDF is stored first and removed
// again if the transaction fails. An order has one invoice: sending again mails the same invoice.
import type { Kysely } from 'kysely';
import type { SentInvoice } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { moneyText } from '../../lib/pdf/format.js';
import type { DocumentStore } from '../../lib/storage/document-store.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { changedBy, type OrderEventsPublisher } from '../events/order-events.publisher.js';
import { mailDelivery } from '../mail/mail-delivery.js';
import type { MailService } from '../mail/mail.service.js';
import { renderInvoice } from './invoice-pdf.js';
import {
  insertInvoice,
  lockInvoiceOrder,
  selectInvoiceOfOrder,
  takeInvoiceNumber,
  type InvoiceOrder,
} from './invoices.repository.js';

/** 'INV-2026-000001': the year it was issued (UTC) and its place in that year's series. */
export const formatInvoiceNumber = (year: number, n: number): string => `INV-${year}-${String(n).padStart(6, '0')}`;

const addressOf = (o: InvoiceOrder): string[] =>
  [
    [o.apartment_number, o.house_name, o.street_name].filter(Boolean).join(' '),
    o.street_name_2,
    [o.city, o.res_state, o.res_zip_code].filter(Boolean).join(', '),
    o.country,
  ].filter((line): line is string => Boolean(line));

export class InvoicesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: DocumentStore,
    private readonly mail: MailService,
    private readonly orderEvents: OrderEventsPublisher,
  ) {}

  async send(staff: Staff, actor: Actor, rawOrderId: string): Promise<{ invoice: SentInvoice; message: string }> {
    const orderId = normalizeOrderId(rawOrderId);
    const provider = this.mail.defaultProvider();
    let written: string | undefined;
    try {
      const result = await this.db.transaction().execute(async (trx) => {
        const order = await lockInvoiceOrder(trx, orderId);
        if (!order) throw new AppError('ORDER_NOT_FOUND', `Order ${rawOrderId.trim()} was not found.`);
        if (order.payment_status !== 'Success') {
          throw new AppError('NOT_PAID', `Order ${order.order_id} is not paid, so it has no invoice.`);
        }
        if (order.process_status === 'Deleted') {
          throw new AppError(
            'ORDER_DELETED',
            `Order ${order.order_id} is deleted; restore it before sending its invoice.`,
          );
        }
        const orderKey = Number(order.id);
        let invoice = await selectInvoiceOfOrder(trx, orderKey);
        const resent = invoice !== undefined;
        if (!invoice) {
          const issuedAt = new Date();
          const year = issuedAt.getUTCFullYear();
          const invoiceNumber = formatInvoiceNumber(year, await takeInvoiceNumber(trx, year));
          const pdf = await renderInvoice({
            invoiceNumber,
            issuedAt,
            orderId: order.order_id,
            orderDate: new Date(order.created_at),
            seller: { name: order.seller_name, contact: order.seller_contact, phone: order.seller_phone },
            customer: {
              name: [order.passport_first_name, order.passport_surname].filter(Boolean).join(' ') || order.email,
              email: order.email,
              address: addressOf(order),
            },
            processingType: order.processing_type,
            amountCents: order.amount_cents,
            currency: order.currency,
            gateway: order.gateway_name,
            paymentReference: order.transaction_id,
          });
          const stored = await this.store.put(Buffer.from(pdf), { extension: 'pdf' });
          written = stored.key;
          invoice = await insertInvoice(trx, {
            invoiceNumber,
            orderKey,
            amountCents: order.amount_cents,
            currency: order.currency,
            storageKey: stored.key,
            sha256: stored.sha256,
            createdBy: staff.id,
            createdAt: issuedAt,
          });
        }
        const composed = await this.mail.composeInvoiceMail(trx, order.order_id, {
          invoiceNumber: invoice.invoice_number,
          amountText: moneyText(invoice.amount_cents, invoice.currency),
        });
        const queued = await this.mail.enqueue(trx, {
          orderId: orderKey,
          kind: 'invoice',
          to: composed.to,
          from: composed.from,
          provider,
          subject: composed.subject,
          html: composed.html,
          text: composed.text,
          attachments: [
            {
              filename: `${invoice.invoice_number}.pdf`,
              contentType: 'application/pdf',
              storageKey: invoice.storage_key,
            },
          ],
        });
        await writeAudit(trx, actor, [
          {
            action: 'order.invoice',
            orderId: orderKey,
            target: order.order_id,
            after: { invoiceNumber: invoice.invoice_number, mailId: queued.id, provider, resent },
          },
        ]);
        const sent: SentInvoice = {
          orderId: order.order_id,
          invoiceNumber: invoice.invoice_number,
          mailId: queued.id,
          to: composed.to,
          provider,
          resent,
          delivery: mailDelivery(queued.state, queued.lastError),
        };
        const message =
          sent.delivery.state === 'not_sent'
            ? `Invoice ${sent.invoiceNumber} is ready, but no mail provider is configured: the mail to ${sent.to} is kept in Email History as not sent.`
            : `Invoice ${sent.invoiceNumber} ${resent ? 'is being sent again' : 'is being sent'} to ${sent.to}.`;
        return { invoice: sent, message };
      });
      this.mail.kick();
      // The invoice's mail joins the order's Email History.
      this.orderEvents.addedTo(result.invoice.orderId, { kind: 'mail', id: result.invoice.mailId }, changedBy(actor));
      return result;
    } catch (err) {
      // The PDF of an invoice that was not recorded must not stay behind in the store.
      if (written) await this.store.delete(written).catch(() => undefined);
      throw err;
    }
  }
}
