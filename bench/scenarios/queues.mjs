// The queues: the folder counts, each queue's list at page 1 and a deep page, and the Future month counts.
import { PAGE_SIZE, serverModule } from '../harness.mjs';

export function folderCountCases({ staff }) {
  return [
    {
      name: 'folder counts',
      kind: 'counts',
      path: '/api/admin/get-folder-count?userName=Bench%20Admin',
      call: (s) => s.queries.folderCounts(staff),
    },
  ];
}

/**
 * Lists at the page size staff use for working a queue; the deep page is page 1000, or the queue's last full page
 * when it has fewer than 1000 (Pending has ~25,000 orders), so every case reads a full page of rows.
 */
export async function listCases({ staff, setup }) {
  const cases = [];
  for (const queue of ['newOrder', 'pendingOrder', 'completedOrder', 'orderHistory']) {
    const { total } = await setup.queries.listQueue(staff, queue, 1, PAGE_SIZE);
    for (const page of [1, Math.min(1000, Math.floor(total / PAGE_SIZE))]) {
      cases.push({
        name: `list ${queue} page ${page}`,
        kind: page === 1 ? 'page1' : 'page1000',
        path: `/api/admin/get-orders-list/${queue}?page=${page}&limit=${PAGE_SIZE}&delay=1`,
        rows: PAGE_SIZE,
        call: (s) => s.queries.listQueue(staff, queue, page, PAGE_SIZE),
      });
    }
  }
  return cases;
}

/** The queues' own filters in plain SQL, for the expected answers of the urgent-first pages (not the server's code). */
const QUEUE_SQL = {
  newOrder: `payment_status = 'Success' AND process_status = 'New' AND assign_to IS NULL
    AND (processing_type = 'Standard' OR (processing_type = 'Future' AND processing_date <= current_date))`,
  pendingOrder: `payment_status = 'Success' AND process_status = 'Pending'`,
  orderHistory: `payment_status = 'Success' AND process_status <> 'Deleted'`,
};
const OPEN = `('New', 'Pending', 'Awaiting', 'AwaitingGovt', 'Customer Called', 'Contact Customer')`;
/** Issue 35's urgency (URGENT_TRAVEL_HOURS 72), written out again as the bench's own check of the server's. */
const TRAVEL_AT = `(travel_to_canada_year + CASE WHEN travel_to_canada_hour ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
    THEN travel_to_canada_hour::time ELSE time '00:00' END)`;
const URGENT = `(payment_status = 'Success' AND process_status IN ${OPEN} AND travel_to_canada_year >= current_date
  AND ${TRAVEL_AT} <= localtimestamp + interval '72 hours')`;

/**
 * Issue 35: the same queues sorted urgent first (page 1 and the deep page), each page checked against the order it
 * promises, computed by a plain sort of the whole queue (slow, once, before the timing); and "Waiting too long".
 */
export async function urgentFirstCases({ staff, setup, pool }) {
  const { URGENT_FIRST_CAP } = await serverModule('modules/orders/orders.repository.js');
  const cases = [];
  for (const queue of Object.keys(QUEUE_SQL)) {
    const { total } = await setup.queries.listQueue(staff, queue, 1, PAGE_SIZE);
    const urgent = Number(
      (await pool.query(`SELECT count(*) AS n FROM orders WHERE ${QUEUE_SQL[queue]} AND ${URGENT}`)).rows[0].n,
    );
    for (const page of [1, Math.min(1000, Math.floor(total / PAGE_SIZE))]) {
      // The urgent orders ranked soonest travel first; the first URGENT_FIRST_CAP lead, the rest keep their place.
      const { rows } = await pool.query(
        `WITH q AS (
           SELECT order_id, created_at, id, CASE WHEN ${URGENT} THEN row_number() OVER (
             PARTITION BY ${URGENT} ORDER BY ${TRAVEL_AT}, created_at DESC, id DESC) END AS urank
           FROM orders WHERE ${QUEUE_SQL[queue]})
         SELECT order_id FROM q ORDER BY coalesce(urank <= $3, false) DESC,
           CASE WHEN urank <= $3 THEN urank END, created_at DESC, id DESC
         OFFSET $1 LIMIT $2`,
        [(page - 1) * PAGE_SIZE, PAGE_SIZE, URGENT_FIRST_CAP],
      );
      cases.push({
        name: `list ${queue} page ${page} urgent first (${urgent} urgent)`,
        kind: page === 1 ? 'page1' : 'page1000',
        path: `/api/admin/get-orders-list/${queue}?page=${page}&limit=${PAGE_SIZE}&delay=1&sort=urgent`,
        rows: PAGE_SIZE,
        expectIds: rows.map((r) => r.order_id),
        call: (s) => s.queries.listQueue(staff, queue, page, PAGE_SIZE, { urgentFirst: true }),
      });
    }
  }
  cases.push({
    name: 'waiting too long page 1',
    kind: 'page1',
    path: `/api/admin/waiting-too-long?page=1&limit=${PAGE_SIZE}`,
    rows: PAGE_SIZE,
    call: (s) => s.queries.waitingTooLong(staff, 1, PAGE_SIZE),
  });
  return cases;
}

export function futureCountCases() {
  return [
    {
      name: 'future month counts',
      kind: 'future',
      path: '/api/admin/future-order-counts',
      call: (s) => s.queries.futureMonthCounts(),
    },
  ];
}
