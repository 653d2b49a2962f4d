// All SQL of the order queues. Hot queries name the index they rely on (migrations/001).
import {
  sql,
  type AliasedSelectQueryBuilder,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  type SelectQueryBuilder,
  type Transaction,
} from 'kysely';
import {
  MONTH_LABELS,
  QUEUES,
  type DisputeSummary,
  type OrderListRow,
  type ProcessStatus,
  type QueueName,
} from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { customPlan } from '../../db/prepared-pool.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { isoTime } from '../../lib/time.js';
import { folderCount } from './folder-counts.repository.js';
import { newQueueParts, queueFilter } from './queues.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The first day of the Future month `month` (1-12): the next one from the current month on, so this year's month
 * while it has not passed, else next year's (issue 22: on 24 Nov 2026 an order due on 1 Nov 2027 was Nov's too).
 */
const futureMonthStart = (month: number) =>
  sql<string>`(date_trunc('month', current_date)
    + make_interval(months => (${month}::int - extract(month from current_date)::int + 12) % 12))::date`;

/** The search expression; it must stay identical to the one of orders_search_idx (migration 012) and orders_new_search_idx (019). */
const searchText = sql<string>`lower(orders.order_id || ' ' || coalesce(orders.passport_first_name, '') || ' ' ||
  coalesce(orders.passport_surname, '') || ' ' || orders.email || ' ' || coalesce(orders.telephone_number, ''))`;

/**
 * The week an order was bought, the other key of orders_search_idx (the same expression, so the index matches
 * it). Weeks are whole, so weeks newest first, each sorted newest first, is the queue's own order.
 */
const searchWeek = (createdAt: Expression<Date>) =>
  sql<Date>`date_bin('7 days', ${createdAt}, '2000-01-03 00:00:00+00')`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What a search looks for: the typed text, trimmed and lower-cased like the search text. */
const needleOf = (search: string | undefined) => search?.trim().toLowerCase();

/**
 * Whether the search index can narrow a search at all: pg_trgm takes trigrams from runs of letters and digits, so
 * a fragment without three in a row ("zz", "a.b") matches every key, and reading the index week by week would
 * read all of it every week.
 */
export const indexNarrows = (search: string) => /[\p{L}\p{N}]{3}/u.test(search);

/** Whether a row's search text holds the needle, without the search index (strpos cannot use it). */
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
}

export type SearchQuery = Omit<QueueQuery, 'offset' | 'limit' | 'month'> & { search: string };

/**
 * `useSearchIndex` false tests each row with strpos, which keeps the planner on the queue's own index. Through the
 * index, the pattern is a subquery's value, which the planner does not see: it takes its fixed guess for LIKE
 * (0.5 % of the table) instead of an estimate from a sampled histogram, which said 100 for "oliver" (10,545) after
 * one ANALYZE in twenty. On that estimate a search in a small queue read every trigram match from the table
 * (10,000 rows, 24 ms) instead of intersecting them with the queue's own index first (235 rows, 6 ms). A fragment
 * the index cannot narrow stays in sight: the planner must see it has no trigrams to keep off the index (reading
 * all of it took 1.8 s for "zz" in New) and such a statement is planned for its own pattern (matchSearch).
 */
function baseQuery(
  db: QueryCreator<DB>,
  q: Omit<QueueQuery, 'offset' | 'limit'> & { search?: string },
  useSearchIndex = true,
) {
  let query = db.selectFrom('orders').where((eb) => queueFilter(q.queue, eb, q.staffId));
  if (q.month !== undefined) {
    const start = futureMonthStart(q.month);
    query = query
      .where('orders.processing_date', '>=', start)
      .where('orders.processing_date', '<', sql<string>`(${start} + interval '1 month')::date`);
  }
  const needle = needleOf(q.search);
  if (needle) {
    const pattern = `%${escapeLike(needle)}%`;
    if (!useSearchIndex) query = query.where(holds(needle));
    else if (indexNarrows(needle)) query = query.where(searchText, 'like', sql<string>`(SELECT ${pattern}::text)`);
    else query = query.where(searchText, 'like', pattern);
  }
  return query;
}

/**
 * Queue order: newest first with the id as tie-breaker, so pages never repeat or skip rows. Two queues are worked
 * by a date of their own first: Future by the day processing may start, soonest first (index orders_future_idx),
 * and ChargeBack by the open dispute's evidence due date, soonest first, orders without one last (index
 * orders_chargeback_idx, migration 016).
 */
const LEAD_KEYS: Partial<Record<QueueName, RawBuilder<unknown>>> = {
  futureOrder: sql`processing_date ASC`,
  chargeBack: sql`dispute_due_at ASC NULLS LAST`,
};

