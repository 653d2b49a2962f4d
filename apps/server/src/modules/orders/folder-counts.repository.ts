// Folder counts over order_counters (kept by a trigger, migration 002): a few hundred rows at most, so a count
// costs well under a millisecond even at a million orders. All of a person's come in one query; a list reads its own
// queue's count inside its page statement (orders.repository).
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import {
  holdsOpenOrders,
  PROCESSING_TYPES,
  QUEUE_NAMES,
  QUEUES,
  type FolderCountKey,
  type FolderCounts,
  type ProcessingType,
} from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { CachedStatement } from '../../db/statement-cache.js';
import { overdueOfType, queueFilter, urgentCondition, waitingSince } from './queues.js';

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

const folderCountsStatement = new CachedStatement<Record<FolderCountKey, number | null>>();

/** The spec's counts of the queues named, in one statement over the counters. */
export async function selectFolderCounts(
  db: Kysely<DB>,
  staffId: number,
  keys: FolderCountKey[],
): Promise<FolderCounts> {
  const { rows } = await folderCountsStatement.run(db, keys.join(','), { staffId }, (v) => {
    const counts = keys.map((key) => sql`sum(n) FILTER (WHERE ${COUNTER_FILTERS[key](v.staffId)}) AS ${sql.ref(key)}`);
    return sql<Record<FolderCountKey, number | null>>`SELECT ${sql.join(counts)} FROM order_counters`;
  });
  const row = rows[0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v ?? 0)])) as FolderCounts;
}

/** The urgent and late orders counted for everyone at once (issue 35); each person's share is picked from it. */
export interface TimingCounts {
  /** Urgent orders per folder count key, of every queue that can hold open orders but My Orders… */
  urgent: Partial<Record<FolderCountKey, number>>;
  /** …whose urgent orders are each holder's: holder's id → count. */
  urgentByHolder: Record<string, number>;
  urgentCapped: boolean;
  late: number;
  lateCapped: boolean;
}

/**
 * The urgent orders of each queue that can hold open orders (one range of orders_urgent_idx, read as far as
 * URGENT_COUNT_CAP, grouped by what the queue filters read and counted by the queues' own filters) and the late orders
 * as far as WAITING_COUNT_CAP (ranges of orders_waiting_idx), in one statement. The same for every member (My Orders
 * as a count per holder: an urgent order is open, so it is in its holder's My Orders), so the service reads it once
 * for all of them.
 */
export async function selectTimingCounts(db: Kysely<DB>, urgentHours: number): Promise<TimingCounts> {
  const columns = ['payment_status', 'process_status', 'processing_type', 'processing_date', 'assign_to'] as const;
  const urgentOrders = db
    .selectFrom('orders')
    .where((eb) => urgentCondition(eb, urgentHours))
    .select(columns)
    .limit(sql.lit(URGENT_COUNT_CAP + 1))
    .as('urgent');
  // Named `orders`, so that the queue filters apply to the groups as written and count their orders.
  const groups = db
    .selectFrom(urgentOrders)
    .select(columns.map((c) => `urgent.${c}` as const))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .groupBy(columns.map((c) => `urgent.${c}` as const))
    .as('orders');
  const sum = (filter?: Expression<SqlBool>) =>
    filter ? sql<number>`coalesce(sum(n) FILTER (WHERE ${filter}), 0)` : sql<number>`coalesce(sum(n), 0)`;
  const urgent = db.selectFrom(groups).select((eb) => {
    const orders = eb as unknown as ExpressionBuilder<DB, 'orders'>;
    return [
      sum().as('read'),
      sql<[number, number][] | null>`json_agg(json_build_array(assign_to, n)) FILTER (WHERE assign_to IS NOT NULL)`.as(
        'byHolder',
      ),
      ...QUEUE_NAMES.filter((q) => holdsOpenOrders(q) && q !== 'myOrder').map((q) =>
        sum(queueFilter(q, orders, 0)).as(QUEUES[q].countKey),
      ),
    ];
  });
  const { rows } = await sql<{
    urgent: Record<FolderCountKey, number> & { read: number; byHolder: [number, number][] | null };
    late: number;
  }>`SELECT (SELECT row_to_json(u) FROM (${urgent}) u) AS urgent, ${overdueCount(db)} AS late`.execute(db);
  const { read, byHolder, ...perQueue } = rows[0]!.urgent;
  const late = Number(rows[0]!.late);
  // A holder's orders may be in several groups.
  const urgentByHolder: Record<string, number> = {};
  for (const [holder, n] of byHolder ?? []) urgentByHolder[holder] = (urgentByHolder[holder] ?? 0) + n;
  return {
    urgent: perQueue,
    urgentByHolder,
    urgentCapped: read > URGENT_COUNT_CAP,
    late: Math.min(late, WAITING_COUNT_CAP),
    lateCapped: late > WAITING_COUNT_CAP,
  };
}

/**
 * The most urgent orders the urgent counts read (in travel date order): beyond it each count is a lower bound
 * (`urgentCapped`, "N+"). Thousands of open orders flying within days is a crisis the counts cannot make smaller, and
 * each one counted costs every folder count about a microsecond.
 */
export const URGENT_COUNT_CAP = 5000;

/**
 * The most a "Waiting too long" count reads: beyond it the dashboard and the view say "500+". More late orders than that
 * is a backlog whose exact size tells no one what to do next, and each one counted costs every folder count (pushed
 * to every member on each change) about a microsecond.
 */
export const WAITING_COUNT_CAP = 500;

/**
 * Open orders past their processing type's target time, oldest wait first: each type's range of orders_waiting_idx
 * (type, waiting since), merged (Merge Append: each branch an ordered subquery of its own). A page costs its offset
 * and its rows, whatever the table's size.
 */
export function overdueOrders(db: QueryCreator<DB>) {
  const part = (type: ProcessingType) =>
    db
      .selectFrom((d) =>
        d
          .selectFrom('orders')
          .where((eb) => overdueOfType(eb, type))
          .select(['orders.id', waitingSince.as('since')])
          .orderBy(waitingSince)
          .orderBy('orders.id')
          .as(type.toLowerCase()),
      )
      .selectAll();
  const [first, ...others] = PROCESSING_TYPES.map(part);
  return others.reduce((union, next) => union.unionAll(next), first!);
}

/**
 * The late orders counted as far as one past WAITING_COUNT_CAP: the types' ranges appended unordered, so the count
 * stops there (with each type's range in order, PostgreSQL sorted them all first).
 */
export const overdueCount = (db: QueryCreator<DB>) => {
  const [first, ...others] = PROCESSING_TYPES.map((type) =>
    db
      .selectFrom('orders')
      .where((eb) => overdueOfType(eb, type))
      .select(sql<number>`1`.as('one')),
  );
  // The limit is a literal: as a parameter the generic plan is costed for 10 % of the rows and every call is planned anew.
  const late = others.reduce((union, next) => union.unionAll(next), first!).limit(sql.lit(WAITING_COUNT_CAP + 1));
  return sql<number>`(SELECT count(*) FROM (${late}) AS late)`;
};

/** One folder count as a scalar subquery, so a statement can read it beside its own rows. */
export const folderCount = (key: FolderCountKey, staffId: number) =>
  sql<number>`(SELECT coalesce(sum(n), 0) FROM order_counters WHERE ${COUNTER_FILTERS[key](staffId)})`;

/** Adds the counters' stripes into one row each and drops empty rows (migration 015; every minute). */
export async function foldCounterStripes(db: Kysely<DB>): Promise<void> {
  await sql`SELECT fold_counter_stripes()`.execute(db);
}
