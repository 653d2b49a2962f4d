// All SQL of encrypting what was stored before issue 24 (`npm run personal-data:encrypt`): orders with a sensitive
// field still in clear, walked by id, and the documents the database names.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, SealedFields } from '../../db/schema.js';
import { SENSITIVE_ORDER_FIELDS } from './personal-fields.js';
import type { SealedOrderColumns, SensitiveValues } from './order-fields.js';

export type ClearOrderRow = SensitiveValues & { id: number; order_id: string };

const anyClear = sql.join(
  SENSITIVE_ORDER_FIELDS.map((f) => sql`${sql.ref(f)} IS NOT NULL`),
  sql` OR `,
);

/**
 * The next `limit` orders after id `afterId` that hold a sensitive field in clear, locked until the batch commits.
 * Index: orders_pkey (a walk by id; each batch starts where the last one ended).
 */
export async function lockClearOrders(trx: Transaction<DB>, afterId: number, limit: number): Promise<ClearOrderRow[]> {
  const { rows } = await sql<ClearOrderRow>`
    SELECT id, order_id, ${sql.join(SENSITIVE_ORDER_FIELDS.map((f) => sql.ref(f)))}
      FROM orders WHERE id > ${afterId} AND (${anyClear})
     ORDER BY id LIMIT ${limit} FOR UPDATE`.execute(trx);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * Writes each order's sealed fields with its clear columns NULL; answers what the database now holds. A row that also
 * holds sealed fields already keeps them (merged, the newly sealed winning), and its passport hash unless a passport
 * number was sealed now.
 */
export async function storeSealedOrders(
  trx: Transaction<DB>,
  rows: (SealedOrderColumns & { id: number })[],
): Promise<{ id: number; order_id: string; personal_sealed: SealedFields | null }[]> {
  if (rows.length === 0) return [];
  const values = rows.map((r) => ({ id: r.id, sealed: r.personal_sealed, hmac: r.passport_number_hmac }));
  const { rows: stored } = await sql<{ id: number; order_id: string; personal_sealed: SealedFields | null }>`
    UPDATE orders o
       SET personal_sealed = nullif(coalesce(o.personal_sealed, '{}'::jsonb) || coalesce(v.sealed, '{}'::jsonb), '{}'),
           passport_number_hmac = coalesce(v.hmac, o.passport_number_hmac),
      ${sql.join(SENSITIVE_ORDER_FIELDS.map((f) => sql`${sql.ref(f)} = NULL`))}
      FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(id bigint, sealed jsonb, hmac bytea)
     WHERE o.id = v.id
    RETURNING o.id, o.order_id, o.personal_sealed`.execute(trx);
  return stored.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * Every stored approved document and signature, each key once (demo orders share one signature). An anti-join, not
 * `NOT IN (subquery)`: with 670,000 documents the subquery's keys do not fit in work_mem, and NOT IN then rescans
 * them for every order (it ran for over six minutes on the bench's million orders).
 */
export async function selectPersonalDocumentKeys(db: Kysely<DB>) {
  const { rows } = await sql<{ key: string; sha256: string | null }>`
    SELECT storage_key AS key, min(sha256) AS sha256 FROM documents GROUP BY storage_key
    UNION
    SELECT s.key, NULL FROM (SELECT DISTINCT customer_sign AS key FROM orders WHERE customer_sign IS NOT NULL) AS s
     WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.storage_key = s.key)
    ORDER BY 1`.execute(db);
  return rows;
}

/**
 * After a run rewrote orders: every rewritten row left a dead version behind and is not yet marked all-visible, so
 * until a vacuum the queues' deep pages (index-only walks) visit the table for every entry. Measured on the bench's
 * million orders: Pending page 500 went from 22.7 to 150 ms p95 with autovacuum off, and back after this (15 s).
 */
export async function vacuumOrders(db: Kysely<DB>): Promise<void> {
  await sql`VACUUM (ANALYZE) orders`.execute(db);
}
