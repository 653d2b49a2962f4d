// All SQL of the order queues. Hot queries name the index they rely on (migrations/001).
import {
  sql,
  type AliasedExpression,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type QueryCreator,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  type Transaction,
} from 'kysely';
import {
  holdsOpenOrders,
  MONTH_LABELS,
  QUEUES,
  type DisputeSummary,
  type OrderListRow,
  type OrderTiming,
  type ProcessStatus,
  type QueueName,
} from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { CachedStatement } from '../../db/statement-cache.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { isoTime } from '../../lib/time.js';
import { folderCount, overdueCount, overdueOrders, WAITING_COUNT_CAP } from './folder-counts.repository.js';
import {
  newQueueParts,
  overdueSince,
  QUEUE_STATUSES,
  queueFilter,
  travelAt,
  urgentCondition,
  waitingSince,
} from './queues.js';
import type { SearchText } from './search-text.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * The first day of the Future month `month` (1-12): the next one from the current month on, so this year's month
 * while it has not passed, else next year's (issue 22: on 24 Nov 2026 an order due on 1 Nov 2027 was Nov's too).
 */
const futureMonthStart = (month: number) =>
  sql<string>`(date_trunc('month', current_date)
    + make_interval(months => (${month}::int - extract(month from current_date)::int + 12) % 12))::date`;

/**
 * An order's search text: order id, names, e-mail and telephone, lower-cased, a column PostgreSQL keeps (migration
 * 037) and the trigram indexes' key: read as it is, not built from its parts at every row a search tests.
 */
const searchText = sql<string>`orders.search_text`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A page's size goes into the SQL text (there are a handful of sizes), so the first page is one fixed statement with
 * one plan, costed for the rows it returns.
 */
function rowCount(n: number) {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`Not a row count: ${n}`);
  return sql.lit<number>(n);
}

/**
 * A deep page's offset, as a value the planner cannot see (a subquery's). As `OFFSET $1` PostgreSQL costs the generic
 * plan (db/prepared-pool) for its guess of 10 % of the queue and each custom plan for the offset given, finds the
 * generic one dearer and plans every call anew (0.3-0.5 ms of a page 1000); unseen, both are costed alike and the
 * generic plan is kept after five calls. The plan is the queue's index walked in order either way.
 */
function pageOffset(n: number) {
  return sql<number>`(SELECT ${n}::int)`;
}

/** A page's offset, checked before it becomes a statement's value (pageOffset). */
function checkOffset(n: number) {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`Not an offset: ${n}`);
  return n;
}

export interface QueueQuery {
  queue: QueueName;
  staffId: number;
  offset: number;
  limit: number;
  /** Future queue: processing month 1-12. */
  month?: number | undefined;
  /** URGENT_TRAVEL_HOURS: which open orders are urgent. */
  urgentHours: number;
  /** The queue's urgent orders first (sort=urgent). */
  urgentFirst?: boolean | undefined;
  /**
   * Urgent first: whether the queue likely has urgent orders past this page's end (the urgent counts last read say
   * so, or none were read). The page is then read as one statement over the urgent orders alone, which gives the
   * whole page when the hint is right; when it is wrong, the page is read the long way (urgentFirstPage).
   */
  pageLikelyUrgent?: boolean | undefined;
}

/** A search's queue: the rows a search may find. */
export type SearchScope = Pick<QueueQuery, 'queue' | 'staffId'>;

