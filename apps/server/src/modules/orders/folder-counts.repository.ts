// Folder counts over order_counters (kept by a trigger, migration 002): a few hundred rows at most, so a count
// costs well under a millisecond even at a million orders. All of a person's come in one query; a list reads its own
// queue's count inside its page statement (orders.repository).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { FolderCountKey, FolderCounts } from '@eta/contracts';
import type { DB } from '../../db/schema.js';

/**
 * Which counters make each folder count: the queue filters of queues.ts, over the counters' keys (assign_to 0 is
 * unassigned; processing_date is kept only for New Future orders). Fixed values are SQL text, so each statement
 * that reads them keeps one text and one plan (db/prepared-pool).
 */
const COUNTER_FILTERS: Record<FolderCountKey, (staffId: number) => RawBuilder<boolean>> = {
  myOrdersCount: (staffId) =>
    sql`assign_to = ${staffId} AND process_status NOT IN ('Completed', 'Deleted', 'Refund Completed')`,
  newOrdersCount: () => sql`process_status = 'New' AND assign_to = 0
    AND (processing_type = 'Standard' OR (processing_type = 'Future' AND processing_date <= current_date))`,
  priorityOrdersCount: () => sql`process_status = 'New' AND assign_to = 0 AND processing_type = 'Priority'`,
  pendingOrdersCount: () => sql`process_status = 'Pending'`,
  completedOrdersCount: () => sql`process_status = 'Completed'`,
  awaitingOrdersCount: () => sql`process_status = 'Awaiting'`,
  awaitingGovtCount: () => sql`process_status = 'AwaitingGovt'`,
  customerCalledCount: () => sql`process_status = 'Customer Called'`,
  contactCustomerOrdersCount: () => sql`process_status = 'Contact Customer'`,
  allOrdersCount: () => sql`process_status <> 'Deleted'`,
  deletedOrdersCount: () => sql`process_status = 'Deleted'`,
  refundOrdersCount: () => sql`process_status = 'Refunds'`,
  chargeBackCount: () => sql`process_status = 'ChargeBack'`,
  futureOrdersCount: () =>
    sql`process_status = 'New' AND processing_type = 'Future' AND processing_date > current_date`,
};

/** The counts named, in one statement. */
export async function selectFolderCounts(
  db: Kysely<DB>,
  staffId: number,
  keys: FolderCountKey[],
): Promise<FolderCounts> {
  const counts = keys.map((key) => sql`sum(n) FILTER (WHERE ${COUNTER_FILTERS[key](staffId)}) AS ${sql.ref(key)}`);
  const { rows } = await sql<Record<FolderCountKey, number | null>>`
    SELECT ${sql.join(counts)} FROM order_counters`.execute(db);
  const row = rows[0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v ?? 0)])) as FolderCounts;
}

/** One folder count as a scalar subquery, so a statement can read it beside its own rows. */
export const folderCount = (key: FolderCountKey, staffId: number) =>
  sql<number>`(SELECT coalesce(sum(n), 0) FROM order_counters WHERE ${COUNTER_FILTERS[key](staffId)})`;

/** Adds the counters' stripes into one row each and drops empty rows (migration 015; every minute). */
export async function foldCounterStripes(db: Kysely<DB>): Promise<void> {
  await sql`SELECT fold_counter_stripes()`.execute(db);
}
