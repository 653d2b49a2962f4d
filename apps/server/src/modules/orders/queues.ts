// The queue definitions of DESIGN §3, written once: each queue is a filter over paid orders. The list,
// the search and the counts all read these, so a queue means the same thing everywhere.
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import { OPEN_STATUSES, type ProcessingType, type ProcessStatus, type QueueName } from '@eta/contracts';
import type { DB } from '../../db/schema.js';

type Eb = ExpressionBuilder<DB, 'orders'>;

/** Statuses that end an order's life in My Orders. */
export const CLOSED_STATUSES: ProcessStatus[] = ['Completed', 'Deleted', 'Refund Completed'];

/**
 * The statuses of each queue's orders (all paid), for the indexes keyed by status after a value (migration 025): a
 * queue reads each of its statuses' range in order and merges them. My Orders, whose few orders its own index finds
 * (orders_assignee_idx), has none. queues.test checks these against queueFilter.
 */
export const QUEUE_STATUSES: Record<QueueName, readonly ProcessStatus[] | null> = {
  newOrder: ['New'],
  priorityOrder: ['New'],
  futureOrder: ['New'],
  myOrder: null,
  orderHistory: [
    'New',
    'Pending',
    'Awaiting',
    'AwaitingGovt',
    'Customer Called',
    'Contact Customer',
    'Completed',
    'Refunds',
    'Refund Completed',
    'ChargeBack',
  ],
  pendingOrder: ['Pending'],
  completedOrder: ['Completed'],
  awaitingResponse: ['Awaiting'],
  awaitingGovt: ['AwaitingGovt'],
  customerCalled: ['Customer Called'],
  contactCustomer: ['Contact Customer'],
  deletedOrder: ['Deleted'],
  refundOrder: ['Refunds'],
  chargeBack: ['ChargeBack'],
};

/** "Today" for Future orders is the UTC date (processing dates are calendar dates without a zone). */
const today = sql<string>`current_date`;

/**
 * The queues' fixed values go into the SQL text as literals, not parameters: a prepared statement (db/prepared-pool)
 * then keeps one plan, and that plan can still use the queue's partial index, whose predicate PostgreSQL can only
 * match against constants. The values are this file's own constants, never input.
 */
const lit = <T extends string>(value: T) => sql.lit<T>(value);

/** The New queue: unassigned paid New orders, Standard or Future with their processing date come. */
function newQueue(eb: Eb) {
  return {
    unassignedNew: [
      eb('orders.payment_status', '=', lit('Success')),
      eb('orders.process_status', '=', lit('New')),
      eb('orders.assign_to', 'is', null),
    ],
    standard: eb('orders.processing_type', '=', lit('Standard')),
    dueFuture: eb.and([eb('orders.processing_type', '=', lit('Future')), eb('orders.processing_date', '<=', today)]),
  };
}

/**
 * New in the two parts a page or a walk reads, each in queue order on an index of its own (migration 036): Standard
 * orders and the Future orders marked due (orders_new_idx, one walk), and the due Future orders not marked yet
 * (orders_future_unmarked_idx, in order of processing date: only those whose date came since housekeeping last marked,
 * so a few). A page merges the two (orders.repository). The parts split New exactly whatever the marks are, since a
 * marked order is due (the mark follows the date): the queue's filter below does not read it.
 */
export function newQueueParts(eb: Eb): [Expression<SqlBool>, Expression<SqlBool>] {
  const { unassignedNew, standard } = newQueue(eb);
  const future = eb('orders.processing_type', '=', lit('Future'));
  const marked = eb('orders.future_due', '=', sql.lit(true));
  return [
    eb.and([...unassignedNew, eb.or([standard, eb.and([future, marked])])]),
    eb.and([...unassignedNew, future, eb.not(marked), eb('orders.processing_date', '<=', today)]),
  ];
}