/** The orders of a queue, of one Future month when `month` is given. */
function baseQuery(db: QueryCreator<DB>, q: Pick<QueueQuery, 'queue' | 'staffId' | 'month'>) {
  let query = db.selectFrom('orders').where((eb) => queueFilter(q.queue, eb, q.staffId));
  if (q.month !== undefined) {
    const start = futureMonthStart(q.month);
    query = query
      .where('orders.processing_date', '>=', start)
      .where('orders.processing_date', '<', sql<string>`(${start} + interval '1 month')::date`);
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

/** Whether a queue is in order of purchase, newest first, and nothing else: Future and ChargeBack are not. */
export const inOrderOfPurchase = (queue: QueueName) => LEAD_KEYS[queue] === undefined;

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

/**
 * The ids and sort keys of one list page, in queue order, from `offset` (null on the first page: in a statement
 * built for its shape q.offset is a slot, db/statement-cache, so the caller says whether the page is deep).
 * Deferred join: the offset is walked over the queue's index (ids only, an index-only scan on a vacuumed table), and
 * only the `limit` rows on the page are read from the table. Page 1000 stays cheap.
 */
function pageIds(db: Db, q: QueueQuery, offset: Expression<number> | null) {
  if (q.queue === 'newOrder') return newPageIds(db, q, offset);
  return queueWalk(db, q, (query) => query.select(pageKeys(q.queue)))
    .limit(rowCount(q.limit))
    .$if(offset !== null, (page) => page.offset(offset!));
}

/**
 * A New page without merging at every row: orders_new_idx walked from the page's offset less the number u of due
 * orders not marked yet (queueWalk), `limit` + u rows, with those u beside them, sorted, from where the page starts
 * among them. Every row of the walk and after the unmarked ones that come before it has its place in the queue at
 * the walk's start plus its place in the sorted rows, so the page is those rows from offset − start; a Merge
 * Append of the two parts cost each row of a deep page's walk about twice what the walk itself did.
 */
function newPageIds(db: Db, q: QueueQuery, offset: Expression<number> | null) {
  const part = (index: 0 | 1) =>
    db
      .selectFrom('orders')
      .where((eb) => newQueueParts(eb)[index])
      .select(pageKeys('newOrder'));
  const unmarked = sql<number>`(SELECT count(*) FROM (${part(1)}) AS unmarked)`;
  const start = offset === null ? null : sql<number>`greatest(${offset} - ${unmarked}, 0)`;
  const walk = inQueueOrder(part(0), 'newOrder')
    .limit(sql<number>`${rowCount(q.limit)} + ${unmarked}`)
    .$if(start !== null, (query) => query.offset(start!));
  // Typed as the orders it selects, as queueWalk's.
  return db
    .selectFrom(
      db
        .selectFrom(walk.as('marked'))
        .selectAll()
        .unionAll(db.selectFrom(part(1).as('unmarked')).selectAll())
        .as('orders'),
    )
    .selectAll()
    .orderBy(queueOrder('newOrder', 'orders'))
    .limit(rowCount(q.limit))
    .$if(start !== null, (page) => page.offset(sql<number>`${offset!} - ${start!}`)) as unknown as ReturnType<
    typeof part
  >;
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
 * A queue's orders in its order, `select`ed from orders, for a walk to take its first rows. New is walked in its two
 * parts (queues.ts newQueueParts), merged (Merge Append: PostgreSQL merges only when each branch is an ordered
 * subquery of its own): orders_new_idx, and the due Future orders not marked yet, sorted (those whose processing date
 * came since housekeeping last marked: a minute's worth, a day's at midnight, whatever the table's size). So a search
 * walk of New reads one index from its newest order, as in other queues, and never steps over the Future orders not
 * due yet. (A New page, which skips rows by the thousand, does not merge at every row: newPageIds.)
 */
function queueWalk<O extends { id: number; created_at: Date }>(
  db: Db,
  q: Pick<QueueQuery, 'queue' | 'staffId' | 'month'>,
  select: (query: SelectQueryBuilder<DB, 'orders', object>) => SelectQueryBuilder<DB, 'orders', O>,
): SelectQueryBuilder<DB, 'orders', O> {
  if (q.queue !== 'newOrder') return inQueueOrder(select(baseQuery(db, q)), q.queue);
  const part = (index: 0 | 1) =>
    db
      .selectFrom(() =>
        inQueueOrder(select(db.selectFrom('orders').where((eb) => newQueueParts(eb)[index])), 'newOrder').as(
          index === 0 ? 'marked' : 'unmarked',
        ),
      )
      .selectAll();
  // Typed as the orders it selects: callers only take its first rows (limit, offset) or read it as a subquery.
  return db
    .selectFrom(part(0).unionAll(part(1)).as('orders'))
    .selectAll()
    .orderBy(queueOrder('newOrder', 'orders')) as unknown as SelectQueryBuilder<DB, 'orders', O>;
}

/**
 * A list page and its queue's total, in one statement. Without a month filter the total is the queue's folder
 * count (order_counters), never a row count.
 */
export async function selectQueuePage(db: Db, q: QueueQuery): Promise<{ rows: OrderListRow[]; total: number }> {
  const { shape, values, withValues } = queueValues(q);
  const total = (v: typeof values) =>
    q.month === undefined
      ? folderCount(QUEUES[q.queue].countKey, v.staffId)
      : sql<number>`(${baseQuery(db, withValues(v)).select((eb) => eb.fn.countAll<number>().as('n'))})`;
  if (q.urgentFirst && holdsOpenOrders(q.queue)) {
    if (q.pageLikelyUrgent && q.offset + q.limit <= URGENT_FIRST_CAP) {
      // A whole page of urgent orders is the page: none of the others comes before them. The offset is a literal too
      // (at most URGENT_FIRST_CAP): as a parameter, PostgreSQL planned the statement anew at each call (2 ms).
      const page = await selectListRows(db, q.queue, q.urgentHours, 'travel', {
        statement: urgentPageStatement,
        shape: `${shape} ${q.offset}`,
        values,
        parts: (v) => [
          urgentOrders(db, withValues(v)).limit(rowCount(q.limit)).offset(rowCount(q.offset)).as('page'),
          total(v),
        ],
      });
      if (page.rows.length === q.limit) return page;
    }
    return selectListRows(db, q.queue, q.urgentHours, 'urgentFirst', {
      statement: urgentFirstStatement,
      shape,
      values,
      parts: (v) => [urgentFirstPage(db, withValues(v)), total(v)],
    });
  }
  return selectListRows(db, q.queue, q.urgentHours, 'queue', {
    statement: pageStatement,
    shape,
    values,
    parts: (v) => [pageIds(db, withValues(v), q.offset > 0 ? pageOffset(v.offset) : null).as('page'), total(v)],
  });
}

/**
 * A queue query's values as a cached statement takes them (db/statement-cache): the member, the offset and the Future
 * month are parameters; `shape` is what else the page's SQL depends on (a month filter, the page's size, an offset).
 */
function queueValues(q: QueueQuery) {
  checkOffset(q.offset);
  const values = { staffId: q.staffId, offset: q.offset, month: q.month ?? 0 };
  const withValues = (v: typeof values): QueueQuery => ({
    ...q,
    staffId: v.staffId,
    offset: v.offset,
    month: q.month === undefined ? undefined : v.month,
  });
  return {
    shape: `${q.month === undefined ? '' : 'month'} ${q.limit} ${q.offset > 0 ? 'deep' : ''}`,
    values,
    withValues,
  };
}

const pageStatement = new CachedStatement<ListResult>();
const urgentPageStatement = new CachedStatement<ListResult>();
const urgentFirstStatement = new CachedStatement<ListResult>();
const searchRowsStatement = new CachedStatement<ListResult>();
const overduePageStatement = new CachedStatement<ListResult>();

/**
 * A queue sorted urgent first shows at most this many urgent orders on top (four pages of 50), soonest first; any more
 * keep their place in the queue. Each page reads them and walks that many more rows of the queue.
 */
export const URGENT_FIRST_CAP = 200;

/**
 * A page of a queue sorted urgent first, as one subquery of ids (with `on_top` for the urgent orders shown on top):
 * the queue's urgent orders (at most URGENT_FIRST_CAP, soonest travel first, read from orders_urgent_idx), then the
 * others in queue order. The others' part of the page is one walk of the queue in its own order (pageIds,
 * index-only) from the page's place among them, URGENT_FIRST_CAP rows longer: the urgent orders are dropped from it,
 * and so are the others that the urgent orders before the walk's start pushed into it (those urgent orders that come
 * before the walk's first row in queue order). So a page costs the urgent orders and a page of the queue 200 rows
 * longer, not a pass over the queue, and one round trip (it was three: the urgent orders, the walk, the rows).
 */
function urgentFirstPage(db: Db, q: QueueQuery): AliasedExpression<{ id: number }, 'page'> {
  const limit = rowCount(q.limit);
  const offset = pageOffset(q.offset);
  const urgent = urgentOrders(db, q)
    .select(sql<string>`${travelAt}`.as('travel'))
    .limit(rowCount(URGENT_FIRST_CAP));
  const walk = pageIds(
    db,
    { ...q, limit: q.limit + URGENT_FIRST_CAP },
    sql<number>`greatest(${offset} - (SELECT count(*) FROM urgent), 0)`,
  );
  return sql<{ id: number }>`(
    WITH urgent AS MATERIALIZED (${urgent}),
    on_top AS (SELECT urgent.id FROM urgent ORDER BY urgent.travel, ${queueOrder(q.queue, 'urgent')}
      LIMIT ${limit} OFFSET ${offset}),
    walk AS MATERIALIZED (${walk}),
    walk_start AS (SELECT * FROM walk ORDER BY ${queueOrder(q.queue, 'walk')} LIMIT 1)
    SELECT on_top.id, true AS on_top FROM on_top
    UNION ALL
    (SELECT walk.id, false FROM walk WHERE NOT EXISTS (SELECT FROM urgent WHERE urgent.id = walk.id)
      ORDER BY ${queueOrder(q.queue, 'walk')}
      LIMIT ${limit} - (SELECT count(*) FROM on_top)
      OFFSET (SELECT count(*) FROM urgent, walk_start WHERE ${precedesInQueue(q.queue, 'urgent', 'walk_start')})))`.as(
    'page',
  );
}

/** The queue's urgent orders' page keys, soonest travel first, then in queue order. */
const urgentOrders = (db: Db, q: QueueQuery) =>
  baseQuery(db, q)
    .where((eb) => urgentCondition(eb, q.urgentHours))
    .select(pageKeys(q.queue))
    // As orders_urgent_idx holds them (by travel moment, then newest first): the read stops at the page or the cap.
    .orderBy(travelAt)
    .orderBy(queueOrder(q.queue, 'orders'));

/**
 * Whether a row of `a` comes before one of `b` in the queue's order (queueOrder), for the queues that can hold urgent
 * orders: every one in order of purchase, and Future (ChargeBack, the other with a lead key, holds no open order).
 */
function precedesInQueue(queue: QueueName, a: string, b: string) {
  const [x, y] = [sql.table(a), sql.table(b)];
  const newer = sql`(${x}.created_at, ${x}.id) > (${y}.created_at, ${y}.id)`;
  return queue === 'futureOrder'
    ? sql`(${x}.processing_date < ${y}.processing_date
        OR (${x}.processing_date = ${y}.processing_date AND ${newer}))`
    : newer;
}

/**
 * Given orders as a page subquery with their sort keys. The ids are a subquery's value, which the planner does not
 * count: costed for the few ids of a whole order id or e-mail, the rows cost far less than a plan for its guess, so
 * PostgreSQL planned them anew for each search (1.2-1.6 ms of planning for 0.1 ms of work at a million orders).
 */
const pageById = (db: Db, queue: QueueName, ids: number[]) =>
  db
    .selectFrom('orders')
    .where(sql<boolean>`orders.id = any((SELECT ${ids}::bigint[])::bigint[])`)
    .select(pageKeys(queue))
    .as('page');

const positions = (ids: number[]) => new Map(ids.map((id, i) => [id, i]));

/** The list rows of orders found by a search, in the order of `ids` (the search's own: exact matches first). */
export async function selectSearchRows(
  db: Db,
  queue: QueueName,
  urgentHours: number,
  ids: number[],
): Promise<OrderListRow[]> {
  const page = await selectListRows(db, queue, urgentHours, positions(ids), {
    statement: searchRowsStatement,
    shape: '',
    values: { ids },
    parts: (v) => [pageById(db, queue, v.ids), null],
  });
  return page.rows;
}

/**
 * One page of "Waiting too long", oldest wait first, and the late orders counted as far as one past WAITING_COUNT_CAP
 * beside it: one statement (it was three, the page's ids, the count and the rows: 519 req/s against 969 for a list's
 * page 1 at a million orders, run 27).
 */
export async function selectOverduePage(
  db: Db,
  urgentHours: number,
  offset: number,
  limit: number,
): Promise<{ rows: OrderListRow[]; total: number; capped: boolean }> {
  checkOffset(offset);
  const { rows, total: n } = await selectListRows(db, 'orderHistory', urgentHours, 'waiting', {
    statement: overduePageStatement,
    shape: `${limit} ${offset > 0 ? 'deep' : ''}`,
    values: { offset },
    parts: (v) => [
      db
        .selectFrom(overdueOrders(db).as('late'))
        .select('late.id')
        .orderBy('late.since')
        .orderBy('late.id')
        .limit(rowCount(limit))
        .$if(offset > 0, (p) => p.offset(pageOffset(v.offset)))
        .as('page'),
      overdueCount(db),
    ],
  });
  return {
    rows,
    total: Math.max(Math.min(n, WAITING_COUNT_CAP), offset + rows.length),
    capped: n > WAITING_COUNT_CAP,
  };
}

/**
 * A page's rows' order: the queue's; each order's place (by id); soonest travel first, then the queue's; urgent first
 * (the page's `on_top` rows soonest travel first, then the others in the queue's order); or the longest wait first
 * (Waiting too long).
 */
type ListOrder = 'queue' | Map<number, number> | 'travel' | 'urgentFirst' | 'waiting';

/** A list row as json_agg writes it: timestamps are ISO 8601 text in UTC (the connections' zone). */
type ListRowJson = Omit<OrderListRow, 'create_ts' | 'process_month' | 'dispute'> & {
  id: number;
  created_at: string;
  dispute_due_at: string | null;
  dispute?: DisputeJson | null;
};
type DisputeJson = Omit<DisputeSummary, 'evidence_due_by'> & { evidence_due_by: string | null };

type ListResult = { total: number | null; rows: ListRowJson[] };

/** A list page's statement: its page of ids and sort keys as a subquery and a total beside them, from its values. */
interface ListedPage<V extends Record<string, unknown>> {
  statement: CachedStatement<ListResult>;
  /** What the SQL of `parts` depends on besides `values`, the queue, urgentHours and the rows' order. */
  shape: string;
  values: V;
  parts: (v: V) => [AliasedExpression<{ id: number }, 'page'>, RawBuilder<number> | null];
}

/**
 * The list rows of one page, given its ids and sort keys as a subquery, and a total read beside them. The rows
 * travel as one JSON array: one JSON.parse instead of a type parser per field, and one row back even for an
 * empty page.
 */
async function selectListRows<V extends Record<string, unknown>>(
  db: Db,
  queue: QueueName,
  urgentHours: number,
  order: ListOrder,
  listed: ListedPage<V>,
): Promise<{ rows: OrderListRow[]; total: number }> {
  const shape = `${queue} ${urgentHours} ${order instanceof Map ? 'ids' : order} ${listed.shape}`;
  const { rows: result } = await listed.statement.run(db, shape, listed.values, (v) => {
    const [page, total] = listed.parts(v);
    return listRowsQuery(db, queue, urgentHours, order, page, total);
  });
  const { total: n, rows: json } = result[0]!;
  if (order instanceof Map) json.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { total: Number(n), rows: json.map(toListRow) };
}

/** selectListRows' statement. */
function listRowsQuery(
  db: Db,
  queue: QueueName,
  urgentHours: number,
  order: ListOrder,
  page: AliasedExpression<{ id: number }, 'page'>,
  total: RawBuilder<number> | null,
) {
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
    .select(orderTiming(urgentHours))
    .$if(order === 'waiting', (q) => q.select(waitingSince.as('waiting_since')))
    .$if(order === 'urgentFirst', (q) => q.select(sql<boolean>`page.on_top`.as('on_top')))
    // The ChargeBack list shows each order's newest dispute (index disputes_order_idx).
    .$if(queue === 'chargeBack', (q) =>
      q.select(
        sql<DisputeJson | null>`(SELECT json_build_object('reason', d.reason, 'amount_cents', d.amount_cents,
          'currency', d.currency, 'status', d.status, 'evidence_due_by', d.evidence_due_by,
          'evidence_state', d.evidence_state)
          FROM disputes d WHERE d.order_id = orders.id ORDER BY d.created_at DESC LIMIT 1)`.as('dispute'),
      ),
    );
  const rowOrder =
    order === 'waiting'
      ? sql`r.waiting_since, r.id`
      : order === 'travel'
        ? sql`r.travel_at, ${queueOrder(queue, 'r')}`
        : order === 'urgentFirst'
          ? sql`r.on_top DESC, CASE WHEN r.on_top THEN r.travel_at END, ${queueOrder(queue, 'r')}`
          : queueOrder(queue, 'r');
  return sql<ListResult>`
    SELECT ${total ?? sql`NULL`} AS total, coalesce(json_agg(r ORDER BY ${rowOrder}), '[]') AS rows
    FROM (${rows}) AS r`;
}

/** A list row as the API gives it, from its JSON. */
const toListRow = (r: ListRowJson): OrderListRow => ({
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
  ...toTiming(r),
  ...(r.dispute !== undefined
    ? {
        dispute: r.dispute && {
          ...r.dispute,
          evidence_due_by: r.dispute.evidence_due_by && isoTime(r.dispute.evidence_due_by),
        },
      }
    : {}),
});

/** An order's urgency and waiting time (issue 35) as columns of a select over orders; toTiming reads them. */
export const orderTiming = (urgentHours: number) => (eb: ExpressionBuilder<DB, 'orders'>) => [
  sql<string | null>`${travelAt} AT TIME ZONE 'UTC'`.as('travel_at'),
  sql<boolean>`${urgentCondition(eb, urgentHours)}`.as('urgent'),
  sql<string>`coalesce(orders.status_changed_at, orders.created_at)`.as('status_since'),
  overdueSince.as('overdue_since'),
];

/** The timing columns as JSON carries them (timestamps as PostgreSQL's text, of the same type) made ISO 8601. */
export const toTiming = (r: OrderTiming): OrderTiming => ({
  travel_at: r.travel_at && isoTime(r.travel_at),
  urgent: r.urgent,
  status_since: isoTime(r.status_since),
  overdue_since: r.overdue_since && isoTime(r.overdue_since),
});

/** 'Nov 2027': the month of a processing date with its year. */
const monthLabel = (isoDate: string) => {
  const name = MONTH_LABELS[Number(isoDate.slice(5, 7)) - 1];
  return name ? `${name} ${isoDate.slice(0, 4)}` : null;
};

/*
 * A search's matches, found three ways (order-queries.service runs them in this order and stops at the page's end).
 * Each returns ids, the first `limit` of what it finds, so a page costs what it shows and not what matches.
 */

/** One index-ordered lookup of a whole value: a condition on the leading key of a B-tree ordered newest first. */
interface ExactKey {
  where: (eb: ExpressionBuilder<DB, 'orders'>) => Expression<SqlBool>;
  /**
   * An order found by this key is what the text was, and the answer: a passport number's keyed hash, a name of several
   * words. (Not one word, which is also looked for inside other names and addresses.)
   */
  final?: true;
  /** A name: its index holds paid orders by status after the name (migration 025). */
  byStatus?: true;
}

/**
 * The whole values a search text can be, by name: the exact step's values, each a parameter of its statement. Their
 * names are its shape (which keys it has and how many), so they are the statement's cache key with the queue.
 */
function exactValues(text: SearchText, passportHash: Buffer | null): Record<string, unknown> {
  const v: Record<string, unknown> = {};
  if (text.orderId) v.orderId = text.orderId;
  if (text.email) v.email = text.email;
  text.telephone?.digits.forEach((digits, i) => (v[`phone${i}`] = digits));
  text.telephone?.withCountryCode.forEach(({ countryCode, digits }, i) => {
    v[`phoneIn${i}`] = digits;
    v[`country${i}`] = countryCode;
  });
  if (passportHash) v.passportHash = passportHash;
  if (text.applicationNumber) v.applicationNumber = text.applicationNumber;
  if (text.name) {
    v.name = text.fragment;
    if (text.name.fullNames.length > 1) text.name.fullNames.forEach((name, i) => (v[`fullName${i}`] = name));
  }
  return v;
}

/** The values of exactValues whose names start with `prefix` and a digit, in order. */
const numbered = (v: Record<string, unknown>, prefix: string) =>
  Object.keys(v).filter((k) => k.startsWith(prefix) && /^\d+$/.test(k.slice(prefix.length)));

/** The conditions a search text's whole values give (exactValues), each on the key of its index (migrations 001, 021, 025). */
function exactKeys(v: Record<string, unknown>): ExactKey[] {
  const keys: ExactKey[] = [];
  const phoneDigits = sql<string>`regexp_replace(orders.telephone_number, '[^0-9]', '', 'g')`;
  // orders_order_id_key (unique)
  if (v.orderId !== undefined) keys.push({ where: (eb) => eb('orders.order_id', '=', v.orderId as string) });
  // orders_email_idx
  if (v.email !== undefined) keys.push({ where: (eb) => eb(sql`lower(orders.email)`, '=', v.email as string) });
  // orders_phone_digits_idx
  for (const k of numbered(v, 'phone')) keys.push({ where: (eb) => eb(phoneDigits, '=', v[k] as string) });
  for (const k of numbered(v, 'phoneIn')) {
    const country = v[`country${k.slice('phoneIn'.length)}`] as string;
    keys.push({
      where: (eb) => eb.and([eb(phoneDigits, '=', v[k] as string), eb('orders.country_code', '=', country)]),
    });
  }
  // orders_passport_hmac_idx
  if (v.passportHash !== undefined) {
    keys.push({ where: (eb) => eb('orders.passport_number_hmac', '=', v.passportHash as Buffer), final: true });
  }
  // documents_application_number_idx: the few documents that state it, then their orders by primary key (issue 35).
  if (v.applicationNumber !== undefined) {
    const number = v.applicationNumber as string;
    keys.push({
      where: (eb) =>
        eb(
          'orders.id',
          'in',
          eb.selectFrom('documents').select('documents.order_id').where('documents.application_number', '=', number),
        ),
      final: true,
    });
  }
  // orders_surname_idx, orders_first_name_idx, orders_full_name_idx: one word is a surname or a first name; several a
  // surname ("García López") or a full name in either order. Each key costs a queue's statuses one probe each.
  if (v.name !== undefined) {
    const fullNames = numbered(v, 'fullName');
    const final = fullNames.length > 0 ? { final: true as const } : {};
    keys.push({
      where: (eb) => eb(sql`lower(orders.passport_surname)`, '=', v.name as string),
      byStatus: true,
      ...final,
    });
    // A first name of several words alone ("Mary Ann") is rare enough for the fragment search to find.
    if (fullNames.length === 0) {
      keys.push({ where: (eb) => eb(sql`lower(orders.passport_first_name)`, '=', v.name as string), byStatus: true });
    }
    for (const k of fullNames) {
      keys.push({
        where: (eb) =>
          eb(sql`lower(orders.passport_first_name || ' ' || orders.passport_surname)`, '=', v[k] as string),
        byStatus: true,
        ...final,
      });
    }
  }
  return keys;
}

const exactStatement = new CachedStatement<{ ids: number[]; final: boolean }>();

/**
 * The first `limit` orders of the queue, in queue order, whose order id, e-mail, telephone number, passport number or
 * name is exactly one the text can be, and whether one of them is the answer by itself (ExactKey.final). Each key is read from its own
 * index in queue order (newest first within the value) and stops at `limit`, so a whole value costs O(log n + limit)
 * whatever the data; the few lists are merged. The Future and ChargeBack queues, ordered by dates of their own, have
 * name indexes in their own order (migrations 028 and 039); an order id, e-mail or telephone number's orders are few
 * and sorted.
 */
export async function selectExactMatches(
  db: Db,
  scope: SearchScope,
  text: SearchText,
  passportHash: Buffer | null,
  limit: number,
): Promise<{ ids: number[]; final: boolean }> {
  const values = exactValues(text, passportHash);
  const names = Object.keys(values);
  if (names.length === 0) return { ids: [], final: false };
  const shape = `${scope.queue} ${limit} ${names.join(',')}`;
  const { rows } = await exactStatement.run(db, shape, { ...values, staffId: scope.staffId }, (v) => {
    const found = (key: ExactKey, status?: ProcessStatus) => {
      const rows = baseQuery(db, { queue: scope.queue, staffId: v.staffId as number })
        .where(key.where)
        .$if(status !== undefined, (query) => query.where('orders.process_status', '=', sql.lit(status!)))
        .select(pageKeys(scope.queue))
        .select(sql.lit(key.final === true).as('final'));
      return sql`(${inQueueOrder(rows, scope.queue).limit(rowCount(limit))})`;
    };
    const statuses = QUEUE_STATUSES[scope.queue];
    const branches = exactKeys(v).map((key) =>
      key.byStatus && statuses && statuses.length > 1
        ? // One ordered range per status, merged (Merge Append): Order History's ten statuses cost ten index probes.
          sql`(SELECT * FROM (${sql.join(
            statuses.map((status) => found(key, status)),
            sql` UNION ALL `,
          )}) AS by_status ORDER BY ${queueOrder(scope.queue, 'by_status')} LIMIT ${rowCount(limit)})`
        : found(key, key.byStatus && statuses ? statuses[0] : undefined),
    );
    return sql<{ ids: number[]; final: boolean }>`
      SELECT coalesce(json_agg(exact.id), '[]') AS ids, coalesce(bool_or(exact.final), false) AS final
      FROM (SELECT * FROM (${sql.join(branches, sql` UNION `)}) AS found
        ORDER BY ${queueOrder(scope.queue, 'found')} LIMIT ${rowCount(limit)}) AS exact`;
  });
  return { ids: [...new Set(rows[0]!.ids)], final: rows[0]!.final };
}

/**
 * Marks the New queue's Future orders whose processing date has come (migration 036; housekeeping, every minute): a
 * range of orders_future_unmarked_idx up to today, so it reads only what it marks. Until then such orders are New's
 * small unmarked part (queueWalk); the count marked.
 */
export async function markDueFutureOrders(db: Db): Promise<number> {
  const { rows } = await sql<{ marked: number }>`SELECT mark_due_future_orders() AS marked`.execute(db);
  return rows[0]!.marked;
}

/** The advisory lock of the search indexes' merge: one process merges at a time ("ETAM"). */
const SEARCH_MERGE_LOCK = 0x45_54_41_4d;

/**
 * Merges the pending lists of the orders table's GIN indexes (the search's trigram and four-character indexes) into
 * the indexes, in the background (housekeeping) rather than in the insert or update that passes the list's limit
 * (migration 035): at ten million orders one merge of a 256 kB list read 5,000-11,000 pages (0.3-0.6 s alone, past 2 s
 * under load), which that write paid inside its own statement budget. Every GIN index of orders, found in the
 * catalog (none while a large seed has them dropped); skipped when another process is merging. The number of the
 * lists' pages merged.
 */
export async function mergeSearchPending(db: Db): Promise<number> {
  const { rows } = await sql<{ merged: number }>`
    SELECT CASE WHEN pg_try_advisory_xact_lock(${sql.lit(SEARCH_MERGE_LOCK)}) THEN
      (SELECT coalesce(sum(gin_clean_pending_list(i.indexrelid)), 0)::int
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
        WHERE i.indrelid = 'orders'::regclass AND am.amname = 'gin')
      ELSE 0 END AS merged`.execute(db);
  return rows[0]!.merged;
}

/**
 * The first `limit` matches among the queue's first `rows` orders (in queue order), each tested with strpos, the
 * queue's size (its folder count) and its first order's time of purchase (its newest, in a queue in order of purchase). Bounded by `rows` whatever matches (~0.7 µs an order: most of it reading the row; the
 * search text is stored, migration 037): a burst of new orders sharing a word is found here, and a fragment in every order stops as soon as it
 * has its `limit`.
 */
type WalkRow = { ids: number[]; queue_size: number; newest: Date | null };
const walkStatement = new CachedStatement<WalkRow>();

export async function walkQueue(
  db: Db,
  scope: SearchScope,
  fragment: string,
  rows: number,
  limit: number,
): Promise<{ ids: number[]; queueSize: number; newest: Date | null }> {
  const shape = `${scope.queue} ${rows} ${limit}`;
  const { rows: result } = await walkStatement.run(db, shape, { staffId: scope.staffId, fragment }, (v) => {
    const q = { queue: scope.queue, staffId: v.staffId };
    const taken = queueWalk(db, q, (query) =>
      query.select(['orders.id', 'orders.created_at', searchText.as('text')]),
    ).limit(rowCount(rows));
    const newest = db
      .selectFrom(
        queueWalk(db, q, (query) => query.select(['orders.id', 'orders.created_at']))
          .limit(rowCount(1))
          .as('newest'),
      )
      .select('newest.created_at');
    return sql<WalkRow>`
      SELECT coalesce(json_agg(hit.id), '[]') AS ids,
        ${folderCount(QUEUES[scope.queue].countKey, v.staffId)} AS queue_size, (${newest}) AS newest
      FROM (SELECT taken.id FROM (${taken}) AS taken
        WHERE strpos(taken.text, ${v.fragment}) > 0 LIMIT ${rowCount(limit)}) AS hit`;
  });
  const found = result[0]!;
  return { ids: found.ids, queueSize: Number(found.queue_size), newest: found.newest };
}

/**
 * The search texts of a sample of about `rows` orders: orders from pages picked at random over the whole table
 * (tsm_system_rows, migration 029), so it costs the same at any size (2,000 orders: some 265 pages, 11 ms at a
 * million orders) and a burst of new orders does not sway it. The whole table stands for the queue: how common a
 * word is (an e-mail domain, a surname) differs little between queues. The service keeps it a while and counts a
 * fragment's hits in it (order-queries).
 */
export async function selectSampleTexts(db: Db, rows: number): Promise<string[]> {
  const { rows: result } = await sql<{ texts: string[] }>`
    SELECT coalesce(json_agg(sample.text), '[]') AS texts
    FROM (SELECT ${searchText} AS text FROM orders TABLESAMPLE SYSTEM_ROWS(${rowCount(rows)})) AS sample`.execute(db);
  return result[0]!.texts;
}

/**
 * A fragment with four letters or digits in a row: the index of the four-character pieces of words (migration 038)
 * has some of its pieces. Its own test is ASCII's letters and digits, which PostgreSQL's [[:alnum:]] holds whatever
 * the locale, so the fragment's pieces are never none (which every order's would contain).
 */
const HAS_QUAD = /[a-z0-9]{4}/;

/**
 * A fragment through orders_search_quads_idx (migration 038): the orders whose text has every four-character piece
 * of the fragment's words, each confirmed by the text itself (strpos, as the walk: a piece's hash may be another's,
 * and the pieces need not stand together). Not LIKE, which the planner could also put to the trigram index and read
 * its long lists beside these.
 */
const quadsMatch = (fragment: string) =>
  sql<boolean>`search_quads(${searchText}) @> (SELECT search_quads(${fragment}::text))
    AND strpos(${searchText}, (SELECT ${fragment}::text)) > 0`;

/**
 * Matches through the search's indexes, at most `cap` of them, in queue order. The index yields them in table order:
 * with fewer than `cap` they are all the matches, sorted here; with `cap` there are more, and these are some of them.
 * Its cost is the index's posting lists of the fragment's pieces, which a fragment in most orders makes long: the
 * caller runs it under a statement budget. A fragment with four letters or digits in a row goes through the index of
 * four-character pieces, whose lists are about a tenth as long as the trigrams' (quadsMatch), except in New, whose
 * own trigram index (orders_new_search_idx) holds a fiftieth of the orders; any other through the trigram index.
 * The pattern is a subquery's value, which the planner does not see: it takes its fixed guess for LIKE (0.5 % of the
 * table) instead of an estimate from a sampled histogram, which said 100 for "oliver" (10,545) after one ANALYZE in
 * twenty, and so always intersects the matches with a small queue's own index (235 rows, 6 ms, against 24 ms for
 * reading every match in the table).
 */
export async function matchSearch(db: Db, scope: SearchScope, fragment: string, cap: number): Promise<number[]> {
  const byQuads = scope.queue !== 'newOrder' && HAS_QUAD.test(fragment);
  const values = { staffId: scope.staffId, pattern: `%${escapeLike(fragment)}%`, fragment };
  return idsOf(matchStatement, db, `${scope.queue} ${cap} ${byQuads ? 'quads' : 'trigrams'}`, values, (v) =>
    db
      .with(
        (cte) => cte('matches').materialized(),
        (d) =>
          baseQuery(d, { queue: scope.queue, staffId: v.staffId })
            .where(byQuads ? quadsMatch(v.fragment) : sql<boolean>`${searchText} LIKE (SELECT ${v.pattern}::text)`)
            .select(pageKeys(scope.queue))
            .limit(rowCount(cap)),
      )
      .selectFrom('matches')
      .select('matches.id')
      .orderBy(queueOrder(scope.queue, 'matches')),
  );
}

const matchStatement = new CachedStatement<{ ids: number[] }>();

/**
 * Runs `find` in a transaction of its own whose settings say what an index step of the search is: the server's own
 * statement_timeout of `budgetMs` (a cut exact to the millisecond, where a cancel sent by the client arrives a
 * millisecond or two late), and the trigram index read as a bitmap, never a walk of the queue filtered by the pattern,
 * which the planner may take for a pattern it cannot see that has 1,001 matches near the top ("eta-2005" is in the
 * oldest tenth of the orders only: 0.5 s to walk to them at a million orders). One statement more and the
 * transaction's two (~0.2 ms). Past the budget it rejects with a statement timeout.
 */
function underIndexBudget<T>(db: Kysely<DB>, budgetMs: number, find: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await budgetStatement.run(
      trx,
      '',
      { budget: String(budgetMs) },
      (v) => sql`SELECT set_config('statement_timeout', ${v.budget}, true),
        set_config('enable_indexscan', 'off', true), set_config('enable_seqscan', 'off', true)`,
    );
    return find(trx);
  });
}

const budgetStatement = new CachedStatement<unknown>();

/** matchSearch under the index budget (underIndexBudget). */
export function matchSearchWithin(db: Kysely<DB>, scope: SearchScope, fragment: string, cap: number, budgetMs: number) {
  return underIndexBudget(db, budgetMs, (trx) => matchSearch(trx, scope, fragment, cap));
}

/** The week an order was bought, the other key of orders_search_idx (migration 012): the same expression. */
const searchWeek = (createdAt: Expression<Date>) =>
  sql<Date>`date_bin('7 days', ${createdAt}, '2000-01-03 00:00:00+00')`;

/**
 * The first `limit` matches among the orders of `weeks.count` weeks of the queue from the week of `weeks.from` (its
 * newest order's) back, in queue order, through the trigram index keyed by week (orders_search_idx, migration 012), under the index budget: a week's candidates only, each week's
 * sorted. For a fragment neither in most orders nor rare ("atthew_", 0.2 %: 6,000 candidates in the whole index, ~140
 * in the newest week of a million orders). Only for a queue in order of purchase (not Future or ChargeBack).
 */
export async function matchSearchByWeek(
  db: Kysely<DB>,
  scope: SearchScope,
  fragment: string,
  weeks: { from: Date; count: number },
  limit: number,
  budgetMs: number,
): Promise<number[]> {
  if (!inOrderOfPurchase(scope.queue)) throw new Error(`The ${scope.queue} queue is not in order of purchase.`);
  const values = {
    staffId: scope.staffId,
    pattern: `%${escapeLike(fragment)}%`,
    from: weeks.from,
    span: `${7 * (weeks.count - 1)} days`,
  };
  return underIndexBudget(db, budgetMs, (trx) =>
    idsOf(byWeekStatement, trx, `${scope.queue} ${limit}`, values, (v) => {
      const newest = searchWeek(sql<Date>`${v.from}::timestamptz`);
      const series = sql<{ week: Date }>`(SELECT week FROM generate_series(${newest},
        ${newest} - ${v.span}::interval, interval '-7 days') AS week)`;
      return (
        trx
          .selectFrom(series.as('week'))
          .innerJoinLateral(
            inQueueOrder(
              baseQuery(trx, { queue: scope.queue, staffId: v.staffId })
                .where(sql<boolean>`${searchWeek(sql.ref('orders.created_at'))} = week.week`)
                .where(searchText, 'like', sql<string>`(SELECT ${v.pattern}::text)`)
                .select('orders.id'),
              scope.queue,
            ).as('match'),
            (join) => join.onTrue(),
          )
          .select('match.id')
          // A nested loop: the weeks in series order, each week's matches in its own order.
          .limit(rowCount(limit))
      );
    }),
  );
}

/**
 * The ids a query finds, in the order it finds them, as one JSON array: one value back instead of a row per id
 * (up to 1,001 of them; PostgreSQL aggregates a subquery's rows in the order the subquery yields them).
 */
async function idsOf<V extends Record<string, unknown>>(
  statement: CachedStatement<{ ids: number[] }>,
  db: Db,
  shape: string,
  values: V,
  query: (v: V) => Expression<{ id: number }>,
): Promise<number[]> {
  const { rows } = await statement.run(
    db,
    shape,
    values,
    (v) => sql<{ ids: number[] }>`SELECT coalesce(json_agg(found.id), '[]') AS ids FROM (${query(v)}) AS found`,
  );
  return rows[0]!.ids;
}

const byWeekStatement = new CachedStatement<{ ids: number[] }>();

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
