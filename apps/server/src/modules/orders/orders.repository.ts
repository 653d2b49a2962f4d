// All SQL of the order queues. Hot queries name the index they rely on (migrations/001).
import {
  sql,
  type ExpressionBuilder,
  type Kysely,
  type QueryCreator,
  type SelectQueryBuilder,
  type Transaction,
} from 'kysely';
import { MONTH_LABELS, type OrderListRow, type ProcessStatus, type QueueName } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { customPlan } from '../../db/prepared-pool.js';
import { newQueueParts, queueFilter } from './queues.js';

type Db = Kysely<DB> | Transaction<DB>;

/** The search expression; it must stay identical to the one of orders_search_trgm_idx. */
const searchText = sql<string>`lower(orders.order_id || ' ' || coalesce(orders.passport_first_name, '') || ' ' ||
  coalesce(orders.passport_surname, '') || ' ' || orders.email || ' ' || coalesce(orders.telephone_number, ''))`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What a search looks for: the typed text, trimmed and lower-cased like the search text. */
const needleOf = (search: string | undefined) => search?.trim().toLowerCase();

/** Whether a row's search text holds the needle, without the trigram index (strpos cannot use it). */
const holds = (needle: string) => sql<boolean>`strpos(${searchText}, ${needle}) > 0`;

/**
 * A page's size goes into the SQL text (there are a handful of sizes) and its offset only when it is not 0: the
 * first page is then one fixed statement with one plan, and a deep page's generic plan (db/prepared-pool) is costed
 * for the rows it returns rather than PostgreSQL's default guess of 10 % of the queue, so it is chosen.
 */
function rowCount(n: number) {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`Not a row count: ${n}`);
  return sql.lit<number>(n);
}

export interface QueueQuery {
  queue: QueueName;
  staffId: number;
  offset: number;
  limit: number;
  /** Future queue: processing month 1-12. */
  month?: number | undefined;
  search?: string | undefined;
  /**
   * How a search finds its page. 'matches-first': collect every match through the trigram index, then sort
   * (right when there are few). 'queue-order': walk the queue newest first and test each row (right when
   * matches are many). The service decides from the capped count, so no plan rests on a row estimate.
   */
  searchPlan?: 'matches-first' | 'queue-order' | undefined;
}

type BaseQuery = Omit<QueueQuery, 'offset' | 'limit' | 'searchPlan'>;

function baseQuery(db: QueryCreator<DB>, q: BaseQuery, useSearchIndex = true) {
  let query = db.selectFrom('orders').where((eb) => queueFilter(q.queue, eb, q.staffId));
  if (q.month !== undefined) {
    query = query.where(sql<number>`extract(month from orders.processing_date)`, '=', q.month);
  }
  const needle = needleOf(q.search);
  if (needle) {
    // LIKE can use orders_search_trgm_idx; strpos cannot, which keeps the planner on the queue's own index.
    query = useSearchIndex ? query.where(searchText, 'like', `%${escapeLike(needle)}%`) : query.where(holds(needle));
  }
  return query;
}

/**
 * Queue order: newest first with the id as tie-breaker, so pages never repeat or skip rows. The Future queue
 * is worked by the day processing may start, soonest first (index orders_future_idx matches this order).
 */
const byProcessingDate = (queue: QueueName) => queue === 'futureOrder';

/** A query over orders in its queue's order. */
function inQueueOrder<O>(query: SelectQueryBuilder<DB, 'orders', O>, queue: QueueName) {
  return (byProcessingDate(queue) ? query.orderBy('orders.processing_date', 'asc') : query)
    .orderBy('orders.created_at', 'desc')
    .orderBy('orders.id', 'desc');
}