export function queueFilter(queue: QueueName, eb: Eb, staffId: number): Expression<SqlBool> {
  const paid = eb('orders.payment_status', '=', lit('Success'));
  const status = (s: ProcessStatus) => eb.and([paid, eb('orders.process_status', '=', lit(s))]);
  switch (queue) {
    case 'newOrder': {
      // Walked in its two parts (newQueueParts); `<> 'Priority'` is stated so that the trigram index of New's orders
      // (orders_new_search_idx, every New Future order with the Standard ones) matches.
      const { unassignedNew, standard, dueFuture } = newQueue(eb);
      return eb.and([
        ...unassignedNew,
        eb('orders.processing_type', '<>', lit('Priority')),
        eb.or([standard, dueFuture]),
      ]);
    }
    case 'priorityOrder':
      // Index: orders_priority_queue_idx (created_at DESC, id DESC).
      return eb.and([
        paid,
        eb('orders.process_status', '=', lit('New')),
        eb('orders.assign_to', 'is', null),
        eb('orders.processing_type', '=', lit('Priority')),
      ]);
    case 'futureOrder':
      // Index: orders_future_idx (processing_date, created_at DESC, id DESC) INCLUDE (assign_to).
      return eb.and([
        paid,
        eb('orders.process_status', '=', lit('New')),
        eb('orders.processing_type', '=', lit('Future')),
        eb('orders.processing_date', '>', today),
      ]);
    case 'myOrder':
      // Index: orders_assignee_idx (assign_to, created_at DESC, id DESC).
      return eb.and([
        paid,
        eb('orders.assign_to', '=', staffId),
        eb('orders.process_status', 'not in', CLOSED_STATUSES.map(lit)),
      ]);
    case 'orderHistory':
      // Index: orders_history_idx (created_at DESC, id DESC).
      return eb.and([paid, eb('orders.process_status', '<>', lit('Deleted'))]);
    // Single-status queues. Index: orders_status_created_idx (process_status, created_at DESC, id DESC); Completed,
    // the large one, orders_completed_idx (created_at DESC, id DESC).
    case 'pendingOrder':
      return status('Pending');
    case 'completedOrder':
      return status('Completed');
    case 'awaitingResponse':
      return status('Awaiting');
    case 'awaitingGovt':
      return status('AwaitingGovt');
    case 'customerCalled':
      return status('Customer Called');
    case 'contactCustomer':
      return status('Contact Customer');
    case 'deletedOrder':
      return status('Deleted');
    case 'refundOrder':
      return status('Refunds');
    case 'chargeBack':
      return status('ChargeBack');
  }
}

/*
 * Urgency and waiting time (issue 35, migration 033). Both are about open orders only (OPEN_STATUSES, the predicate of
 * their indexes, written out in each condition so the planner can match it whatever the queue's own filter is).
 */
const openOrder = (eb: Eb) => [
  eb('orders.payment_status', '=', lit('Success')),
  eb('orders.process_status', 'in', OPEN_STATUSES.map(lit)),
];

/** When the traveller flies (UTC; midnight when no time was given), a timestamp without zone. */
export const travelAt = sql<string>`order_travel_at(orders.travel_to_canada_year, orders.travel_to_canada_hour)`;

/**
 * Urgent: an open order whose travel moment is from today's midnight (a travel date of today or later) to `hours` from
 * now. One range of orders_urgent_idx (migration 034: keyed by the travel moment, then newest first) whatever the
 * queue: its cost is the open orders travelling in the next days, read in the order a page shows them.
 */
export function urgentCondition(eb: Eb, hours: number): Expression<SqlBool> {
  return eb.and([
    ...openOrder(eb),
    eb(travelAt, '>=', sql<string>`${today}::timestamp`),
    eb(travelAt, '<=', sql<string>`localtimestamp + make_interval(hours => ${sql.lit(hours)})`),
  ]);
}

/** Since when an open order has waited: its purchase, or its processing date for a Future order (index orders_waiting_idx). */
export const waitingSince = sql<Date>`order_waiting_since(orders.processing_type, orders.processing_date, orders.created_at)`;

/** The processing type's target time as an interval (null: no target), read beside the statement (an InitPlan). */
const targetOf = (type: ProcessingType) =>
  sql`(SELECT make_interval(mins => t.target_minutes) FROM processing_targets t WHERE t.processing_type = ${lit(type)})`;

/**
 * The open orders of one processing type past its target time: a range of orders_waiting_idx (type, waiting since),
 * oldest first. A type without a target has none.
 */
export function overdueOfType(eb: Eb, type: ProcessingType): Expression<SqlBool> {
  return eb.and([
    ...openOrder(eb),
    eb('orders.processing_type', '=', lit(type)),
    eb(waitingSince, '<', sql<Date>`now() - ${targetOf(type)}`),
  ]);
}

/** When an open order went past its target time, null when it has not (or is closed, or its type has no target). */
export const overdueSince = sql<Date | null>`(SELECT ${waitingSince} + make_interval(mins => t.target_minutes)
  FROM processing_targets t WHERE t.processing_type = orders.processing_type
    AND orders.payment_status = 'Success' AND orders.process_status IN (${sql.join(OPEN_STATUSES.map(lit))})
    AND ${waitingSince} + make_interval(mins => t.target_minutes) < now())`;
