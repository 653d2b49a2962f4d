// Queue reads for staff: folder counts, lists, search and the Future months. Every read goes through the
// queue filters of queues.ts, and a queue that needs more than workOrders (Order History) is checked here.
import type { Kysely } from 'kysely';
import {
  MONTH_LABELS,
  QUEUES,
  can,
  queueCapability,
  holdsOpenOrders,
  QUEUE_NAMES,
  SEARCH_MATCHES_SHOWN,
  type FolderCountKey,
  type FolderCountsPayload,
  type OrderListPage,
  type QueueName,
} from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import {
  isStatementTimeout,
  outsideRequest,
  SEARCH_STATEMENT_TIMEOUT_MS,
  withStatementTimeout,
} from '../../db/statement-budget.js';
import { assertCan } from '../auth/permissions.js';
import type { OrderFieldsCipher } from '../personal-data/order-fields.js';
import {
  foldCounterStripes,
  selectFolderCounts,
  selectTimingCounts,
  URGENT_COUNT_CAP,
  type TimingCounts,
} from './folder-counts.repository.js';
import {
  inOrderOfPurchase,
  markDueFutureOrders,
  matchSearchByWeek,
  matchSearchWithin,
  selectExactMatches,
  selectFutureMonthCounts,
  selectOverduePage,
  selectQueuePage,
  selectSampleTexts,
  selectSearchRows,
  walkQueue,
  type SearchScope,
} from './orders.repository.js';
import { readSearchText, type SearchText } from './search-text.js';

/**
 * How a search finds its matches, in steps, each bounded whatever the data, each stopping once it has the page's end
 * (plus one, to know whether there is more; never more than `countCap`):
 * 1. Whole values (search-text.ts): an order id, an e-mail address, a telephone number, a passport number (its keyed
 *    hash) or a name, each read from a B-tree in queue order: O(log n + page). An order id, an e-mail or a telephone
 *    number is then the whole answer, even when nothing has it; so is a passport number or a name of several words
 *    found.
 * 2. The queue's `headRows` newest orders, tested one by one: a fragment in most orders ("gmail") or a burst of new
 *    orders sharing a word has its page here.
 * 3. If those hold matches enough to expect the page's end within `walkRows` orders ("harr", 1 %), the walk goes on
 *    that far, and no further; so it does when a sample of `sampleRows` orders from the whole table promises at least
 *    half as much, because the newest orders may be a burst sharing another word ("gmail" behind 1,800 new orders of
 *    one family's domain), and when the walk is the whole queue and the sample met the fragment (the answer, bounded
 *    by `walkRows`). A fragment the sample met too seldom for that ("risu", 0.08 %) is not walked for: its page is
 *    further back than the walk reads, and the steps below find it at less cost.
 * 4. Otherwise, or when the walk did not reach the page's end, the trigram index: first for the newest `indexWeeks`
 *    weeks, week by week (a fragment neither in most orders nor rare, "atthew_", has its page there: a week's
 *    candidates only) unless the sample never met the fragment, then for every match of the queue,
 *    at most `countCap` + 1, sorted; with more, the page says so. Its cost is the fragment's trigram lists, which a
 *    rare fragment keeps short (an order id's end, a surname only the oldest orders have, a word no order has), and
 *    the table pages of the matches it confirms, at most `countCap` + 1; the steps run under `indexBudgetMs` and
 *    `wholeIndexBudgetMs`, and a fragment too common for the index within them (all its trigrams in most orders) is
 *    answered from the queue's newest `walkRows` orders, saying so. With more matches than the cap and the page not
 *    in the newest weeks, the page is some of them, not the newest, and says so. A text of one or two characters has
 *    no trigram: it is answered from the newest `headRows`.
 * Exact matches come first; then the walk's, newest first; then the index's, which are older than all the walk read.
 */
export interface SearchLimits {
  /** A search shows at most this many matches and says "1,000+" beyond: more costs more than it tells anyone. */
  countCap: number;
  /** Orders a fragment is first looked for among, one by one (~0.7 µs each)… */
  headRows: number;
  /**
   * …and at most, when those promise the page's end within them or a sample of all orders has the fragment, or the
   * index is too slow for the fragment.
   */
  walkRows: number;
  /**
   * Orders in the sample that tells how common a fragment is when the newest orders do not: enough to tell a fragment
   * on either side of the walk's promise (a page of 50 within 10,000 orders: 0.51 %, 10.2 hits in 2,000; findMatches
   * holds the sample to half of it) apart. "ato" (1 %) falls short of that half in about one sample of 2,000 in 14,000
   * (one of 500 in 25)…
   */
  sampleRows: number;
  /** …read at most this often (it is kept in memory between reads: the same for every search). */
  sampleTtlMs: number;
  /** Weeks of the newest orders the trigram index is read for first, week by week (a queue in order of purchase). */
  indexWeeks: number;
  /** The budget (statement_timeout) of the index step for the newest weeks, which only makes the page quicker to find… */
  indexBudgetMs: number;
  /**
   * …and of the step for every match of the queue, whose answer is the whole one. Its work is bounded by the cap (the
   * table pages of at most `countCap` + 1 matches, with the index's lists of the fragment's trigrams), so its budget
   * covers that work on a busy machine: at 25 ms, one in a few dozen of a rare fragment's searches ran past it at 8
   * connections and answered from the newest orders only (docs/PERFORMANCE.md, run 27).
   */
  wholeIndexBudgetMs: number;
}

