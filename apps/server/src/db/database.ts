// One Kysely<DB> over either driver: `pg` for a PostgreSQL server (DATABASE_URL) or PGlite, the same
// PostgreSQL compiled to WASM, for the zero-setup embedded default (files under DATA_DIR).
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { tsm_system_rows } from '@electric-sql/pglite/contrib/tsm_system_rows';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { DB } from './schema.js';
import { preparedStatementPool } from './prepared-pool.js';
import { budgetedClient } from './budgeted-client.js';
import { INTERACTIVE_STATEMENT_TIMEOUT_MS, MAINTENANCE_STATEMENT_TIMEOUT_MS } from './statement-budget.js';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  /**
   * The readiness check's way in (GET /api/ready): on PostgreSQL a connection of its own (a pool of one) with short
   * bounds, so a pool full of slow statements never makes it wait (issue 32); the one client on PGlite.
   */
  readinessDb: Database;
  /**
   * Background maintenance's way in (the merge of the search indexes' pending lists, plugins/housekeeping.ts): on
   * PostgreSQL a connection of its own (a pool of one) under its own statement budget, so a round never waits for a
   * request's connection nor leaves a pooled one with another budget; none on PGlite.
   */
  maintenanceDb?: Database;
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

/**
 * How long a statement may wait for a pooled connection, or for a new one to open, before it fails with
 * DatabaseBusyError (503, Retry-After) instead of queueing without bound (issue 32): longer than one interactive
 * statement's budget (2 s), so a request behind one slow statement still gets its connection; one waiting longer is
 * queued behind a pool full of them, and the person is better told at once.
 */
export const POOL_WAIT_MS = 3_000;

/** The readiness check's bound on connecting and on its statements: a balancer's probe wants an answer, not a wait. */
export const READINESS_TIMEOUT_MS = 1_000;
/**
 * Both pools keep their connections open when idle (pg closes them after 10 s unless told): a new connection parses
 * each statement again and plans it five times before settling on a plan (20-40 ms for a name search's first step at a
 * million orders), so on a quiet desk most searches paid that. At most a pool's `max` stay open; TCP keepalive after a
 * minute idle keeps a firewall or NAT from dropping them silently (AWS's NAT after 350 s) and finds a database host that
 * vanished.
 */
const KEPT_OPEN = { idleTimeoutMillis: 0, keepAlive: true, keepAliveInitialDelayMillis: 60_000 } as const;

/**
 * Sessions start in UTC: "today" (current_date: Future orders joining New) is the UTC date whatever the server's own
 * zone. The budget is a connection option: set once per connection, no round trip per statement.
 */
const sessionOptions = (statementTimeoutMs: number) => `-c TimeZone=UTC -c statement_timeout=${statementTimeoutMs}`;

/**
 * An idle pooled connection whose server went away (a restart tells every session 57P01) is dropped by the pool,
 * which then emits 'error': unheard, that would end the process (issue 32). The outage itself shows where it matters:
 * requests answered 503, /api/ready, the event bus's warning.
 */
const ignoreIdleConnectionError = () => {};

/** The extensions every PGlite database loads (the search's trigram and B-tree GIN indexes, and its sample). */
export const PGLITE_EXTENSIONS = { pg_trgm, btree_gin, tsm_system_rows };

export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  poolSize?: number;
  /**
   * Each statement's budget unless it runs under another (db/statement-budget.ts): the interactive one by default;
   * NO_STATEMENT_TIMEOUT for the CLI tools. PostgreSQL only (PGlite cannot stop a statement).
   */
  statementTimeoutMs?: number;
  /**
   * PGlite only: the database to start from, as PGlite's dumpDataDir() wrote it (the tests start each database from one
   * migrated image instead of running initdb and the migrations again: test/helpers/test-database.ts).
   */
  image?: Blob;
}): Promise<DatabaseHandle> {
  if (opts.url) {
    const pooled = (max: number, statementTimeoutMs: number, connectionTimeoutMillis: number) => {
      const pool = new pg.Pool({
        connectionString: opts.url,
        max,
        ...KEPT_OPEN,
        connectionTimeoutMillis,
        options: sessionOptions(statementTimeoutMs),
        Client: budgetedClient(statementTimeoutMs),
      });
      pool.on('error', ignoreIdleConnectionError);
      return { pool, db: new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparedStatementPool(pool) }) }) };
    };
    const { pool, db } = pooled(
      opts.poolSize ?? 10,
      opts.statementTimeoutMs ?? INTERACTIVE_STATEMENT_TIMEOUT_MS,
      POOL_WAIT_MS,
    );
    // Connections of their own, each a pool of one kept open once made (no idle timeout): a readiness probe every few
    // seconds should not pay a connection's start-up, nor the merges five times a second.
    const readinessDb = pooled(1, READINESS_TIMEOUT_MS, READINESS_TIMEOUT_MS).db;
    const maintenanceDb = pooled(1, MAINTENANCE_STATEMENT_TIMEOUT_MS, POOL_WAIT_MS).db;
    return {
      db,
      readinessDb,
      maintenanceDb,
      kind: 'postgres',
      connectionString: opts.url,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        await readinessDb.destroy();
        await maintenanceDb.destroy();
        await db.destroy();
      },
    };
  }
  const client = await PGlite.create({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.image ? { loadDataDir: opts.image } : {}),
    extensions: PGLITE_EXTENSIONS,
    parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v), [DATE]: (v: string) => v },
  });
  await client.exec(`SET TIME ZONE 'UTC'`);
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  return {
    db,
    readinessDb: db,
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
