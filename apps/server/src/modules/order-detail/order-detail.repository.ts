// All SQL of the order detail page. The whole page is ONE statement whatever the order holds: the order,
// its holder, and its remarks, documents, mails, downloads and audit timeline as JSON arrays from
// correlated subqueries, each on its (order_id, created_at) index.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, Order } from '../../db/schema.js';
import { CachedStatement } from '../../db/statement-cache.js';
import type { OrderTiming } from '@eta/contracts';
import { orderTiming } from '../orders/orders.repository.js';

type Db = Kysely<DB> | Transaction<DB>;

export interface RemarkRow {
  id: number;
  remark_name: string;
  remark: string;
  whatsapp: boolean;
  telephone: boolean;
  status_refund: boolean;
  voided: boolean;
  chargeback: boolean;
  report_error: boolean;
  created_at: string;
}

export interface DocumentRow {
  id: number;
  original_name: string;
  content_type: string;
  size_bytes: number;
  created_at: string;
  uploaded_by: string | null;
  /** The provider the approval mail of this upload was queued with. */
  mail_service_provider: string | null;
  /** What the desk read in it (issue 35): IRCC's application number, the expiry (YYYY-MM-DD). */
  application_number: string | null;
  expires_on: string | null;
  /** 'true' or 'false' (null before issue 35); the reason it was sent though it did not match. */
  matched: string | null;
  sent_anyway: string | null;
}

export interface MailRow {
  id: number;
  kind: string;
  to_address: string;
  subject: string;
  provider: string;
  state: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  from_address: string | null;
  provider_message_id: string | null;
  next_attempt_at: string;
}

export interface DownloadRow {
  id: number;
  created_at: string;
  ip: string;
  timezone: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  device_type: string | null;
  location: string | null;
}

export interface AuditRow {
  at: string;
  actor_name: string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The order row as PostgreSQL's row_to_json writes it: timestamps are ISO 8601 text, everything else as read. */
export type OrderJson = {
  [K in keyof Order]: Order[K] extends Date ? string : Order[K] extends Date | null ? string | null : Order[K];
};

export type OrderDetailRow = {
  order: OrderJson;
  timing: OrderTiming;
  holder_name: string | null;
  /** The order's landing site by its display name (its timeline names it). */
  site_name: string;
  remarks: RemarkRow[];
  documents: DocumentRow[];
  mails: MailRow[];
  downloads: DownloadRow[];
  timeline: AuditRow[];
};

const detailStatement = new CachedStatement<OrderDetailRow>();

/** Index: orders.order_id (unique); the lists read remarks_order_idx, documents_order_idx, mails_order_idx,
 * downloads_order_idx and audit_log_order_idx. Mail bodies are left out: the page lists, View Email shows one.
 * The order's hundred columns travel as one JSON value: one JSON.parse instead of a type parser per column. */
export async function selectOrderDetail(
  db: Db,
  orderId: string,
  urgentHours: number,
): Promise<OrderDetailRow | undefined> {
  const { rows } = await detailStatement.run(db, String(urgentHours), { orderId }, (v) => {
    const timing = db.selectFrom('orders').whereRef('orders.id', '=', sql.ref('o.id')).select(orderTiming(urgentHours));
    return sql<OrderDetailRow>`
    SELECT row_to_json(o) AS order, (SELECT row_to_json(t) FROM (${timing}) t) AS timing, s.name AS holder_name,
      (SELECT display_name FROM landing_sites WHERE key = o.landing_site) AS site_name,
      coalesce((SELECT json_agg(r ORDER BY r.created_at DESC, r.id DESC) FROM (
        SELECT id, remark_name, remark, whatsapp, telephone, status_refund, voided, chargeback, report_error,
               created_at FROM remarks WHERE order_id = o.id) r), '[]') AS remarks,
      coalesce((SELECT json_agg(d ORDER BY d.created_at DESC, d.id DESC) FROM (
        SELECT documents.id, original_name, content_type, size_bytes, documents.created_at, st.name AS uploaded_by,
          application_number, expires_on, reading->>'matched' AS matched, reading->>'sentAnyway' AS sent_anyway,
          (SELECT provider FROM mails WHERE mails.order_id = o.id AND mails.document_id = documents.id
           ORDER BY mails.id LIMIT 1) AS mail_service_provider
        FROM documents LEFT JOIN staff st ON st.id = documents.uploaded_by WHERE order_id = o.id) d), '[]') AS documents,
      coalesce((SELECT json_agg(m ORDER BY m.created_at DESC, m.id DESC) FROM (
        SELECT id, kind, to_address, subject, provider, state, attempts, last_error, created_at, sent_at,
               from_address, provider_message_id, next_attempt_at
        FROM mails WHERE order_id = o.id) m), '[]') AS mails,
      coalesce((SELECT json_agg(w ORDER BY w.created_at DESC, w.id DESC) FROM (
        SELECT id, created_at, ip, timezone, browser, os, device, device_type, location
        FROM downloads WHERE order_id = o.id) w), '[]') AS downloads,
      coalesce((SELECT json_agg(a ORDER BY a.at, a.id) FROM (
        SELECT id, at, actor_name, action, before, after FROM audit_log WHERE order_id = o.id) a), '[]') AS timeline
    FROM orders o LEFT JOIN staff s ON s.id = o.assign_to
    WHERE o.order_id = ${v.orderId}`;
  });
  return rows[0];
}

export const findOrderKey = (db: Db, orderId: string) =>
  db.selectFrom('orders').select(['id', 'order_id']).where('order_id', '=', orderId).executeTakeFirst();

export async function insertRemark(
  db: Db,
  r: {
    orderId: number;
    staffId: number;
    staffName: string;
    remark: string;
    flags: Pick<RemarkRow, 'whatsapp' | 'telephone' | 'status_refund' | 'voided' | 'chargeback' | 'report_error'>;
  },
) {
  return db
    .insertInto('remarks')
    .values({ order_id: r.orderId, staff_id: r.staffId, remark_name: r.staffName, remark: r.remark, ...r.flags })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Locks one order for a change (FOR UPDATE) and reads what the rules need. */
export const lockOrder = (trx: Transaction<DB>, orderId: string) =>
  trx
    .selectFrom('orders')
    .select(['id', 'order_id', 'process_status', 'payment_status', 'version', 'transaction_id', 'merchant_name'])
    .where('order_id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();

export async function updateTransactionDetails(
  trx: Transaction<DB>,
  id: number,
  change: { transaction_id: string; merchant_name: string },
): Promise<number> {
  const row = await trx
    .updateTable('orders')
    .set({ ...change, updated_at: new Date(), version: sql<number>`version + 1` })
    .where('id', '=', id)
    .returning('version')
    .executeTakeFirstOrThrow();
  return row.version;
}

/** Who last changed the order and when: named back to a person whose copy was stale. */
export const selectLastChange = (db: Db, orderId: string) =>
  db
    .selectFrom('audit_log')
    .innerJoin('orders', 'orders.id', 'audit_log.order_id')
    .select(['audit_log.actor_name', 'audit_log.at', 'orders.version'])
    .where('orders.order_id', '=', orderId)
    .orderBy('audit_log.at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(1)
    .executeTakeFirst();
