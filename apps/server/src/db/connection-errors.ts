// What a statement fails with when the database itself is away or out of connections (issue 32), as one typed error
// each: a restart, failover or minor upgrade of PostgreSQL is routine, and a request caught in it is answered 503 with
// Retry-After and what happened (plugins/errors.ts), never a 500 with a stack. The one place that knows the shapes pg
// gives these failures; background work (the outbox worker, housekeeping, the retention job) asks it too.
import { AppError } from '../lib/errors.js';

const UNAVAILABLE_MESSAGE = 'The database is unavailable; retrying. Please try again in a few seconds.';
const BUSY_MESSAGE =
  'The server is too busy to answer now (every database connection is in use); try again in a moment.';

/** The database cannot be reached or is going away: 503, Retry-After 2 (a restart takes a few seconds). */
export class DatabaseUnavailableError extends AppError {
  constructor(readonly reason?: string) {
    super('DATABASE_UNAVAILABLE', UNAVAILABLE_MESSAGE, { retryAfterSeconds: 2 });
    this.name = 'DatabaseUnavailableError';
  }
}

/** No pooled connection came free within the pool's wait (db/database.ts), or the server has no slot left: 503. */
export class DatabaseBusyError extends AppError {
  constructor(readonly reason?: string) {
    super('DATABASE_BUSY', BUSY_MESSAGE, { retryAfterSeconds: 1 });
    this.name = 'DatabaseBusyError';
  }
}

/** Network failures of the socket to the database (refused while it restarts, reset, unreachable, unresolvable). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** SQLSTATEs of a server going away or not there yet: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
/** SQLSTATE too_many_connections: every connection slot of the server is taken. */
const TOO_MANY_CONNECTIONS = '53300';
/**
 * pg's own words for a connection that broke (its socket closed, or it was already broken when asked) and for a
 * connection attempt that gave up; they carry no code.
 */
const BROKEN_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout expired$)/;
/** pg-pool's words when a request waited for a connection longer than connectionTimeoutMillis. */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : '');

/**
 * The typed error for a failure of the database connection itself, or undefined for anything else (a constraint, a
 * statement's budget, a bug): DatabaseBusyError when a request waited too long for a pooled connection or the server
 * has no connection slot left, DatabaseUnavailableError when the database is away.
 */
export function connectionFault(err: unknown): DatabaseUnavailableError | DatabaseBusyError | undefined {
  if (err instanceof DatabaseUnavailableError || err instanceof DatabaseBusyError) return err;
  const code = codeOf(err);
  const message = messageOf(err);
  if (message === POOL_WAIT_TIMEOUT || code === TOO_MANY_CONNECTIONS) return new DatabaseBusyError(message);
  if (
    (code !== undefined && (NETWORK_CODES.has(code) || SHUTDOWN_STATES.has(code) || code.startsWith('08'))) ||
    BROKEN_CONNECTION.test(message)
  ) {
    return new DatabaseUnavailableError(message || code);
  }
  // Node reports a refused connection to a name with several addresses (localhost: ::1 and 127.0.0.1) as one
  // AggregateError of each address's error.
  if (err instanceof AggregateError && err.errors.length > 0 && err.errors.every((e) => connectionFault(e))) {
    return new DatabaseUnavailableError(messageOf(err.errors[0]) || codeOf(err.errors[0]));
  }
  return undefined;
}

/** Whether `err` is the database being away (not a busy pool): what background work logs as a warning and retries. */
export const isDatabaseUnavailable = (err: unknown): boolean =>
  connectionFault(err) instanceof DatabaseUnavailableError;