/** Whether a queue is in order of purchase (newest first) and nothing else: only those may be read by week. */
export const byPurchase = (queue: QueueName) => LEAD_KEYS[queue] === undefined;

/** Queue order over `from`, the orders table or a subquery with the lead key's column, created_at and id. */
const queueOrder = (queue: QueueName, from: string) => {
  const lead = LEAD_KEYS[queue];
  return sql.join([
    ...(lead ? [sql`${sql.table(from)}.${lead}`] : []),
    sql`${sql.ref(`${from}.created_at`)} DESC`,
    sql`${sql.ref(`${from}.id`)} DESC`,
  ]);
};

/** A query over orders in its queue's order. */
function inQueueOrder<O>(query: SelectQueryBuilder<DB, 'orders', O>, queue: QueueName) {
  return query.orderBy(queueOrder(queue, 'orders'));
}

/** The ids and sort keys of one list page, in queue order. */
function pageIds(db: Db, q: QueueQuery) {
  if (q.queue === 'newOrder') return newQueuePageIds(db, q);
  // Deferred join: the offset is walked over the queue's index (ids only, an index-only scan on a vacuumed
  // table), and only the `limit` rows on the page are read from the table. Page 1000 stays cheap.
  return inQueueOrder(baseQuery(db, q).select(pageKeys(q.queue)), q.queue)
    .limit(rowCount(q.limit))
    .$if(q.offset > 0, (page) => page.offset(q.offset));
}

/**
 * A page's sort keys. Only the Future queue reads processing_date: the other queue indexes hold just
 * (created_at, id), and another column would turn their index-only scans into table reads.
 */
const pageKeys = (queue: QueueName) => (eb: ExpressionBuilder<DB, 'orders'>) => [
  eb.ref('orders.id').as('id'),
  eb.ref('orders.created_at').as('created_at'),
  queue === 'futureOrder'
    ? eb.ref('orders.processing_date').as('processing_date')
    : sql<string | null>`null::date`.as('processing_date'),
  // ChargeBack's lead key (LEAD_KEYS), for the sorts over these keys; other queues keep their SQL as it was.
  ...(queue === 'chargeBack' ? [sql<Date | null>`orders.dispute_due_at`.as('dispute_due_at')] : []),
];

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
          .$call((query) => inQueueOrder(query, 'newOrder'))
          .as(index === 0 ? 'standard' : 'due'),
      )
      .selectAll();
  return db
    .selectFrom(part(0).unionAll(part(1)).as('new_queue'))
    .selectAll()
    .orderBy(queueOrder('newOrder', 'new_queue'))
    .limit(rowCount(q.limit))
    .$if(q.offset > 0, (page) => page.offset(q.offset));
}

/**
 * A list page and its queue's total, in one statement. Without a month filter the total is the queue's folder
 * count (order_counters), never a row count.
 */
export async function selectQueuePage(db: Db, q: QueueQuery): Promise<{ rows: OrderListRow[]; total: number }> {
  const total =
    q.month === undefined
      ? folderCount(QUEUES[q.queue].countKey, q.staffId)
      : sql<number>`(${baseQuery(db, q).select((eb) => eb.fn.countAll<number>().as('n'))})`;
  return selectListRows(db, q.queue, pageIds(db, q).as('page'), total);
}

/** The list rows of orders found by a search (their ids), in queue order. */
export async function selectSearchRows(db: Db, queue: QueueName, ids: number[]): Promise<OrderListRow[]> {
  const page = db
    .selectFrom('orders')
    .where(sql<boolean>`orders.id = any(${ids}::bigint[])`)
    .select(pageKeys(queue))
    .as('page');
  return (await selectListRows(db, queue, page, null)).rows;
}

type PageKeys = { id: number; created_at: Date; processing_date: string | null };

/** A list row as json_agg writes it: timestamps are ISO 8601 text in UTC (the connections' zone). */
type ListRowJson = Omit<OrderListRow, 'create_ts' | 'process_month' | 'dispute'> & {
  id: number;
  created_at: string;
  dispute?: DisputeJson | null;
};
type DisputeJson = Omit<DisputeSummary, 'evidence_due_by'> & { evidence_due_by: string | null };

/**
 * The list rows of one page, given its ids and sort keys as a subquery, and a total read beside them. The rows
 * travel as one JSON array: one JSON.parse instead of a type parser per field, and one row back even for an
 * empty page.
 */