export const SEARCH_LIMITS: SearchLimits = {
  countCap: SEARCH_MATCHES_SHOWN,
  headRows: 500,
  walkRows: 10_000,
  sampleRows: 2_000,
  sampleTtlMs: 60_000,
  indexWeeks: 2,
  indexBudgetMs: 25,
  wholeIndexBudgetMs: 100,
};
export const SEARCH_COUNT_CAP = SEARCH_LIMITS.countCap;

/**
 * How long the urgent and late counts are kept between order changes: what changes them meanwhile is time alone (an
 * order coming within URGENT_TRAVEL_HOURS of its flight, or past its target time), which a few seconds do not alter.
 */
export const TIMING_COUNTS_TTL_MS = 5000;

interface SearchOutcome {
  ids: number[];
  /** Every match is in `ids` (else there are more than were read). */
  complete: boolean;
  /** The answer is the exact matches of a whole value. */
  exact?: boolean;
  /** Only the queue's newest orders were searched: the text is too short or too common for the index. */
  searchedNewest?: number;
  /** More than the cap match and the page is not known to hold the newest of them (findMatches). */
  someMatches?: boolean;
}

const assertQueueAccess = (staff: Staff, queue: QueueName) =>
  assertCan(staff.type, queueCapability(queue), `open ${QUEUES[queue].title}`);

export class OrderQueriesService {
  constructor(
    private readonly db: Kysely<DB>,
    /** The passport number's keyed hash, for its exact search (issue 24). */
    private readonly personalFields: OrderFieldsCipher,
    private readonly limits: SearchLimits = SEARCH_LIMITS,
    /** URGENT_TRAVEL_HOURS (issue 35). */
    private readonly urgentHours = 72,
  ) {}

  /** The search's sample of orders' search texts being read or last read, and when it was asked for. */
  private sample: { at: number; texts: Promise<string[]> } | undefined;

  /** The urgent and late counts being read or last read (`read` once they are), and when they were asked for. */
  private timing: { at: number; counts: Promise<TimingCounts>; read?: TimingCounts } | undefined;

  /**
   * Counts for the signed-in staff member, of the queues they may open only (spec §6: no Order History count for a
   * Telecaller); the spec's `userName` is not trusted for "My Orders". Beside them (issue 35) the urgent orders of each
   * of those queues that can hold open orders, and for those who may open Waiting too long the late orders: counted
   * for everyone at once and kept TIMING_COUNTS_TTL_MS (forgotten at every order change, here or on another server),
   * because they cost a few times the spec's counts, which every member's screen asks for at each change.
   */
  async folderCounts(staff: Staff): Promise<FolderCountsPayload> {
    const queues = QUEUE_NAMES.filter((q) => can(staff.type, queueCapability(q)));
    const [counts, timing] = await Promise.all([
      selectFolderCounts(
        this.db,
        staff.id,
        queues.map((q) => QUEUES[q].countKey),
      ),
      this.timingCounts(),
    ]);
    const urgentCounts: Partial<Record<FolderCountKey, number>> = {};
    for (const q of queues.filter(holdsOpenOrders)) {
      const n = urgentIn(timing, staff, q);
      urgentCounts[QUEUES[q].countKey] = timing.urgentCapped ? Math.min(n, URGENT_COUNT_CAP) : n;
    }
    return {
      ...counts,
      urgentCounts,
      ...(timing.urgentCapped ? { urgentCapped: true } : {}),
      ...(can(staff.type, 'viewOrderHistory')
        ? { waitingTooLongCount: timing.late, ...(timing.lateCapped ? { waitingTooLongCapped: true } : {}) }
        : {}),
    };
  }

  /** The urgent and late counts of everyone, read at most once per TIMING_COUNTS_TTL_MS unless forgotten. */
  private timingCounts(): Promise<TimingCounts> {
    const now = Date.now();
    if (!this.timing || now - this.timing.at > TIMING_COUNTS_TTL_MS) {
      const counts = selectTimingCounts(this.db, this.urgentHours);
      const entry: NonNullable<typeof this.timing> = { at: now, counts };
      this.timing = entry;
      counts.then(
        (read) => {
          entry.read = read;
        },
        // A failed read is not kept.
        () => {
          if (this.timing === entry) this.timing = undefined;
        },
      );
    }
    return this.timing.counts;
  }

