// Server-side prepared statements for Kysely over `pg`. Kysely sends the same SQL text for the same query shape
// with the values as parameters; naming that text makes each pooled connection parse it once and lets
// PostgreSQL keep its plan (a generic plan once it proves no worse than the custom ones), instead of parsing
// and planning every request. See docs/PERFORMANCE.md, issue 11.
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { connectionFault } from './connection-errors.js';

/**
 * Which statements get a name: those with parameters, and single parameterless SELECTs (a query whose values are
 * all literals). Not BEGIN/COMMIT, nor a script of several statements (a migration), which a prepared statement
 * cannot hold.
 */
const isPreparable = (text: string, values: readonly unknown[]) =>
  values.length > 0 || (/^\s*(select|with)\b/i.test(text) && !text.includes(';'));

/**
 * At most this many statement texts get a name; later new texts run unnamed. The application has a few hundred
 * shapes; what varies beyond that (an IN list of each length, say) must not grow every connection's memory.
 */
export const MAX_PREPARED_STATEMENTS = 1_000;

export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly limit = MAX_PREPARED_STATEMENTS) {}

  /** The statement's name, the same on every connection; undefined once the limit is reached. */
  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.limit) {
      name = `eta_${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return name;
  }

  get size(): number {
    return this.names.size;
  }
}

/** A failure of the connection itself as its typed error (db/connection-errors.ts); any other error as it is. */
const typed = (err: unknown): never => {
  throw connectionFault(err) ?? err;
};

/**
 * A pg.Pool as Kysely's PostgresDialect wants it, naming each statement it runs that can be prepared. A connection
 * that cannot be had (the database away, the pool's wait passed) or breaks under a statement fails with its typed
 * error, so every caller sees one error for a database restart, whatever pg said.
 */
export function preparedStatementPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  // Kysely keys its connection objects by the client it gets, so each pg client keeps one wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    function query<R>(text: string, values: readonly unknown[]): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query(
      textOrCursor: string | PostgresCursor<unknown>,
      values: readonly unknown[] = [],
    ): Promise<PostgresQueryResult<unknown>> | PostgresCursor<unknown> {
      // Kysely passes a cursor only when the dialect is given a cursor class, which this application never does.
      if (typeof textOrCursor !== 'string') throw new Error('Cursors are not configured.');
      const name = isPreparable(textOrCursor, values) ? names.nameOf(textOrCursor) : undefined;
      const config = { ...(name ? { name } : {}), text: textOrCursor, values: [...values] };
      return (client.query(config) as Promise<PostgresQueryResult<unknown>>).catch(typed);
    }
    return { query, release: () => client.release() };
  };
  return {
    async connect() {
      const client = await pool.connect().catch(typed);
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