async function selectListRows(
  db: Db,
  queue: QueueName,
  page: AliasedSelectQueryBuilder<PageKeys, 'page'>,
  total: RawBuilder<number> | null,
): Promise<{ rows: OrderListRow[]; total: number }> {
  const rows = db
    .selectFrom(page)
    .innerJoin('orders', 'orders.id', 'page.id')
    .leftJoin('staff', 'staff.id', 'orders.assign_to')
    .select([
      'orders.id',
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
      'orders.dispute_due_at',
      sql<string>`coalesce(staff.name, '')`.as('assign_to'),
    ])
    // The ChargeBack list shows each order's newest dispute (index disputes_order_idx).
    .$if(queue === 'chargeBack', (q) =>
      q.select(
        sql<DisputeJson | null>`(SELECT json_build_object('reason', d.reason, 'amount_cents', d.amount_cents,
          'currency', d.currency, 'status', d.status, 'evidence_due_by', d.evidence_due_by,
          'evidence_state', d.evidence_state)
          FROM disputes d WHERE d.order_id = orders.id ORDER BY d.created_at DESC LIMIT 1)`.as('dispute'),
      ),
    );
  const { rows: result } = await sql<{ total: number | null; rows: ListRowJson[] }>`
    SELECT ${total ?? sql`NULL`} AS total, coalesce(json_agg(r ORDER BY ${queueOrder(queue, 'r')}), '[]') AS rows
    FROM (${rows}) AS r`.execute(db);
  const { total: n, rows: json } = result[0]!;
  return {
    total: Number(n),
    rows: json.map((r) => ({
      order_id: r.order_id,
      process_status: r.process_status,
      passport_first_name: r.passport_first_name,
      passport_surname: r.passport_surname,
      email: r.email,
      telephone_number: r.telephone_number,
      country_code: r.country_code,
      create_ts: isoTime(r.created_at),
      refund_date: r.refund_date === null ? null : isoTime(r.refund_date),
      processing_date: r.processing_date,
      process_month: r.processing_type === 'Future' && r.processing_date ? monthLabel(r.processing_date) : null,
      processing_type: r.processing_type,
      assign_to: r.assign_to,
      version: r.version,
      ...(r.dispute !== undefined
        ? {
            dispute: r.dispute && {
              ...r.dispute,
              evidence_due_by: r.dispute.evidence_due_by && isoTime(r.dispute.evidence_due_by),
            },
          }
        : {}),
    })),
  };
}

/** 'Nov 2027': the month of a processing date with its year. */
const monthLabel = (isoDate: string) => {
  const name = MONTH_LABELS[Number(isoDate.slice(5, 7)) - 1];
  return name ? `${name} ${isoDate.slice(0, 4)}` : null;
};

/**
 * How many of the queue's `rows` first rows (in queue order) a search matches: a density measured on the data,
 * so no search plan rests on a row estimate (order-queries.service). With `queueSize`, the queue's folder count
 * comes in the same statement (else 0).
 */
export async function probeSearch(
  db: Db,
  q: SearchQuery,
  rows: number,
  queueSize = false,
): Promise<{ walked: number; matched: number; queueSize: number }> {
  const firstRows = baseQuery(db, { queue: q.queue, staffId: q.staffId })
    .select(holds(needleOf(q.search) ?? '').as('hit'))
    .$call((query) => inQueueOrder(query, q.queue))
    .limit(rowCount(rows));
  const row = await db
    .selectFrom(firstRows.as('first_rows'))
    .select((eb) => [
      eb.fn.countAll<number>().as('walked'),
      sql<number>`count(*) FILTER (WHERE first_rows.hit)`.as('matched'),
      (queueSize ? folderCount(QUEUES[q.queue].countKey, q.staffId) : sql<number>`0`).as('queue_size'),
    ])
    .executeTakeFirstOrThrow();
  return { walked: Number(row.walked), matched: Number(row.matched), queueSize: Number(row.queue_size) };
}

/*
 * Three ways to find a search's matches. Each returns ids in queue order, the first `limit` of them, so the
 * caller has its page and its capped count from one list; which one is cheapest depends on how many orders
 * match, which the service measures (order-queries.service).
 */

/**
 * Every match through the trigram index, up to `cap` of them, in queue order. Right when there are few: the
 * index finds them in table order, and they are sorted here. When `cap` are found there may be more, and these
 * are not the first ones in queue order.
 */
export async function matchSearch(db: Db, q: SearchQuery, cap: number): Promise<number[]> {
  const found = db
    .with(
      (cte) => cte('matches').materialized(),
      (d) => baseQuery(d, q).select(pageKeys(q.queue)).limit(rowCount(cap)),
    )
    .selectFrom('matches')
    .select('matches.id');
  return idsOf(
    db,
    found.orderBy(queueOrder(q.queue, 'matches')).$if(!indexNarrows(q.search), (query) => query.modifyEnd(customPlan)),
  );
}

