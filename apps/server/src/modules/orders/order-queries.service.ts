// Queue reads for staff: folder counts, lists, search and the Future months. Every read goes through the
// queue filters of queues.ts, and a queue that needs more than workOrders (Order History) is checked here.
import type { Kysely } from 'kysely';
import {
  MONTH_LABELS,
  QUEUES,
  can,
  queueCapability,
  QUEUE_NAMES,
  type FolderCounts,
  type OrderListPage,
  type QueueName,
} from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { assertCan } from '../auth/permissions.js';
import { looksLikePassportNumber, type OrderFieldsCipher } from '../personal-data/order-fields.js';
import { foldCounterStripes, selectFolderCounts } from './folder-counts.repository.js';
import {
  byPurchase,
  indexNarrows,
  matchSearch,
  probeSearch,
  selectFutureMonthCounts,
  selectPassportMatches,
  selectQueuePage,
  selectSearchRows,
  walkSearchByWeek,
  walkSearchInQueueOrder,
  type SearchQuery,
} from './orders.repository.js';

/** A search stops counting here: the count of a very common fragment would cost more than it tells. */
export const SEARCH_COUNT_CAP = 1_000;

/**
 * How a search finds its matches (orders.repository). Each way is exact; what is measured here only decides which
 * is fastest, so no plan rests on a row estimate:
 * - The probe tests the queue's newest SEARCH_PROBE_ROWS rows. If DENSE_SHARE of them match, the queue is walked
 *   newest first. The walk and the index cost the same near 5 % at a million orders: the walk ~1 µs a row until
 *   1,001 matches, the index ~0.35 µs per candidate in the whole table plus ~4.4 µs to recheck each match
 *   ("gmail", 37 %: the bitmap took 62-85 ms, the walk 6 ms).
 * - Otherwise, in a queue of LARGE_QUEUE orders or more, the search index is read week by week for the newest
 *   HEAD_WEEKS weeks. If they hold enough matches that the count's cap is reached within WEEK_WALK_WEEKS weeks,
 *   the walk goes on ("oliver" in Order History: ~5 ms in all, where the count alone took 8-10 ms and page 20
 *   60-90 ms). Two weeks cost a rare fragment ~0.1-0.3 ms. Not for a fragment the index cannot narrow ("zz"): each
 *   week would read the whole index (48 s for the 105 weeks of Order History).
 * - Otherwise the matches are collected through the index and sorted (an order id: ~2 ms). Should there be more
 *   than the cap after all, the page comes from a walk: by week in a large queue, else through the queue, which
 *   is short (a fragment of every order id in Charge Back: 15,500 rows, where 100 weeks took ~1 ms each).
 */
const SEARCH_PROBE_ROWS = 200;
const DENSE_SHARE = 0.05;
const LARGE_QUEUE = 100_000;
const HEAD_WEEKS = 2;
const WEEK_WALK_WEEKS = 26;

const assertQueueAccess = (staff: Staff, queue: QueueName) =>
  assertCan(staff.type, queueCapability(queue), `open ${QUEUES[queue].title}`);

export class OrderQueriesService {
  constructor(
    private readonly db: Kysely<DB>,
    /** The passport number's keyed hash, for its exact search (issue 24). */
    private readonly personalFields: OrderFieldsCipher,
  ) {}

  /**
   * Counts for the signed-in staff member, of the queues they may open only (spec §6: no Order History count for a
   * Telecaller); the spec's `userName` is not trusted for "My Orders".
   */
  folderCounts(staff: Staff): Promise<FolderCounts> {
    const keys = QUEUE_NAMES.filter((q) => can(staff.type, queueCapability(q))).map((q) => QUEUES[q].countKey);
    return selectFolderCounts(this.db, staff.id, keys);
  }

  /** Keeps the counter tables small: each counter's stripes folded into one row (housekeeping, every minute). */
  foldCounters(): Promise<void> {
    return foldCounterStripes(this.db);
  }

  async listQueue(staff: Staff, queue: QueueName, page: number, limit: number, month?: number): Promise<OrderListPage> {
    assertQueueAccess(staff, queue);
    const { rows, total } = await selectQueuePage(this.db, {
      queue,
      staffId: staff.id,
      month,
      offset: (page - 1) * limit,
      limit,
    });
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
    // A passport number is sealed, so no text search finds it: its keyed hash is looked up exactly, beside the text
    // search rather than after it, and the orders it finds join the text matches (first, should there be many).
    const [exact, ids] = await Promise.all([
      looksLikePassportNumber(searchVal)
        ? selectPassportMatches(
            this.db,
            { queue, staffId: staff.id },
            this.personalFields.passportHash(searchVal),
            SEARCH_COUNT_CAP + 1,
          )
        : [],
      this.findMatches({ queue, staffId: staff.id, search: searchVal }, start + limit),
    ]);
    if (exact.length > 0) ids.unshift(...exact.filter((id) => !ids.includes(id)));
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
    // Only a queue in order of purchase and a fragment the index can narrow may be read by week; then its size decides.
    const weekly = byPurchase(q.queue) && indexNarrows(q.search);
    const probe = await probeSearch(this.db, q, SEARCH_PROBE_ROWS, weekly);
    if (probe.walked > 0 && probe.matched >= probe.walked * DENSE_SHARE) {
      return walkSearchInQueueOrder(this.db, q, wanted);
    }
    const byWeek = weekly && probe.queueSize >= LARGE_QUEUE;
    const head = byWeek ? await walkSearchByWeek(this.db, q, wanted, { skip: 0, take: HEAD_WEEKS }) : [];
    const headAndRest = async () => [
      ...head,
      ...(await walkSearchByWeek(this.db, q, wanted - head.length, { skip: HEAD_WEEKS })),
    ];
    if (byWeek && head.length === wanted) return head;
    if (byWeek && head.length * WEEK_WALK_WEEKS >= wanted * HEAD_WEEKS) return headAndRest();
    const matches = await matchSearch(this.db, q, SEARCH_COUNT_CAP + 1);
    if (matches.length <= SEARCH_COUNT_CAP) return matches;
    return byWeek ? headAndRest() : walkSearchInQueueOrder(this.db, q, wanted);
  }

  /**
   * The Future queue's twelve months in time order from the current one (UTC), each named with its year
   * ("Nov 2026", "Dec 2026", "Jan 2027" …): a month before the current one is next year's.
   */
  async futureMonthCounts(today: Date = new Date()): Promise<{ month: number; label: string; count: number }[]> {
    const counts = await selectFutureMonthCounts(this.db);
    const first = today.getUTCMonth();
    return MONTH_LABELS.map((_, i) => {
      const index = (first + i) % 12;
      const year = today.getUTCFullYear() + Math.floor((first + i) / 12);
      return { month: index + 1, label: `${MONTH_LABELS[index]} ${year}`, count: counts.get(index + 1) ?? 0 };
    });
  }
}