  /** An order changed (the live desk's `eta_orders`), or the target times did: the next counts read them anew. */
  forgetTimingCounts(): void {
    this.timing = undefined;
  }

  /** Keeps the counter tables small: each counter's stripes folded into one row (housekeeping, every minute). */
  foldCounters(): Promise<void> {
    return foldCounterStripes(this.db);
  }

  /** Marks the Future orders that came due, so that New walks them on its one index (housekeeping, every minute). */
  markDueFutureOrders(): Promise<number> {
    return markDueFutureOrders(this.db);
  }

  async listQueue(
    staff: Staff,
    queue: QueueName,
    page: number,
    limit: number,
    options: { month?: number | undefined; urgentFirst?: boolean | undefined } = {},
  ): Promise<OrderListPage> {
    assertQueueAccess(staff, queue);
    const urgentFirst = options.urgentFirst === true && holdsOpenOrders(queue);
    const offset = (page - 1) * limit;
    // The urgent counts last read, if any, say whether this page is likely all urgent orders (orders.repository).
    const read = this.timing?.read;
    const { rows, total } = await selectQueuePage(this.db, {
      queue,
      staffId: staff.id,
      month: options.month,
      offset,
      limit,
      urgentHours: this.urgentHours,
      urgentFirst,
      pageLikelyUrgent: urgentFirst && (!read || urgentIn(read, staff, queue) >= offset + limit),
    });
    return { rows, total, page, limit, ...(urgentFirst ? { urgentFirst } : {}) };
  }

  /**
   * "Waiting too long" (issue 35): open orders past their processing type's target time, the longest wait first,
   * with who holds them. Across every queue, so for those who may open Order History.
   */
  async waitingTooLong(staff: Staff, page: number, limit: number): Promise<OrderListPage> {
    assertCan(staff.type, 'viewOrderHistory', 'see the orders waiting too long');
    const found = await selectOverduePage(this.db, this.urgentHours, (page - 1) * limit, limit);
    return { rows: found.rows, total: found.total, ...(found.capped ? { totalCapped: true } : {}), page, limit };
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
    const { countCap } = this.limits;
    const through = Math.min(start + limit, countCap);
    // Each statement of a search runs under SEARCH_STATEMENT_TIMEOUT_MS; every step is bounded well inside it, so one
    // that runs past it is a plan gone wrong, answered with what to do rather than held.
    const found = await withStatementTimeout(SEARCH_STATEMENT_TIMEOUT_MS, () =>
      this.findMatches(
        { queue, staffId: staff.id },
        readSearchText(searchVal),
        // One more than the page's end tells whether there is more.
        through + 1,
      ),
    ).catch((err: unknown) => {
      if (!isStatementTimeout(err)) throw err;
      throw new AppError(
        'DATABASE_TIMEOUT',
        'This search took too long. Refine it: type more of the name, e-mail or order id.',
        {
          retryAfterSeconds: 2,
        },
      );
    });
    const onPage = found.ids.slice(start, through);
    return {
      rows: onPage.length === 0 ? [] : await selectSearchRows(this.db, queue, this.urgentHours, onPage),
      total: Math.min(found.ids.length, countCap),
      totalCapped: !found.complete || found.ids.length > countCap,
      ...(found.exact ? { exactMatch: true } : {}),
      ...(found.searchedNewest ? { searchedNewest: found.searchedNewest } : {}),
      ...(found.someMatches ? { someMatches: true } : {}),
      page: Math.floor(start / limit) + 1,
      limit,
    };
  }

