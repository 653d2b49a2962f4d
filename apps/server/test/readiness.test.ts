// /api/health is liveness (the process answers) and /api/ready is readiness (database reachable, migrations
// current, not shutting down), issue 23: a balancer or orchestrator reads them differently. One app, in order:
// schema behind, current, database gone, shutting down.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { LATEST_MIGRATION } from '../src/db/migrate.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/** One GET over the given agent's connection. */
function get(agent: http.Agent, port: number, path: string) {
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    http
      .get({ agent, host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      })
      .on('error', reject);
  });
}

describe('GET /api/ready and /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });

  it('is not ready while the database lacks a migration this server knows, and names it', async () => {
    await sql`UPDATE kysely_migration SET name = 'hidden' WHERE name = ${LATEST_MIGRATION}`.execute(t.database.db);
    const res = await t.app.inject({ url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 0,
      message: `Database schema is behind this server: migrations not applied: ${LATEST_MIGRATION}.`,
    });
  });

  it('is ready on a current schema', async () => {
    await sql`UPDATE kysely_migration SET name = ${LATEST_MIGRATION} WHERE name = 'hidden'`.execute(t.database.db);
    const res = await t.app.inject({ url: '/api/ready' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 1,
      message: 'OK',
      data: { database: t.database.kind, migration: LATEST_MIGRATION },
    });
  });

  it('is not ready without its database, while /api/health still says the process is alive', async () => {
    // The readiness check's connection is gone (the database itself stays, for the test's clean-up).
    await t.database.readinessDb.destroy();
    const ready = await t.app.inject({ url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 0, message: 'Database unreachable.' });
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 1, message: 'OK', data: { database: t.database.kind } });
  });

  it('answers 503 from the moment shutdown begins, on a connection opened before, and closes that connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      expect((await get(agent, port, '/api/health')).status).toBe(200);

      const closing = t.app.close();
      // By then the preClose hooks have run and the server drains: a read is turned away untouched, so that a
      // balancer passes it on to another server (lib/draining-server.ts).
      await new Promise((resolve) => setTimeout(resolve, 50));
      const during = await get(agent, port, '/api/ready');
      expect(during).toMatchObject({ status: 503, connection: 'close' });
      expect(JSON.parse(during.body)).toEqual({
        status: 0,
        code: 'SERVER_RESTARTING',
        message: 'This server is restarting. Please try again in a moment.',
      });
      await closing;
    } finally {
      agent.destroy();
      await t.close();
    }
  });
});
