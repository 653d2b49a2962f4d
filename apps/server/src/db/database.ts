// One Kysely<DB> over either driver: `pg` for a PostgreSQL server (DATABASE_URL) or PGlite, the same
// PostgreSQL compiled to WASM, for the zero-setup embedded default (files under DATA_DIR).
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { DB } from './schema.js';
import { preparedStatementPool } from './prepared-pool.js';
import { budgetedClient } from './budgeted-client.js';
import { INTERACTIVE_STATEMENT_TIMEOUT_MS } from './statement-budget.js';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** PostgreSQL's address, for connections of their own (the event bus's listening one); none for PGlite. */
  connectionString?: string;
  /** The pg pool's connections right now (GET /metrics); none for PGlite, which has one in-process client. */
  poolStats?: () => PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a connection: the pool is too small for the load. */
  waiting: number;
}

const INT8 = 20;
const DATE = 1082;
const NUMERIC = 1700;

// Counts and bigserial ids fit in a JS number; dates stay 'YYYY-MM-DD' (no time-zone shift).
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));
pg.types.setTypeParser(DATE, (v) => v);

export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  poolSize?: number;
  /**
   * Each statement's budget unless it runs under another (db/statement-budget.ts): the interactive one by default;
   * NO_STATEMENT_TIMEOUT for the CLI tools. PostgreSQL only (PGlite cannot stop a statement).
   */
  statementTimeoutMs?: number;
}): Promise<DatabaseHandle> {
  if (opts.url) {
    const statementTimeoutMs = opts.statementTimeoutMs ?? INTERACTIVE_STATEMENT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      // "Today" (current_date: Future orders joining New) is the UTC date whatever the server's own zone. The budget
      // is a connection option: set once per connection, no round trip per statement.
      options: `-c TimeZone=UTC -c statement_timeout=${statementTimeoutMs}`,
      Client: budgetedClient(statementTimeoutMs),
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparedStatementPool(pool) }) });
    return {
      db,
      kind: 'postgres',
      connectionString: opts.url,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  const client = await PGlite.create({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    extensions: { pg_trgm, btree_gin },
    parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v), [DATE]: (v: string) => v },
  });
  await client.exec(`SET TIME ZONE 'UTC'`);
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      if (!client.closed) await client.close();
    },
  };
}

export async function isDatabaseReachable(db: Database): Promise<boolean> {
  try {
    await sql`SELECT 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
