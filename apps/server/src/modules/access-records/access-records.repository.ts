// All SQL of the access records (issue 24): the batched insert, an order's "Viewed by", every read for the Activity
// page, and the unusual-reading alerts. Indexes (migration 022): access_records_order_idx (order_id, at DESC, id DESC)
// for an order, access_records_staff_idx (staff_id, at DESC, id DESC) for a member and the alert check,
// access_records_kind_idx (kind, at DESC, id DESC) for a kind, access_records_keyset_idx (at DESC, id DESC) otherwise.
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { AccessKind } from '@eta/contracts';
import type { AccessRecordsTable, DB } from '../../db/schema.js';
import type { KeysetKey } from '../../lib/keyset-cursor.js';

/** A row to insert; `order` is the order's public id (ETA-…), looked up by the insert itself. */
export type NewAccessRecord = Omit<Insertable<AccessRecordsTable>, 'order_id'> & { order: string | null };

/**
 * One statement for the whole batch, the same text for any batch size (the rows travel as one array per column), so
 * it is prepared once per connection (db/prepared-pool.ts) however many reads a batch holds. The order's key comes
 * from orders_order_id_key (unique) inside the insert, so the request that read the order never waits for it.
 */
export async function insertAccessRecords(db: Kysely<DB>, rows: readonly NewAccessRecord[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (row: NewAccessRecord) => T): T[] => rows.map(pick);
  await sql`
    INSERT INTO access_records
      (at, staff_id, staff_name, order_id, kind, detail, ip, user_agent, browser, os, device, device_type)
    SELECT r.at, r.staff_id, r.staff_name, (SELECT o.id FROM orders o WHERE o.order_id = r.order_ref), r.kind,
           r.detail, r.ip, r.user_agent, r.browser, r.os, r.device, r.device_type
      FROM unnest(${column((r) => r.at)}::timestamptz[], ${column((r) => r.staff_id)}::int[],
                  ${column((r) => r.staff_name)}::text[], ${column((r) => r.order)}::text[],
                  ${column((r) => r.kind)}::text[], ${column((r) => r.detail ?? null)}::text[],
                  ${column((r) => r.ip)}::text[], ${column((r) => r.user_agent ?? null)}::text[],
                  ${column((r) => r.browser)}::text[], ${column((r) => r.os)}::text[],
                  ${column((r) => r.device)}::text[], ${column((r) => r.device_type)}::text[])
        AS r(at, staff_id, staff_name, order_ref, kind, detail, ip, user_agent, browser, os, device, device_type)`.execute(
    db,
  );
}

export interface AccessFilter {
  staffId: number | null;
  /** orders.id of the order asked for. */
  orderKey: number | null;
  kind: AccessKind | null;
  /** Inclusive lower bound and exclusive upper bound (UTC midnights). */
  from: Date | null;
  until: Date | null;
}

export interface AccessDbRow {
  id: number;
  at: Date;
  at_key: string;
  staff_id: number;
  staff_name: string;
  order_id: string | null;
  kind: AccessKind;
  detail: string | null;
  ip: string;
  browser: string;
  os: string;
  device_type: string;
}