/** The ids and sort keys of one page, in queue order. */
function pageIds(db: Db, q: QueueQuery) {
  // Only the Future queue reads processing_date here: the other queue indexes hold just (created_at, id), and
  // another column would turn their index-only scans into table reads.
  const keys = (eb: ExpressionBuilder<DB, 'orders'>) => [
    eb.ref('orders.id').as('id'),
    eb.ref('orders.created_at').as('created_at'),
    byProcessingDate(q.queue)
      ? eb.ref('orders.processing_date').as('processing_date')
      : sql<string | null>`null::date`.as('processing_date'),
  ];
  if (q.search && q.searchPlan === 'matches-first') {
    const matches = db
      .with(
        (cte) => cte('matches').materialized(),
        (d) => baseQuery(d, q).select(keys),
      )
      .selectFrom('matches')
      .select(['matches.id', 'matches.created_at', 'matches.processing_date']);
    return (byProcessingDate(q.queue) ? matches.orderBy('matches.processing_date', 'asc') : matches)
      .orderBy('matches.created_at', 'desc')
      .orderBy('matches.id', 'desc')
      .limit(rowCount(q.limit))
      .$if(q.offset > 0, (page) => page.offset(q.offset));
  }
  if (q.queue === 'newOrder' && !q.search) return newQueuePageIds(db, q);
  // Deferred join: the offset is walked over the queue's index (ids only, an index-only scan on a vacuumed
  // table), and only the `limit` rows on the page are read from the table. Page 1000 stays cheap.
  return inQueueOrder(baseQuery(db, q, q.searchPlan !== 'queue-order').select(keys), q.queue)
    .limit(rowCount(q.limit))
    .$if(q.offset > 0, (page) => page.offset(q.offset));
}

/**
 * A New page: each part of the queue (queues.ts newQueueParts) walked in queue order on its own index, and the
 * two merged. PostgreSQL merges (Merge Append) only when each branch is an ordered subquery of its own.
 */
function newQueuePageIds(db: Db, q: QueueQuery) {
  const part = (index: 0 | 1) =>
    db
      .selectFrom((d) =>
        d
          .selectFrom('orders')
          .where((eb) => newQueueParts(eb)[index])
          .select(['orders.id', 'orders.created_at', sql<string | null>`null::date`.as('processing_date')])
          .orderBy('orders.created_at', 'desc')
          .orderBy('orders.id', 'desc')
          .as(index === 0 ? 'standard' : 'due'),
      )
      .selectAll();
  return db
    .selectFrom(part(0).unionAll(part(1)).as('new_queue'))
    .selectAll()
    .orderBy('new_queue.created_at', 'desc')
    .orderBy('new_queue.id', 'desc')
    .limit(rowCount(q.limit))
    .$if(q.offset > 0, (page) => page.offset(q.offset));
}

export async function selectQueuePage(db: Db, q: QueueQuery): Promise<OrderListRow[]> {
  const page = pageIds(db, q);
  const joined = db
    .selectFrom(page.as('page'))
    .innerJoin('orders', 'orders.id', 'page.id')
    .leftJoin('staff', 'staff.id', 'orders.assign_to')
    .select([
      'orders.order_id',
      'orders.process_status',
      'orders.passport_first_name',
      'orders.passport_surname',
      'orders.email',
      'orders.telephone_number',
      'orders.country_code',
      'orders.created_at',
      'orders.refund_date',
      'orders.processing_date',
      'orders.processing_type',
      'orders.version',
      sql<string>`coalesce(staff.name, '')`.as('assign_to'),
    ]);
  const rows = await (byProcessingDate(q.queue) ? joined.orderBy('page.processing_date', 'asc') : joined)
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc')
    .$if(Boolean(q.search), (page) => page.modifyEnd(customPlan))
    .execute();
  return rows.map((r) => ({
    order_id: r.order_id,
    process_status: r.process_status,
    passport_first_name: r.passport_first_name,
    passport_surname: r.passport_surname,
    email: r.email,
    telephone_number: r.telephone_number,
    country_code: r.country_code,
    create_ts: r.created_at.toISOString(),
    refund_date: r.refund_date ? r.refund_date.toISOString() : null,
    processing_date: r.processing_date,
    process_month: r.processing_type === 'Future' && r.processing_date ? monthLabel(r.processing_date) : null,
    processing_type: r.processing_type,
    assign_to: r.assign_to,
    version: r.version,
  }));
}

const monthLabel = (isoDate: string) => MONTH_LABELS[Number(isoDate.slice(5, 7)) - 1] ?? null;

/**
 * Exact count of a filtered queue (month or search), stopping at `cap` rows. `useSearchIndex` false: a search
 * walks the queue in queue order instead of using the trigram index. For a fragment its newest orders often
 * contain, that finds `cap` matches at once among rows in memory, where the index's bitmap would hold a third
 * of the table and a scan in table order would start at its oldest, coldest pages (8-9 ms for "gmail").
 */
