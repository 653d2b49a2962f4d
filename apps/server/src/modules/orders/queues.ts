// The queue definitions of DESIGN §3, written once: each queue is a filter over paid orders. The list,
// the search and the counts all read these, so a queue means the same thing everywhere.
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { ProcessStatus, QueueName } from '@eta/contracts';
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
 * New in its two parts, each with an index of its own: Standard orders (orders_new_standard_idx) and Future
 * orders whose processing date has come (orders_future_idx, INCLUDE assign_to). A page merges the two walks
 * (orders.repository), so the Future orders still waiting are never walked over.
 */
export function newQueueParts(eb: Eb): [Expression<SqlBool>, Expression<SqlBool>] {
  const { unassignedNew, standard, dueFuture } = newQueue(eb);
  return [eb.and([...unassignedNew, standard]), eb.and([...unassignedNew, dueFuture])];
}

export function queueFilter(queue: QueueName, eb: Eb, staffId: number): Expression<SqlBool> {
  const paid = eb('orders.payment_status', '=', lit('Success'));
  const status = (s: ProcessStatus) => eb.and([paid, eb('orders.process_status', '=', lit(s))]);
  switch (queue) {
    case 'newOrder': {
      // A search or count walks orders_new_queue_idx (created_at DESC, id DESC) INCLUDE (processing_type,
      // processing_date), Standard and all Future orders together; `<> 'Priority'` is stated so it matches.
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
