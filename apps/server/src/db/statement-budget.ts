// How long one statement may run (issue 31): every connection starts with the interactive budget, work that needs
// another one runs inside withStatementTimeout, and a request's statements are cancelled when its client goes away.
// The budgets travel with the async context (AsyncLocalStorage), so repositories take the same `db` as ever; the pg
// client (db/budgeted-client.ts) reads them for each statement. docs/decisions/database.md, "Statement budgets".
import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '../lib/errors.js';

/**
 * Every statement of a request (lists, searches, details, writes) unless it says otherwise: a connection option, so
 * it costs no round trip. Lists and searches take 1-10 ms of SQL at a million orders (docs/PERFORMANCE.md) and the
 * slowest one measured, a search for a fragment the trigram index cannot narrow ("zz"), 0.2-1.2 s; 2 s leaves that
 * one room and still ends a statement that would hold a connection long after a person stopped waiting. Lock waits
 * count too: a write waiting behind an upload or an invoice that stores its file inside its transaction.
 */
export const INTERACTIVE_STATEMENT_TIMEOUT_MS = 2_000;

/**
 * Suggested for each statement of a search: 100 times its usual 2-6 ms, and below the "zz" searches' 0.2-1.2 s, which
 * are better refined than waited for. Cut client-side (a CancelRequest), so it costs no round trip either.
 */
export const SEARCH_STATEMENT_TIMEOUT_MS = 500;

/**
 * Reports, the Activity and Reads pages and their CSV files: a full year's country report is 12 ms of SQL at a
 * million orders, but an Activity filter on both a person and an action may walk much of the audit trail. 10 s is
 * about when the person who asked stops waiting (the issue measured a client giving up at 10 s).
 */
export const REPORT_STATEMENT_TIMEOUT_MS = 10_000;

/**
 * The retention job (no one waits for it): a run's last batch reads the orders table from its last order to the end
 * when nothing more is due, about 1-2 s at a million orders; 2 minutes leaves room for ten times that on a cold cache
 * and still ends a plan gone wrong.
 */
export const RETENTION_STATEMENT_TIMEOUT_MS = 120_000;

/**
 * Background maintenance on a connection of its own (the merge of the search indexes' pending lists, housekeeping; no
 * one waits for it): a 256 kB list took 0.3-0.6 s at ten million orders on a cold cache, and up to 2 s beside a load;
 * 30 s is room for a list grown long while merges were failing, and still ends one stuck behind a lock. A merge
 * cancelled keeps what it had merged.
 */
export const MAINTENANCE_STATEMENT_TIMEOUT_MS = 30_000;

/** No budget: migrations, demo data at start-up and the CLI tools (an operator starts and watches them). */
export const NO_STATEMENT_TIMEOUT = 0;

/**
 * Whether a request's client is still there. Its statements are cancelled when it leaves: each running one registers
 * its cancel here. A plain set rather than an AbortSignal, which costs 3.4 µs to create, on every request.
 */
export class ClientPresence {
  #gone = false;
  /** Made by the first statement that watches: a request that runs none allocates nothing more. */
  #listeners: Set<() => void> | undefined;

  get gone(): boolean {
    return this.#gone;
  }

  /** Calls `listener` once when the client leaves; returns its removal. */
  watch(listener: () => void): () => void {
    const listeners = (this.#listeners ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** The client went away before its answer was sent. */
  left(): void {
    if (this.#gone) return;
    this.#gone = true;
    for (const listener of this.#listeners ?? []) listener();
    this.#listeners?.clear();
  }
}

/** What the statements of the current async context run under. */
export interface StatementScope {
  /** The request's client: when it leaves, the statement running is cancelled and no other starts. */
  readonly client?: ClientPresence | undefined;
  /** Each statement's budget in ms (0: none); unset, the connection's own. */
  readonly timeoutMs?: number | undefined;
}

const scopes = new AsyncLocalStorage<StatementScope>();

/** The scope of the statement about to run (db/budgeted-client.ts). */
export const currentStatementScope = (): StatementScope | undefined => scopes.getStore();

/**
 * Runs `work` with another budget for each statement it runs, on whichever connection and in whatever transaction:
 * a longer one (a report, the retention job; the connection's setting is changed for it, one round trip when it
 * differs) or a shorter one (a search; the statement is cancelled when it runs past it, no round trip). Not a budget
 * for the whole of `work`: each statement has its own. On the embedded database nothing stops a statement (PGlite
 * runs it in the one thread that would have to stop it), so budgets hold on PostgreSQL only.
 *
 *   await withStatementTimeout(SEARCH_STATEMENT_TIMEOUT_MS, () => findMatches(this.db, query));
 *
 * A statement past its budget rejects with StatementTimeoutError (isStatementTimeout), a 503 unless caught.
 */
export function withStatementTimeout<T>(timeoutMs: number, work: () => Promise<T>): Promise<T> {
  if (!Number.isInteger(timeoutMs) || timeoutMs < 0) throw new RangeError(`not a statement budget: ${timeoutMs}`);
  return scopes.run({ ...scopes.getStore(), timeoutMs }, work);
}

/**
 * The scope of a request's own statements: they are cancelled when `client` leaves (plugins/request-statements). Made
 * once per request and entered with inStatementScope as often as the request needs it.
 */
export const requestScope = (client: ClientPresence): StatementScope => ({ ...scopes.getStore(), client });

/** Runs `work` in `scope` (a request's own, made once by requestScope). */
export function inStatementScope<T>(scope: StatementScope, work: () => T): T {
  return scopes.run(scope, work);
}

/**
 * Runs `work` outside any request: its statements keep the connection's budget and are never cancelled because a
 * client went away. For work a request starts and does not wait for (a flush of access records, the outbox worker's
 * round, a retention run, an event's NOTIFY), which would otherwise inherit that request's fate with its context, and
 * for writes whose record must not depend on whether the client waited (security audit rows).
 */
export function outsideRequest<T>(work: () => T): T {
  return scopes.exit(work);
}

const TIMEOUT_MESSAGE = 'The database took too long to answer; try again, or narrow the request.';

/** A statement stopped by its budget: 503 with Retry-After (plugins/errors.ts), or a service's own message. */
export class StatementTimeoutError extends AppError {
  constructor(readonly timeoutMs?: number) {
    super('DATABASE_TIMEOUT', TIMEOUT_MESSAGE, { retryAfterSeconds: 2 });
    this.name = 'StatementTimeoutError';
  }
}

/** A statement cancelled, or never started, because its request's client went away; nobody is left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('The client went away; the request’s statement was cancelled.');
    this.name = 'ClientGoneError';
  }
}

/** SQLSTATE query_canceled: a statement timeout or a cancel request. */
export const QUERY_CANCELED = '57014';

/**
 * Whether `err` is a statement stopped by its budget: what a service checks to say something better than the
 * generic 503 ("refine the search"). Also true of PostgreSQL's own error from a connection outside the pool.
 */
export function isStatementTimeout(err: unknown): boolean {
  if (err instanceof StatementTimeoutError) return true;
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return code === QUERY_CANCELED && typeof message === 'string' && message.includes('statement timeout');
}
