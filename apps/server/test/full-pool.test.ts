// A full pool (issue 32: while slow searches held all 10 pooled connections, /api/ready took up to 6.1 s and other
// requests queued without bound). With every pooled connection held: /api/health answers from the process alone,
// /api/ready answers within 200 ms through a connection of its own, and a request that needs the pool is answered
// 503 with Retry-After once it has waited the pool's bound (POOL_WAIT_MS), not left waiting. On a PostgreSQL server
// of the test's own.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, POOL_WAIT_MS } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { waitFor } from './helpers/built-server.js';
import { ownPostgresRuns, startOwnPostgres, type OwnPostgres } from './helpers/own-postgres.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

const POOL_SIZE = 4;

/** The answer to `request`, or 'no answer' if none came within `ms` (a request left waiting). */
async function within<T>(ms: number, request: Promise<T>): Promise<T | 'no answer'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'no answer'>((resolve) => (timer = setTimeout(() => resolve('no answer'), ms)));
  try {
    return await Promise.race([request, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.runIf(ownPostgresRuns)('every pooled connection held', () => {
  let postgres: OwnPostgres;
  let t: TestApp;
  let token: string;
  let release: () => void = () => {};
  let holders: Promise<unknown>[] = [];

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    const database = await openDatabase({ url: await postgres.createDatabase('eta_full_pool'), poolSize: POOL_SIZE });
    await migrateToLatest(database.db as Kysely<unknown>);
    t = await buildTestApp({}, { database });
    token = (await t.signIn('Team')).token;
    // Ready once before the pool fills: its connection is made and its migration check remembered, as on a server
    // that has been up a while.
    expect((await t.app.inject({ url: '/api/ready' })).statusCode).toBe(200);
    // Each holder takes a pooled connection and keeps it until released, as slow statements would.
    const held = new Promise<void>((resolve) => (release = resolve));
    holders = Array.from({ length: POOL_SIZE }, () => t.database.db.connection().execute(() => held));
    await waitFor('every pooled connection to be held', () => {
      const { total, idle } = t.database.poolStats!();
      return total === POOL_SIZE && idle === 0;
    });
  });

  afterAll(async () => {
    release();
    await Promise.all(holders);
    await t?.close();
    postgres?.destroy();
  });

  it('answers /api/ready within 200 ms and /api/health at once', async () => {
    const started = performance.now();
    const ready = await within(2_000, t.app.inject({ url: '/api/ready' }));
    const readyMs = performance.now() - started;
    expect(ready === 'no answer' ? ready : ready.statusCode).toBe(200);
    expect(readyMs).toBeLessThan(200);
    // Many probes at once share one check.
    const probes = await within(
      2_000,
      Promise.all(Array.from({ length: 20 }, () => t.app.inject({ url: '/api/ready' }))),
    );
    expect(probes === 'no answer' ? probes : probes.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const health = await within(200, t.app.inject({ url: '/api/health' }));
    expect(health === 'no answer' ? health : health.statusCode).toBe(200);
  });

  it('answers a request that waited the pool’s bound for a connection 503 with Retry-After', async () => {
    const started = performance.now();
    const res = await within(
      POOL_WAIT_MS + 2_000,
      t.app.inject({ url: '/api/admin/get-folder-count', headers: { authorization: token } }),
    );
    const waitedMs = performance.now() - started;
    if (res === 'no answer') throw new Error(`no answer within ${POOL_WAIT_MS + 2_000} ms: the request queues`);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({
      status: 0,
      code: 'DATABASE_BUSY',
      message: 'The server is too busy to answer now (every database connection is in use); try again in a moment.',
    });
    expect(waitedMs).toBeGreaterThanOrEqual(POOL_WAIT_MS - 50);
    expect(waitedMs).toBeLessThan(POOL_WAIT_MS + 1_000);
    expect(t.database.poolStats!().waiting).toBe(0);
  });

  it('serves again once connections come free', async () => {
    release();
    await Promise.all(holders);
    const res = await t.app.inject({ url: '/api/admin/get-folder-count', headers: { authorization: token } });
    expect(res.statusCode, res.body).toBe(200);
  });
});
