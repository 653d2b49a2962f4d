// The queues: the folder counts, each queue's list at page 1 and a deep page, and the Future month counts.
import { PAGE_SIZE } from '../harness.mjs';

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
