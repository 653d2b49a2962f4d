// GET /metrics (issue 23): Prometheus text behind METRICS_TOKEN; requests counted and timed by route pattern, the
// outbox's depth, the live desk's streams, Node's event-loop delay; and off entirely without a token.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMail } from '../src/modules/mail/mail.repository.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { testBackend } from './helpers/test-database.js';

const TOKEN = 'metrics-token-for-the-tests';

/** The value of one sample line (`name{labels} value`), or undefined when the line is not there. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('GET /metrics', () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  beforeAll(async () => {
    t = await buildTestApp({ metricsToken: TOKEN });
  });
  afterAll(() => t.close());

  it('answers only with the token', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    const bare = await t.app.inject({ url: '/metrics', headers: { authorization: TOKEN } });
    expect(bare.statusCode).toBe(401);
    await scrape();
  });

  it('counts and times a request under its route pattern and status, never its URL', async () => {
    const route = 'method="GET",route="/api/front/landing-sites/:key",status_code="200"';
    const before = await scrape();
    expect((await t.app.inject({ url: '/api/front/landing-sites/default' })).statusCode).toBe(200);
    const after = await scrape();
    expect(sample(after, `eta_http_requests_total{${route}}`)).toBe(
      (sample(before, `eta_http_requests_total{${route}}`) ?? 0) + 1,
    );
    expect(sample(after, `eta_http_request_duration_seconds_count{${route}}`)).toBe(
      (sample(before, `eta_http_request_duration_seconds_count{${route}}`) ?? 0) + 1,
    );
    expect(sample(after, `eta_http_request_duration_seconds_bucket{le="+Inf",${route}}`)).toBeGreaterThan(0);
    expect(after).not.toContain('landing-sites/default');

    expect((await t.app.inject({ url: '/api/admin/get-folder-count' })).statusCode).toBe(401);
    expect(
      sample(
        await scrape(),
        'eta_http_requests_total{method="GET",route="/api/admin/get-folder-count",status_code="401"}',
      ),
    ).toBe(1);
  });

  it('shows the outbox depth and the age of its oldest mail', async () => {
    expect(sample(await scrape(), 'eta_outbox_queued')).toBe(0);
    for (const to of ['one@test.local', 'two@test.local']) {
      await insertMail(t.database.db, {
        orderId: null,
        kind: 'approval',
        to,
        from: 'desk@test.local',
        provider: 'AWS',
        subject: 'Your eTA',
        html: '<p>Approved</p>',
        text: 'Approved',
        attachments: [],
        documentId: null,
        failed: null,
      });
    }
    const text = await scrape();
    expect(sample(text, 'eta_outbox_queued')).toBe(2);
    expect(sample(text, 'eta_outbox_oldest_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'eta_database_up')).toBe(1);
  });

  it('counts the live desk streams through the callback the streams plug in, and shows the event-loop delay', async () => {
    t.app.metrics.countSseClients(() => 3);
    const text = await scrape();
    expect(sample(text, 'eta_sse_clients')).toBe(3);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
  });

  it.runIf(testBackend() === 'postgres')("shows the PostgreSQL pool's connections", async () => {
    const text = await scrape();
    expect(sample(text, 'eta_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect(sample(text, 'eta_db_pool_waiting')).toBe(0);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('is not served on the application port at all', async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer anything-at-all' } });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('eta_http_requests_total');
  });
});

// The listener does not depend on the database: one backend is enough.
describe.runIf(testBackend() === 'postgres')('GET /metrics on METRICS_PORT', () => {
  let t: TestApp;
  let metricsPort: number;
  beforeAll(async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    metricsPort = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    t = await buildTestApp({ metricsPort, metricsToken: TOKEN });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('serves the metrics on its own listener, with the token, and nothing else there', async () => {
    const url = `http://127.0.0.1:${metricsPort}`;
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('eta_http_requests_total');
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/api/health`)).status).toBe(404);
  });
});