/**
 * The orders of the queue whose passport number has this keyed hash (issue 24: the number itself is sealed), in
 * queue order, at most `limit`. Index: orders_passport_hmac_idx (migration 021); a number is on one order or a few.
 */
export async function selectPassportMatches(db: Db, q: Omit<SearchQuery, 'search'>, hash: Buffer, limit: number) {
  return idsOf(
    db,
    inQueueOrder(
      baseQuery(db, { queue: q.queue, staffId: q.staffId })
        .where('orders.passport_number_hmac', '=', hash)
        .select('orders.id'),
      q.queue,
    ).limit(rowCount(limit)),
  );
}

/**
 * The first `limit` matches, walking the queue newest first and testing each row. Right when matches are
 * dense: at 37 % ("gmail") 1,001 matches are ~2,700 rows in memory, where the index's bitmap would hold a third
 * of the table.
 */
export async function walkSearchInQueueOrder(db: Db, q: SearchQuery, limit: number): Promise<number[]> {
  return idsOf(db, inQueueOrder(baseQuery(db, q, false).select('orders.id'), q.queue).limit(rowCount(limit)));
}

/**
 * The first `limit` matches, reading the search index a week at a time, newest week first, and sorting each
 * week's matches (orders_search_idx, migration 012). Right when matches are many but not dense ("oliver", 1 %:
 * the newest 1,001 are two or three weeks' worth, ~5 ms, where walking the queue took ~100,000 rows). Not for
 * the Future queue, whose order is not by time bought. Every statement of it has the same plan, whatever the
 * fragment, so it is prepared like any other. `weeks` reads only some of the queue's weeks, counted from its
 * newest: the matches of consecutive windows, one after the other, are the matches of the whole in order.
 */
export async function walkSearchByWeek(
  db: Db,
  q: SearchQuery,
  limit: number,
  weeks: { skip: number; take?: number } = { skip: 0 },
): Promise<number[]> {
  if (!byPurchase(q.queue)) throw new Error(`The ${q.queue} queue is not in order of purchase.`);
  const edge = (fn: 'max' | 'min') =>
    searchWeek(
      sql<Date>`(${db
        .selectFrom('orders')
        .where((eb) => queueFilter(q.queue, eb, q.staffId))
        .select((eb) => eb.fn[fn]('orders.created_at').as('edge'))})`,
    );
  const window = sql.join(
    [
      ...(weeks.skip > 0 ? [sql`OFFSET ${rowCount(weeks.skip)}`] : []),
      ...(weeks.take !== undefined ? [sql`LIMIT ${rowCount(weeks.take)}`] : []),
    ],
    sql` `,
  );
  const series = sql<{ week: Date }>`(SELECT week
    FROM generate_series(${edge('max')}, ${edge('min')}, interval '-7 days') AS week ${window})`;
  const found = db
    .selectFrom(series.as('week'))
    .innerJoinLateral(
      inQueueOrder(
        baseQuery(db, q)
          .where(sql<boolean>`${searchWeek(sql.ref('orders.created_at'))} = week.week`)
          .select('orders.id'),
        q.queue,
      ).as('match'),
      (join) => join.onTrue(),
    )
    .select('match.id')
    // A nested loop: the weeks in series order, each week's matches in its own order (test/search-plans).
    .limit(rowCount(limit));
  return idsOf(db, found);
}

/**
 * The ids a query finds, in the order it finds them, as one JSON array: one value back instead of a row per id
 * (up to 1,001 of them; PostgreSQL aggregates a subquery's rows in the order the subquery yields them).
 */
async function idsOf(db: Db, query: Expression<{ id: number }>): Promise<number[]> {
  const { rows } = await sql<{ ids: number[] }>`
    SELECT coalesce(json_agg(found.id), '[]') AS ids FROM (${query}) AS found`.execute(db);
  return rows[0]!.ids;
}

/**
 * Future orders per processing month, from order_counters (migration 002): the twelve months from the current one;
 * a date further out (the current month of next year) is in the queue but in no month.
 */
export async function selectFutureMonthCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('order_counters')
    .select([sql<number>`extract(month from processing_date)::int`.as('month'), sql<number>`sum(n)`.as('count')])
    .where('process_status', '=', 'New')
    .where('processing_type', '=', 'Future')
    .where('processing_date', '>', sql<string>`current_date`)
    .where('processing_date', '<', sql<string>`(date_trunc('month', current_date) + interval '12 months')::date`)
    .groupBy(sql`1`)
    .execute();
  return new Map(rows.map((r) => [Number(r.month), Number(r.count)]));
}

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
