// All SQL of the defence pack: ONE statement reads the whole dispute file of an order, whatever it holds —
// the order's sale and consent facts, the landing site's terms as the customer agreed to them, the gateway, and its documents, mails,
// downloads and audit timeline as JSON arrays from correlated subqueries on their (order_id, created_at)
// indexes. Events come oldest first: a pack tells the story in the order it happened.
import { sql, type Kysely } from 'kysely';
import type { DB, Order } from '../../db/schema.js';
import type { AuditRow } from '../order-detail/order-detail.repository.js';

export interface EvidenceDocumentRow {
  id: number;
  storage_key: string;
  original_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_at: string;
  uploaded_by: string | null;
  application_number: string | null;
  approved_on: string | null;
  expires_on: string | null;
  /** 'true' / 'false' as read from the reading's JSON; null before issue 35. */
  matched: string | null;
}

export interface EvidenceMailRow {
  kind: string;
  subject: string;
  to_address: string;
  provider: string;
  state: string;
  provider_message_id: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface EvidenceDownloadRow {
  created_at: string;
  ip: string;
  device: string | null;
  device_type: string | null;
  browser: string | null;
  os: string | null;
  location: string | null;
  timezone: string | null;
}

export type EvidenceRow = Pick<
  Order,
  | 'order_id'
  | 'email'
  | 'passport_first_name'
  | 'passport_surname'
  | 'payment_status'
  | 'process_status'
  | 'processing_type'
  | 'amount_cents'
  | 'currency'
  | 'transaction_id'
  | 'merchant_name'
  | 'created_at'
  | 'customer_sign'
  | 'customer_date'
  | 'ip_address'
  | 'customer_browser'
  | 'customer_timezone'
  | 'erased_at'
> & {
  site_name: string;
  /** The legal texts of the version the customer agreed to (orders.legal_version), not today's. */
  legal_version: number;
  legal_saved_at: string;
  disclaimer: string;
  fee_text: string;
  footer_contact: string;
  support_phone: string | null;
  gateway_name: string | null;
  /** Newest first: the first one is the approved document. */
  documents: EvidenceDocumentRow[];
  mails: EvidenceMailRow[];
  downloads: EvidenceDownloadRow[];
  timeline: AuditRow[];
};

/** Index: orders.order_id (unique), then documents_order_idx, mails_order_idx, downloads_order_idx and
 * audit_log_order_idx for the lists. Mail bodies are left out: a pack lists mails, it does not reprint them. */
export async function selectEvidence(db: Kysely<DB>, orderId: string): Promise<EvidenceRow | undefined> {
  const { rows } = await sql<EvidenceRow>`
    SELECT o.order_id, o.email, o.passport_first_name, o.passport_surname, o.payment_status, o.process_status,
      o.processing_type, o.amount_cents, o.currency, o.transaction_id, o.merchant_name, o.created_at,
      o.customer_sign, o.customer_date, o.ip_address, o.customer_browser, o.customer_timezone, o.erased_at,
      ls.display_name AS site_name, ls.footer_contact, ls.support_phone,
      o.legal_version, lt.created_at AS legal_saved_at, lt.disclaimer, lt.fee_text,
      g.gateway_name,
      coalesce((SELECT json_agg(d ORDER BY d.created_at DESC, d.id DESC) FROM (
        SELECT documents.id, storage_key, original_name, content_type, size_bytes, sha256, documents.created_at,
               st.name AS uploaded_by, application_number, approved_on, expires_on, reading->>'matched' AS matched
        FROM documents LEFT JOIN staff st ON st.id = documents.uploaded_by WHERE order_id = o.id) d), '[]') AS documents,
      coalesce((SELECT json_agg(m ORDER BY m.created_at, m.id) FROM (
        SELECT id, kind, subject, to_address, provider, state, provider_message_id, created_at, sent_at
        FROM mails WHERE order_id = o.id) m), '[]') AS mails,
      coalesce((SELECT json_agg(w ORDER BY w.created_at, w.id) FROM (
        SELECT id, created_at, ip, device, device_type, browser, os, location, timezone
        FROM downloads WHERE order_id = o.id) w), '[]') AS downloads,
      coalesce((SELECT json_agg(a ORDER BY a.at, a.id) FROM (
        SELECT id, at, actor_name, action, before, after FROM audit_log WHERE order_id = o.id) a), '[]') AS timeline
    FROM orders o
    JOIN landing_sites ls ON ls.key = o.landing_site
    JOIN legal_texts lt ON lt.landing_site = o.landing_site AND lt.version = o.legal_version
    LEFT JOIN gateways g ON g.id = o.gateway_id
    WHERE o.order_id = ${orderId}`.execute(db);
  return rows[0];
}
