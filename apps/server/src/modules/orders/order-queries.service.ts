// Queue reads for staff: folder counts, lists, search and the Future months. Every read goes through the
// queue filters of queues.ts, and a queue that needs more than workOrders (Order History) is checked here.
import type { Kysely } from 'kysely';
import {
  MONTH_LABELS,
  QUEUES,
  queueCapability,
  type FolderCounts,
  type OrderListPage,
  type QueueName,
} from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { assertCan } from '../auth/permissions.js';
import { selectFolderCounts } from './folder-counts.repository.js';
import { countQueueRows, probeSearch, selectFutureMonthCounts, selectQueuePage } from './orders.repository.js';

/** A search stops counting here: the count of a very common fragment would cost more than it tells. */
export const SEARCH_COUNT_CAP = 1_000;

/**
 * A search first tests the queue's newest rows; when at least this share of them match, the fragment is dense
 * and the count walks the queue instead of using the trigram index. At a million orders the two cost the same
 * near 5 %: the walk ~1 µs a row until 1,001 matches, the index ~0.35 µs per candidate in the whole table
 * plus ~4.4 µs to recheck each match ("gmail", 37 %: the bitmap took 62-85 ms, the walk 6 ms).
 */
const SEARCH_PROBE_ROWS = 200;
const DENSE_SHARE = 0.05;

const assertQueueAccess = (staff: Staff, queue: QueueName) =>
  assertCan(staff.type, queueCapability(queue), `open ${QUEUES[queue].title}`);

export class OrderQueriesService {
  constructor(private readonly db: Kysely<DB>) {}

  /** Counts for the signed-in staff member; the spec's `userName` is not trusted for "My Orders". */
  folderCounts(staffId: number): Promise<FolderCounts> {
    return selectFolderCounts(this.db, staffId);
  }

  async listQueue(staff: Staff, queue: QueueName, page: number, limit: number, month?: number): Promise<OrderListPage> {
    assertQueueAccess(staff, queue);
    const q = { queue, staffId: staff.id, month };
    const [rows, total] = await Promise.all([
      selectQueuePage(this.db, { ...q, offset: (page - 1) * limit, limit }),
      // Without a month filter the total is the folder count itself (order_counters), never a row count.
      month === undefined
        ? selectFolderCounts(this.db, staff.id).then((c) => c[QUEUES[queue].countKey])
        : countQueueRows(this.db, q, Number.MAX_SAFE_INTEGER),
    ]);
    return { rows, total, page, limit };
  }

  /** Spec's search: `start`/`end` are row offsets (end exclusive) inside the queue `folderName`. */
  async searchQueue(
    staff: Staff,
    queue: QueueName,
    searchVal: string,
    start: number,
    end: number,
  ): Promise<OrderListPage> {
    assertQueueAccess(staff, queue);
    if (end <= start) throw new AppError('VALIDATION_FAILED', 'end must be greater than start.');
    const limit = Math.min(end - start, 5000);
    const q = { queue, staffId: staff.id, search: searchVal };
    // The capped count goes first, on the trigram index unless the newest rows show the fragment is dense; what
    // it finds decides how the page is fetched, so a misjudged row estimate can never pick a slow plan.
    const probe = await probeSearch(this.db, q, SEARCH_PROBE_ROWS);
    const dense = probe.walked > 0 && probe.matched >= probe.walked * DENSE_SHARE;
    const counted = await countQueueRows(this.db, q, SEARCH_COUNT_CAP + 1, !dense);
    const searchPlan = counted > SEARCH_COUNT_CAP ? 'queue-order' : 'matches-first';
    const rows = counted === 0 ? [] : await selectQueuePage(this.db, { ...q, offset: start, limit, searchPlan });
    const totalCapped = counted > SEARCH_COUNT_CAP;
    return {
      rows,
      total: Math.min(counted, SEARCH_COUNT_CAP),
      totalCapped,
      page: Math.floor(start / limit) + 1,
      limit,
    };
  }

  async futureMonthCounts(): Promise<{ month: number; label: string; count: number }[]> {
    const counts = await selectFutureMonthCounts(this.db);
    return MONTH_LABELS.map((label, i) => ({ month: i + 1, label, count: counts.get(i + 1) ?? 0 }));
  }
}