/** A page of reads newest first over keys (at, id): one index range scan at any depth. */
export function selectAccessRecords(
  db: Kysely<DB>,
  f: AccessFilter,
  after: KeysetKey | null,
  limit: number,
): Promise<AccessDbRow[]> {
  return db
    .selectFrom('access_records as r')
    .leftJoin('orders as o', 'o.id', 'r.order_id')
    .select([
      'r.id',
      'r.at',
      sql<string>`to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('at_key'),
      'r.staff_id',
      'r.staff_name',
      'o.order_id',
      'r.kind',
      'r.detail',
      'r.ip',
      'r.browser',
      'r.os',
      'r.device_type',
    ])
    .$if(f.staffId !== null, (qb) => qb.where('r.staff_id', '=', f.staffId!))
    .$if(f.orderKey !== null, (qb) => qb.where('r.order_id', '=', f.orderKey!))
    .$if(f.kind !== null, (qb) => qb.where('r.kind', '=', f.kind!))
    .$if(f.from !== null, (qb) => qb.where('r.at', '>=', f.from!))
    .$if(f.until !== null, (qb) => qb.where('r.at', '<', f.until!))
    .$if(after !== null, (qb) =>
      qb.where(sql<boolean>`(r.at, r.id) < (${after!.at}::timestamptz, ${after!.id}::bigint)`),
    )
    .orderBy('r.at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, id: Number(r.id) })));
}

export const findOrderKey = (db: Kysely<DB>, orderId: string) =>
  db.selectFrom('orders').select('id').where('order_id', '=', orderId).executeTakeFirst();

/** The advisory lock's key: "access alerts", issue 24. */
const ALERT_LOCK = 24_022;

/**
 * Raises an alert for each member of `staffIds` who opened at least `threshold` distinct orders since `since`,
 * unless an alert of theirs already covers part of that window (once per member per window). Members with such an
 * alert are dropped first (access_alerts_staff_idx), so a member already alerted costs no count; the others' window
 * is counted in one statement through access_records_staff_idx. Under a transaction-wide advisory lock, so that two
 * servers checking at once cannot raise the same alert twice.
 */
export async function raiseUnusualReadAlerts(
  db: Kysely<DB>,
  staffIds: readonly number[],
  since: Date,
  threshold: number,
): Promise<{ id: number; staff_id: number; order_count: number }[]> {
  if (staffIds.length === 0) return [];
  return db.transaction().execute(async (trx: Transaction<DB>) => {
    await sql`SELECT pg_advisory_xact_lock(${ALERT_LOCK})`.execute(trx);
    // Arrays rather than IN lists: one statement text whatever the number of members (db/prepared-pool.ts).
    const alerted = await trx
      .selectFrom('access_alerts')
      .select('staff_id')
      .where(sql<boolean>`staff_id = ANY(${[...staffIds]}::int[])`)
      .where('window_end', '>=', since)
      .execute();
    const unalerted = staffIds.filter((id) => !alerted.some((a) => a.staff_id === id));
    if (unalerted.length === 0) return [];
    const { rows } = await sql<{ id: number; staff_id: number; order_count: number }>`
      INSERT INTO access_alerts (staff_id, staff_name, window_start, window_end, order_count)
      SELECT r.staff_id, (array_agg(r.staff_name ORDER BY r.at DESC))[1], min(r.at), max(r.at),
             count(DISTINCT r.order_id)
        FROM access_records r
       WHERE r.staff_id = ANY(${unalerted}::int[])
         AND r.at >= ${since}
         AND r.order_id IS NOT NULL
       GROUP BY r.staff_id
      HAVING count(DISTINCT r.order_id) >= ${threshold}
      RETURNING id, staff_id, order_count`.execute(trx);
    return rows.map((r) => ({ id: Number(r.id), staff_id: r.staff_id, order_count: Number(r.order_count) }));
  });
}

export interface AlertDbRow {
  id: number;
  staff_id: number;
  staff_name: string;
  window_start: Date;
  window_end: Date;
  order_count: number;
  raised_at: Date;
  acknowledged_at: Date | null;
  acknowledged_by_name: string | null;
}

const ALERT_COLUMNS = [
  'id',
  'staff_id',
  'staff_name',
  'window_start',
  'window_end',
  'order_count',
  'raised_at',
  'acknowledged_at',
  'acknowledged_by_name',
] as const;

/** Alerts are few (one per member per hour at most): newest first by id, a page by offset. */
export const selectAlerts = (db: Kysely<DB>, offset: number, limit: number): Promise<AlertDbRow[]> =>
  db.selectFrom('access_alerts').select(ALERT_COLUMNS).orderBy('id', 'desc').offset(offset).limit(limit).execute();

export const countAlerts = (db: Kysely<DB>) =>
  db
    .selectFrom('access_alerts')
    .select([
      sql<number>`count(*)::int`.as('total'),
      sql<number>`(count(*) FILTER (WHERE acknowledged_at IS NULL))::int`.as('open'),
    ])
    .executeTakeFirstOrThrow();

/** Locks the alert for its acknowledgement. */
export const lockAlert = (trx: Transaction<DB>, id: number): Promise<AlertDbRow | undefined> =>
  trx.selectFrom('access_alerts').select(ALERT_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();

export const acknowledgeAlert = (
  trx: Transaction<DB>,
  id: number,
  by: { id: number; name: string },
): Promise<AlertDbRow> =>
  trx
    .updateTable('access_alerts')
    .set({ acknowledged_at: new Date(), acknowledged_by_id: by.id, acknowledged_by_name: by.name })
    .where('id', '=', id)
    .returning(ALERT_COLUMNS)
    .executeTakeFirstOrThrow();