  /** The first `wanted` matches of a search in its answer's order (exact first), or all of them when fewer. */
  private async findMatches(scope: SearchScope, text: SearchText, wanted: number): Promise<SearchOutcome> {
    const ids: number[] = [];
    const add = (more: number[]) => {
      const seen = new Set(ids);
      for (const id of more) if (!seen.has(id)) ids.push(id);
    };
    const passportHash = text.passport ? this.personalFields.passportHash(text.passport) : null;
    const exact = await selectExactMatches(this.db, scope, text, passportHash, wanted);
    add(exact.ids);
    if (text.whole || exact.final) return { ids, complete: ids.length < wanted, exact: true };
    if (ids.length >= wanted) return { ids, complete: false };

    const { headRows, walkRows, countCap } = this.limits;
    const head = await walkQueue(this.db, scope, text.fragment, headRows, wanted);
    add(head.ids);
    let walked = headRows;
    const walkOn = async () => {
      add((await walkQueue(this.db, scope, text.fragment, walkRows, wanted)).ids);
      walked = walkRows;
    };
    /** How many orders of a sample of the whole table have the fragment, read when the newest did not promise. */
    let sampleHits: number | undefined;
    if (ids.length < wanted && head.queueSize > headRows) {
      // Whether `hits` in `of` orders promise the page's end within the newest walkRows orders.
      const promises = (hits: number, of: number) => hits * walkRows >= wanted * of;
      // The newest orders may be a burst sharing another word: then the sample says how common the fragment is.
      let walk = promises(head.ids.length, headRows);
      if (!walk && text.indexable) {
        const sample = await this.sampleTexts();
        sampleHits = sample.filter((t) => t.includes(text.fragment)).length;
        // Walked for when its density promises the page within the walk (a dense fragment's newest weeks confirm
        // thousands of candidates; run 33); a hit or two is no promise (run 37). Held to half the promise, as the
        // sample's count is uncertain by about its square root: the odds for "ato" and "risu" are in `sampleRows`'s
        // note and modules/orders/README.md (run 38).
        walk = promises(2 * sampleHits, Math.max(sample.length, 1)) || (sampleHits > 0 && head.queueSize <= walkRows);
      }
      if (walk) await walkOn();
    }
    if (ids.length >= wanted) return { ids, complete: false };
    if (head.queueSize <= walked) return { ids, complete: true };
    if (!text.indexable) return { ids, complete: false, searchedNewest: walked };

    /** The newest weeks' matches through the index, in a queue in order of purchase; whether they were read. */
    let weeksRead = false;
    const addByWeek = async (budgetMs: number) => {
      const newest = head.newest;
      if (!inOrderOfPurchase(scope.queue) || !newest) return;
      const weeks = { from: newest, count: this.limits.indexWeeks };
      const weekly = await this.withinIndexBudget(() =>
        matchSearchByWeek(this.db, scope, text.fragment, weeks, wanted, budgetMs),
      );
      if (weekly) add(weekly);
      weeksRead = weekly !== null;
    };
    // A fragment the sample never met is rare: the whole index has all its matches at less cost than the newest weeks'
    // part of it (a week's candidates are read through the week's own long list: 6 ms a week against 5 ms for the
    // whole index, for a word only the oldest order has). Otherwise the newest weeks may hold the page.
    const rare = sampleHits === 0;
    if (!rare) await addByWeek(this.limits.indexBudgetMs);
    if (ids.length >= wanted) return { ids, complete: false };
    const indexed = await this.withinIndexBudget(() =>
      matchSearchWithin(this.db, scope, text.fragment, countCap + 1, this.limits.wholeIndexBudgetMs),
    );
    if (indexed) {
      if (indexed.length <= countCap) {
        add(indexed);
        return { ids, complete: true };
      }
      // More matches than the cap: the index gave some of them, in the table's order, and the newest weeks may hold
      // the page. If they do not, the page is the matches in queue order as far as they go and then some of the
      // others, which are not the newest: the answer says so rather than pass them off as the first.
      if (!weeksRead) await addByWeek(this.limits.wholeIndexBudgetMs);
      const inOrder = ids.length;
      add(indexed);
      return { ids, complete: false, ...(inOrder < wanted ? { someMatches: true } : {}) };
    }
    if (walked < walkRows) await walkOn();
    if (ids.length >= wanted) return { ids, complete: false };
    if (head.queueSize <= walked) return { ids, complete: true };
    return { ids, complete: false, searchedNewest: walked };
  }

  /**
   * The sample's search texts, read at most once per `sampleTtlMs` and shared by every search meanwhile. Read outside
   * the request that asks first, so that its client leaving (or its statement budget) does not fail the others'. How
   * common a word is changes slowly; reading the sample's pages at random for each search cost 4-5 ms at a million
   * orders (60 pages from the operating system's cache), the table's size whatever the search. An order erased or
   * changed leaves the sample at its next read.
   */
  private sampleTexts(): Promise<string[]> {
    const now = Date.now();
    if (!this.sample || now - this.sample.at > this.limits.sampleTtlMs) {
      const texts = outsideRequest(() => selectSampleTexts(this.db, this.limits.sampleRows));
      const entry = { at: now, texts };
      this.sample = entry;
      // A failed read is not kept.
      texts.catch(() => {
        if (this.sample === entry) this.sample = undefined;
      });
    }
    return this.sample.texts;
  }

  /** An index step's matches, or null when they would take longer than its budget (PostgreSQL only). */
  private async withinIndexBudget(find: () => Promise<number[]>): Promise<number[] | null> {
    try {
      return await find();
    } catch (err) {
      if (isStatementTimeout(err)) return null;
      throw err;
    }
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

/** A queue's urgent orders in the urgent counts (My Orders: the member's own). */
const urgentIn = (timing: TimingCounts, staff: Staff, queue: QueueName): number =>
  queue === 'myOrder' ? (timing.urgentByHolder[staff.id] ?? 0) : (timing.urgent[QUEUES[queue].countKey] ?? 0);
