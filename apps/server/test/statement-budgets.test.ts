// No request occupies the database past a bound (issue 31): every pooled connection starts with the interactive
// statement budget, a statement past it is a 503 that says what to do, a report keeps its longer budget, a search's
// shorter budget is cut and leaves its connection usable, and a request whose client goes away has its statement
// cancelled at once. PostgreSQL only: the embedded database cannot stop a statement (docs/decisions/database.md).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INTERACTIVE_STATEMENT_TIMEOUT_MS,
  isStatementTimeout,
  REPORT_STATEMENT_TIMEOUT_MS,
  withStatementTimeout,
} from '../src/db/statement-budget.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { testBackend } from './helpers/test-database.js';

const TIMEOUT_MESSAGE = 'The database took too long to answer; try again, or narrow the request.';

/** A connection of the test's own that holds a table's lock, as a long transaction of another request would. */
async function lockTable(connectionString: string, table: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return {
    client,
    release: async () => {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/**
 * The app's statements now running or waiting in the test database, seen from another connection. A backend waiting
 * for its client's next message (ClientRead) runs nothing: PostgreSQL 15 leaves one whose extended-protocol statement
 * was cancelled reported 'active' that way, after it has answered ReadyForQuery, until the next statement comes.
 */
async function runningStatements(client: pg.Client): Promise<{ pid: number; query: string; wait: string | null }[]> {
  const { rows } = await client.query<{ pid: number; query: string; wait: string | null }>(
    `SELECT pid, query, wait_event_type AS wait FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
        AND wait_event IS DISTINCT FROM 'ClientRead'`,
  );
  return rows;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.runIf(testBackend() === 'postgres')('statement budgets', () => {
  let t: TestApp;
  let token: string;
  /** Every log line the app wrote, parsed. */
  const logLines: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        callback();
      },
    });
    t = await buildTestApp({}, { logger: { level: 'info', stream } });
    token = (await t.signIn('Admin')).token;
    await insertOrder(t.database.db, { first_name: 'Bernadette' });
  });
  afterAll(() => t?.close());

  it('starts every pooled connection with the interactive budget, as a connection option', async () => {
    // As many statements at once as the pool has connections, each holding its own.
    const rows = await Promise.all(
      Array.from({ length: 4 }, () =>
        sql<{ pid: number; timeout: string; source: string }>`
          SELECT pg_backend_pid() AS pid, current_setting('statement_timeout') AS timeout,
            (SELECT source FROM pg_settings WHERE name = 'statement_timeout') AS source, pg_sleep(0.2)`
          .execute(t.app.db)
          .then((r) => r.rows[0]!),
      ),
    );
    expect(new Set(rows.map((r) => r.pid)).size).toBe(4);
    for (const row of rows) {
      expect(row.timeout).toBe(`${INTERACTIVE_STATEMENT_TIMEOUT_MS / 1000}s`);
      // 'client': the connection's start-up options, not a SET sent with some request.
      expect(row.source).toBe('client');
    }
  });

  it('answers a statement past the interactive budget with 503, Retry-After and what to do, never a 500', async () => {
    const lock = await lockTable(t.database.connectionString!, 'order_counters');
    try {
      const started = Date.now();
      const res = await t.app.inject({ url: '/api/admin/get-folder-count', headers: { authorization: token } });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(res.json()).toEqual({ status: 0, code: 'DATABASE_TIMEOUT', message: TIMEOUT_MESSAGE });
      expect(Date.now() - started).toBeGreaterThanOrEqual(INTERACTIVE_STATEMENT_TIMEOUT_MS - 100);
    } finally {
      await lock.release();
    }
    const after = await t.app.inject({ url: '/api/admin/get-folder-count', headers: { authorization: token } });
    expect(after.statusCode, after.body).toBe(200);
    expect(logLines.filter((l) => l.level >= 50)).toEqual([]);
    expect(logLines.some((l) => l.level === 40 && l.msg === 'a statement ran past its time budget')).toBe(true);
  });

  it('lets a report run past the interactive budget, within its own', async () => {
    const lock = await lockTable(t.database.connectionString!, 'order_report_counts');
    const held = INTERACTIVE_STATEMENT_TIMEOUT_MS + 1_000;
    const releasing = new Promise((r) => setTimeout(r, held)).then(() => lock.release());
    const started = Date.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/get-country-order-count',
      headers: { authorization: token },
      payload: {},
    });
    await releasing;
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(held - 100);
    expect(held).toBeLessThan(REPORT_STATEMENT_TIMEOUT_MS);
  });

  it('cuts a statement at a shorter budget (a search’s) and gives its connection back usable', async () => {
    const db = t.database.db;
    const started = Date.now();
    const failure = await withStatementTimeout(300, () => sql`SELECT pg_sleep(5)`.execute(db)).catch((e: unknown) => e);
    expect(isStatementTimeout(failure)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_500);
    const watcher = new pg.Client({ connectionString: t.database.connectionString });
    await watcher.connect();
    try {
      expect((await runningStatements(watcher)).filter((s) => s.query.includes('pg_sleep(5)'))).toEqual([]);
    } finally {
      await watcher.end();
    }
    // Every connection answers, the one whose statement was cancelled among them, at the interactive budget.
    const rows = await Promise.all(
      Array.from({ length: 4 }, () =>
        sql<{ timeout: string }>`SELECT current_setting('statement_timeout') AS timeout, pg_sleep(0.1)`
          .execute(db)
          .then((r) => r.rows[0]!.timeout),
      ),
    );
    expect(rows).toEqual(['2s', '2s', '2s', '2s']);
  });

  it('knows a rollback undid a longer budget set in its transaction', async () => {
    const db = t.database.db;
    const show = (q: typeof db) => sql<{ t: string }>`SELECT current_setting('statement_timeout') AS t`.execute(q);
    // One connection throughout, so what the rollback left on it is what the next statement meets.
    await db.connection().execute(async (conn) => {
      const inside = await conn
        .transaction()
        .execute((trx) =>
          withStatementTimeout(REPORT_STATEMENT_TIMEOUT_MS, async () => {
            const { rows } = await show(trx);
            throw Object.assign(new Error('rolled back'), { seen: rows[0]!.t });
          }),
        )
        .catch((e: { seen?: string }) => e.seen);
      expect(inside).toBe('10s');
      // The rollback took the connection back to 2 s: the next report's statement must set 10 s again.
      const report = await withStatementTimeout(REPORT_STATEMENT_TIMEOUT_MS, () => show(conn));
      expect(report.rows[0]!.t).toBe('10s');
      expect((await show(conn)).rows[0]!.t).toBe('2s');
    });
  });

  it('cancels the statement of a search whose client went away, and the pool serves the next request', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const lock = await lockTable(t.database.connectionString!, 'orders');
    let cancelledPid: number;
    try {
      const body = JSON.stringify({ start: 0, end: 10, searchVal: 'bernadette', folderName: 'orderHistory' });
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/admin/search-order',
        agent: false,
        headers: {
          authorization: token,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('error', () => {});
      req.end(body);
      // The search's statement waits behind the lock; its client gives up after 100 ms.
      await new Promise((r) => setTimeout(r, 100));
      const waiting = await until('the search to wait for the lock', async () =>
        (await runningStatements(lock.client)).find((s) => s.wait === 'Lock'),
      );
      cancelledPid = waiting.pid;
      req.destroy();
      await new Promise((r) => setTimeout(r, 1_000));
      const left = await runningStatements(lock.client);
      expect(left.filter((s) => s.pid === cancelledPid || s.wait === 'Lock')).toEqual([]);
      // Cancelled, not cut off: the connection is still there, waiting for its next statement.
      const { rows } = await lock.client.query<{ wait: string }>(
        'SELECT wait_event AS wait FROM pg_stat_activity WHERE pid = $1',
        [cancelledPid],
      );
      expect(rows).toEqual([{ wait: 'ClientRead' }]);
    } finally {
      await lock.release();
    }
    const next = await fetch(`http://127.0.0.1:${port}/api/admin/search-order`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ start: 0, end: 10, searchVal: 'bernadette', folderName: 'orderHistory' }),
    });
    expect(next.status).toBe(200);
    // Each of the pool's connections answers, the cancelled one among them.
    const pids = await Promise.all(
      Array.from({ length: 4 }, () =>
        sql<{ pid: number }>`SELECT pg_backend_pid() AS pid, pg_sleep(0.1)`
          .execute(t.app.db)
          .then((r) => r.rows[0]!.pid),
      ),
    );
    expect(pids).toContain(cancelledPid);
    // A client that left is not an error of the server's.
    expect(logLines.filter((l) => l.level >= 50)).toEqual([]);
    expect(logLines.some((l) => l.msg === 'client went away: its statement was cancelled')).toBe(true);
  });
  it('answers a cancel its statement did not ask for as a timeout to try again, on a statement or on a COMMIT', async () => {
    // A cancel sent as a statement ends can reach the backend after it, and cancel the next statement on the
    // connection, a COMMIT among them (the soak saw one). Here an operator's pg_cancel_backend stands in for it, sent
    // while a statement sleeps and while a COMMIT runs a deferred trigger that sleeps.
    const db = t.database.db;
    const watcher = new pg.Client({ connectionString: t.database.connectionString });
    await watcher.connect();
    const cancelWhenRunning = async (pid: number, query: RegExp) => {
      await until('the statement to run', async () => {
        const { rows } = await watcher.query<{ query: string }>(
          `SELECT query FROM pg_stat_activity WHERE pid = $1 AND state = 'active'`,
          [pid],
        );
        return rows.some((r) => query.test(r.query)) ? true : undefined;
      });
      await watcher.query('SELECT pg_cancel_backend($1)', [pid]);
    };
    try {
      await sql`CREATE TABLE stray_cancel (n int)`.execute(db);
      await sql`CREATE FUNCTION stray_cancel_slow() RETURNS trigger LANGUAGE plpgsql AS
        'BEGIN PERFORM pg_sleep(2); RETURN NULL; END'`.execute(db);
      await sql`CREATE CONSTRAINT TRIGGER stray_cancel_at_commit AFTER INSERT ON stray_cancel
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION stray_cancel_slow()`.execute(db);
      await db.connection().execute(async (conn) => {
        const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(conn)).rows[0]!.pid;
        const [statement] = await Promise.all([
          sql`SELECT pg_sleep(2)`.execute(conn).catch((e: unknown) => e),
          cancelWhenRunning(pid, /pg_sleep\(2\)/),
        ]);
        expect(isStatementTimeout(statement)).toBe(true);
        const [commit] = await Promise.all([
          conn
            .transaction()
            .execute((trx) => sql`INSERT INTO stray_cancel VALUES (1)`.execute(trx))
            .catch((e: unknown) => e),
          cancelWhenRunning(pid, /^commit/i),
        ]);
        expect(isStatementTimeout(commit)).toBe(true);
        // Nothing was committed, and the connection is out of the failed transaction, ready for the next statement.
        expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM stray_cancel`.execute(conn)).rows).toEqual([
          { n: 0 },
        ]);
      });
    } finally {
      await watcher.end();
      await sql`DROP TABLE IF EXISTS stray_cancel`.execute(db);
      await sql`DROP FUNCTION IF EXISTS stray_cancel_slow()`.execute(db);
    }
  });
});
