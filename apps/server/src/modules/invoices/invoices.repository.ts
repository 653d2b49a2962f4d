// All SQL of invoices: the order as an invoice needs it (locked for the time the invoice is issued), its
// invoice if it has one, the next number of the year and the invoice row itself.
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * Locks the order (FOR UPDATE OF orders: two Send Invoice clicks on one order issue one invoice) and reads
 * what an invoice prints: the customer, the sale and the seller (its landing site). Index: orders.order_id.
 */
export const lockInvoiceOrder = (trx: Transaction<DB>, orderId: string) =>
  trx
    .selectFrom('orders as o')
    .innerJoin('landing_sites as ls', 'ls.key', 'o.landing_site')
    .leftJoin('gateways as g', 'g.id', 'o.gateway_id')
    .select([
      'o.id',
      'o.order_id',
      'o.email',
      'o.payment_status',
      'o.process_status',
      'o.processing_type',
      'o.amount_cents',
      'o.currency',
      'o.transaction_id',
      'o.created_at',
      'o.passport_first_name',
      'o.passport_surname',
      'o.apartment_number',
      'o.house_name',
      'o.street_name',
      'o.street_name_2',
      'o.city',
      'o.res_state',
      'o.res_zip_code',
      'o.country',
      'ls.display_name as seller_name',
      'ls.footer_contact as seller_contact',
      'ls.support_phone as seller_phone',
      'g.gateway_name',
    ])
    .where('o.order_id', '=', orderId)
    .forUpdate('o')
    .executeTakeFirst();

export type InvoiceOrder = NonNullable<Awaited<ReturnType<typeof lockInvoiceOrder>>>;

/** Index: invoices_order_id_key (one invoice per order). */
export const selectInvoiceOfOrder = (trx: Transaction<DB>, orderKey: number) =>
  trx
    .selectFrom('invoices')
    .select(['invoice_number', 'storage_key', 'amount_cents', 'currency'])
    .where('order_id', '=', orderKey)
    .executeTakeFirst();

/** The next number of the year; the counter row stays locked until the transaction ends (no gaps). */
export async function takeInvoiceNumber(trx: Transaction<DB>, year: number): Promise<number> {
  const { rows } = await sql<{ last_number: number }>`
    INSERT INTO invoice_counters (year, last_number) VALUES (${year}, 1)
    ON CONFLICT (year) DO UPDATE SET last_number = invoice_counters.last_number + 1
    RETURNING last_number`.execute(trx);
  return rows[0]!.last_number;
}

export const insertInvoice = (
  trx: Transaction<DB>,
  invoice: {
    invoiceNumber: string;
    orderKey: number;
    amountCents: number;
    currency: string;
    storageKey: string;
    sha256: string;
    createdBy: number;
    createdAt: Date;
  },
) =>
  trx
    .insertInto('invoices')
    .values({
      invoice_number: invoice.invoiceNumber,
      order_id: invoice.orderKey,
      amount_cents: invoice.amountCents,
      currency: invoice.currency,
      storage_key: invoice.storageKey,
      sha256: invoice.sha256,
      created_by: invoice.createdBy,
      created_at: invoice.createdAt,
    })
    .returning(['invoice_number', 'storage_key', 'amount_cents', 'currency'])
    .executeTakeFirstOrThrow();
