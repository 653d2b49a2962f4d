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
import {
  byProcessingDate,
  countQueueRows,
  matchSearch,
  probeSearch,
  selectFutureMonthCounts,
  selectQueuePage,
  selectSearchRows,
  walkSearchByWeek,
  walkSearchInQueueOrder,
  type SearchQuery,
} from './orders.repository.js';

/** A search stops counting here: the count of a very common fragment would cost more than it tells. */
export const SEARCH_COUNT_CAP = 1_000;

/**
 * A search first tests the queue's newest rows (the probe) and from their share of matches picks how to find the
 * matches (orders.repository), so no plan rests on a row estimate:
 * - at least DENSE_SHARE match: walk the queue newest first. At a million orders the walk and the index cost
 *   the same near 5 %: the walk ~1 µs a row until 1,001 matches, the index ~0.35 µs per candidate in the whole
 *   table plus ~4.4 µs to recheck each match ("gmail", 37 %: the bitmap took 62-85 ms, the walk 6 ms);
 * - fewer, but the share times the queue's size promises WEEK_WALK_FROM matches or more: read the search index
 *   week by week, newest first ("oliver" in Order History: ~5 ms, where the count alone took 8-10);
 * - otherwise collect the matches through the index and sort them (an order id: ~2 ms). Should there be more
 *   than the cap after all, the page is then found by one of the walks.
 * Each way is exact; the probe only decides which is fastest.
 */
const SEARCH_PROBE_ROWS = 200;
const DENSE_SHARE = 0.05;
const WEEK_WALK_FROM = 2 * SEARCH_COUNT_CAP;

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
    // One list of matches in queue order gives both the capped count and the page.
    const ids = await this.findMatches({ queue, staffId: staff.id, search: searchVal }, start + limit);
    const onPage = ids.slice(start, start + limit);
    return {
      rows: onPage.length === 0 ? [] : await selectSearchRows(this.db, queue, onPage),
      total: Math.min(ids.length, SEARCH_COUNT_CAP),
      totalCapped: ids.length > SEARCH_COUNT_CAP,
      page: Math.floor(start / limit) + 1,
      limit,
    };
  }

  /**
   * The first matches of a search in queue order: enough to tell whether there are more than the cap, and at
   * least `through` of them (the end of the page), or all of them when there are fewer.
   */
  private async findMatches(q: SearchQuery, through: number): Promise<number[]> {
    const wanted = Math.max(SEARCH_COUNT_CAP + 1, through);
    const byWeek = !byProcessingDate(q.queue);
    const [probe, queueSize] = await Promise.all([
      probeSearch(this.db, q, SEARCH_PROBE_ROWS),
      byWeek ? selectFolderCounts(this.db, q.staffId).then((c) => c[QUEUES[q.queue].countKey]) : 0,
    ]);
    const share = probe.walked === 0 ? 0 : probe.matched / probe.walked;
    if (share >= DENSE_SHARE) return walkSearchInQueueOrder(this.db, q, wanted);
    if (byWeek && share * queueSize >= WEEK_WALK_FROM) {
      return walkSearchByWeek(this.db, q, wanted);
    }
    const matches = await matchSearch(this.db, q, SEARCH_COUNT_CAP + 1);
    if (matches.length <= SEARCH_COUNT_CAP) return matches;
    return byWeek ? walkSearchByWeek(this.db, q, wanted) : walkSearchInQueueOrder(this.db, q, wanted);
  }

  async futureMonthCounts(): Promise<{ month: number; label: string; count: number }[]> {
    const counts = await selectFutureMonthCounts(this.db);
    return MONTH_LABELS.map((label, i) => ({ month: i + 1, label, count: counts.get(i + 1) ?? 0 }));
  }
}