export async function countQueueRows(db: Db, q: BaseQuery, cap: number, useSearchIndex = true): Promise<number> {
  const inner = baseQuery(db, q, useSearchIndex)
    .select(sql`1`.as('one'))
    .$if(!useSearchIndex, (walk) => inQueueOrder(walk, q.queue))
    .limit(rowCount(cap));
  const row = await db
    .selectFrom(inner.as('matches'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .$if(Boolean(q.search), (count) => count.modifyEnd(customPlan))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * How many of the queue's `rows` first rows (in queue order) a search matches: a density measured on the data,
 * so the count's plan never rests on a row estimate (order-queries.service).
 */
export async function probeSearch(db: Db, q: BaseQuery, rows: number): Promise<{ walked: number; matched: number }> {
  const firstRows = baseQuery(db, { ...q, search: undefined })
    .select(holds(needleOf(q.search) ?? '').as('hit'))
    .$call((query) => inQueueOrder(query, q.queue))
    .limit(rowCount(rows));
  const row = await db
    .selectFrom(firstRows.as('first_rows'))
    .select((eb) => [
      eb.fn.countAll<number>().as('walked'),
      sql<number>`count(*) FILTER (WHERE first_rows.hit)`.as('matched'),
    ])
    .executeTakeFirstOrThrow();
  return { walked: Number(row.walked), matched: Number(row.matched) };
}

/** Future orders per processing month, from order_counters (migration 002). */
export async function selectFutureMonthCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('order_counters')
    .select([sql<number>`extract(month from processing_date)::int`.as('month'), sql<number>`sum(n)`.as('count')])
    .where('process_status', '=', 'New')
    .where('processing_type', '=', 'Future')
    .where('processing_date', '>', sql<string>`current_date`)
    .groupBy(sql`1`)
    .execute();
  return new Map(rows.map((r) => [Number(r.month), Number(r.count)]));
}

/** Order ids are matched exactly, case-insensitive and trimmed (DESIGN §7); stored ids are upper case. */
export const normalizeOrderId = (id: string) => id.trim().toUpperCase();

export interface LockedOrder {
  id: number;
  order_id: string;
  process_status: ProcessStatus;
  payment_status: string;
  assign_to: number | null;
  assign_name: string | null;
  version: number;
  /** A Future order whose processing date is still to come waits in the Future queue. */
  not_due_until: string | null;
}

/** Locks the named orders for the rest of the transaction, in id order so concurrent moves cannot deadlock. */
export function lockOrders(trx: Transaction<DB>, orderIds: string[]): Promise<LockedOrder[]> {
  return trx
    .selectFrom('orders')
    .leftJoin('staff', 'staff.id', 'orders.assign_to')
    .select([
      'orders.id',
      'orders.order_id',
      'orders.process_status',
      'orders.payment_status',
      'orders.assign_to',
      'staff.name as assign_name',
      'orders.version',
      sql<string | null>`CASE WHEN orders.processing_type = 'Future' AND orders.processing_date > current_date
        THEN orders.processing_date END`.as('not_due_until'),
    ])
    .where('orders.order_id', 'in', orderIds.map(normalizeOrderId))
    .orderBy('orders.id')
    .forUpdate('orders')
    .execute();
}

export interface OrderChange {
  process_status?: ProcessStatus;
  assign_to?: number | null;
  assign_date?: Date | null;
  refund_date?: Date | null;
}

/**
 * Applies one change to the orders (already locked) and bumps their version. A move into Completed records
 * who made it and when, in the same statement: the Processed By report reads it (migration 007).
 */
export async function updateOrders(
  trx: Transaction<DB>,
  ids: number[],
  change: OrderChange,
  movedBy: number | null,
): Promise<void> {
  if (ids.length === 0) return;
  const processed =
    change.process_status === 'Completed' && movedBy !== null
      ? { processed_by: movedBy, processed_at: sql<Date>`now()` }
      : {};
  await trx
    .updateTable('orders')
    .set({ ...change, ...processed, updated_at: new Date(), version: sql<number>`version + 1` })
    .where('id', 'in', ids)
    .execute();
}
