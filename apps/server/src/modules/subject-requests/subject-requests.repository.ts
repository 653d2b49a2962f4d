// All SQL of customers' requests (issue 24): a person's orders found by their e-mail address, with what the Admin
// screen shows of each. Index: orders_email_idx (lower(email)); the counts read remarks_order_idx, mails_order_idx,
// downloads_order_idx and disputes_order_idx.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface SubjectOrderRow {
  id: number;
  order_id: string;
  created_at: Date;
  landing_site: string;
  process_status: string;
  erased_at: Date | null;
  legal_hold_at: Date | null;
  legal_hold_by_name: string | null;
  legal_hold_reason: string | null;
  mails: number;
  downloads: number;
  remarks: number;
  open_dispute: string | null;
}

/** The orders whose customer e-mail is `email` (any case), oldest first; at most `limit`. */
export async function selectOrdersByEmail(db: Kysely<DB>, email: string, limit: number): Promise<SubjectOrderRow[]> {
  const { rows } = await sql<SubjectOrderRow>`
    SELECT o.id::int AS id, o.order_id, o.created_at, o.landing_site, o.process_status, o.erased_at,
      o.legal_hold_at, o.legal_hold_by_name, o.legal_hold_reason,
      (SELECT count(*) FROM mails m WHERE m.order_id = o.id)::int AS mails,
      (SELECT count(*) FROM downloads d WHERE d.order_id = o.id)::int AS downloads,
      (SELECT count(*) FROM remarks r WHERE r.order_id = o.id)::int AS remarks,
      (SELECT d.dispute_id || ' (' || d.status || ')' FROM disputes d
        WHERE d.order_id = o.id AND d.outcome IS NULL ORDER BY d.created_at DESC LIMIT 1) AS open_dispute
    FROM orders o
    WHERE lower(o.email) = lower(${email})
    ORDER BY o.created_at, o.id
    LIMIT ${limit}`.execute(db);
  return rows;
}
