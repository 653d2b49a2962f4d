// The Activity page's calls (issue 10): the audit trail newest first with the security events, filtered by
// person, order, action and UTC dates, paged over keys without repeats or gaps, and its CSV of exactly the
// filtered rows (no cap).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage, ActivityRow } from '@eta/contracts';
import { writeAudit } from '../src/modules/audit/audit.repository.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let team: Awaited<ReturnType<TestApp['signIn']>>;
let orderId: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn('Admin', 'Audrey Admin');
  team = await t.signIn('Team', 'Theo Team');
  orderId = await insertOrder(t.database.db);
  // A failed sign-in, a refused call, and work on an order.
  await t.app.inject({
    method: 'POST',
    url: '/api/admin/admin-login',
    payload: { email: 'intruder@evil.test', password: 'guess' },
    remoteAddress: '203.0.113.9',
  });
  await t.app.inject({ url: '/api/admin/activity', headers: { authorization: team.token } });
  for (let i = 0; i < 3; i += 1) {
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/add-new-remark',
      headers: { authorization: team.token },
      payload: { orderId, remark: `Note ${i}` },
    });
  }
  // Rows dated by hand at the edges of a day (UTC), written the way every other audit row is.
  const order = await t.database.db
    .selectFrom('orders')
    .select('id')
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  await t.database.db.transaction().execute(async (trx) => {
    await writeAudit(trx, { id: admin.id, name: admin.name, ip: '127.0.0.1' }, [
      { action: 'order.remark', orderId: order.id, target: orderId },
    ]);
  });
  await t.database.db
    .insertInto('audit_log')
    .values([
      {
        at: new Date('2025-01-10T00:00:00.000Z'),
        actor_id: admin.id,
        actor_name: admin.name,
        action: 'team.add',
        target: 'staff:1',
      },
      {
        at: new Date('2025-01-10T23:59:59.999Z'),
        actor_id: admin.id,
        actor_name: admin.name,
        action: 'team.update',
        target: 'staff:1',
      },
      {
        at: new Date('2025-01-09T23:59:59.999Z'),
        actor_id: admin.id,
        actor_name: admin.name,
        action: 'team.delete',
        target: 'staff:1',
      },
      {
        at: new Date('2025-01-11T00:00:00.000Z'),
        actor_id: admin.id,
        actor_name: admin.name,
        action: 'gateway.activate',
        target: 'gateway:1',
      },
    ] as never)
    .execute();
});
afterAll(() => t.close());

const page = async (query: string) => {
  const res = await t.app.inject({ url: `/api/admin/activity?${query}`, headers: { authorization: admin.token } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: ActivityPage }>().data;
};
const all = async (query: string) => (await page(`${query}&limit=500`)).rows;

describe('activity', () => {
  it('lists the trail newest first with the security events', async () => {
    const rows = await all('');
    const times = rows.map((r) => r.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(rows.find((r) => r.action === 'security.login-failed')).toMatchObject({
      actor_id: null,
      target: 'intruder@evil.test',
      ip: '203.0.113.9',
    });
    expect(rows.find((r) => r.action === 'security.forbidden')).toMatchObject({
      actor_id: team.id,
      actor_name: 'Theo Team',
      target: 'GET /api/admin/activity',
    });
  });

  it('filters by person, order id (as typed), action and UTC dates', async () => {
    const byTeam = await all(`actorId=${team.id}`);
    expect(byTeam.length).toBeGreaterThan(0);
    expect(byTeam.every((r) => r.actor_id === team.id)).toBe(true);

    const byOrder = await all(`orderId=${orderId.toLowerCase()}%20`);
    expect(byOrder.map((r) => [r.action, r.order_id, r.actor_name])).toEqual([
      ['order.remark', orderId, 'Audrey Admin'],
      ['order.remark', orderId, 'Theo Team'],
      ['order.remark', orderId, 'Theo Team'],
      ['order.remark', orderId, 'Theo Team'],
    ]);
    expect(await all(`orderId=ETA-999999999`)).toEqual([]);

    const failed = await all('action=security.login-failed');
    expect(failed.map((r) => r.action)).toEqual(['security.login-failed']);

    const day = await all('fromDate=2025-01-10&toDate=2025-01-10');
    expect(day.map((r) => r.action)).toEqual(['team.update', 'team.add']);
    const both = await all(`fromDate=2025-01-10&toDate=2025-01-11&actorId=${admin.id}&action=gateway.activate`);
    expect(both.map((r) => r.action)).toEqual(['gateway.activate']);
  });

  it('pages over keys: every row once, in order, whatever the page size', async () => {
    const everything = await all('');
    const walked: ActivityRow[] = [];
    let cursor: string | null = null;
    do {
      const p: ActivityPage = await page(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(p.rows.length).toBeLessThanOrEqual(3);
      walked.push(...p.rows);
      cursor = p.next;
    } while (cursor);
    expect(walked.map((r) => r.id)).toEqual(everything.map((r) => r.id));
    const bad = await t.app.inject({
      url: '/api/admin/activity?cursor=bm90LWEtY3Vyc29y',
      headers: { authorization: admin.token },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 0, code: 'VALIDATION_FAILED' });
  });

  it('lists everyone who may appear as a person, deleted members too', async () => {
    const res = await t.app.inject({ url: '/api/admin/activity-people', headers: { authorization: admin.token } });
    expect(res.json<{ data: { id: number; name: string; active: boolean }[] }>().data).toEqual(
      expect.arrayContaining([{ id: team.id, name: 'Theo Team', active: true }]),
    );
  });

  it('the CSV holds exactly the filtered rows, newest first', async () => {
    const filtered = await all(`actorId=${team.id}`);
    const res = await t.app.inject({
      url: `/api/admin/activity/csv?actorId=${team.id}`,
      headers: { authorization: admin.token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe('Time (UTC),Person,Action,Order ID,Target,Before,After,IP address');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3))).toEqual(
      filtered.map((r) => [r.at, 'Theo Team', r.action]),
    );
  });

  it('the CSV is not capped: it walks every page of a long trail', async () => {
    const many = Array.from({ length: 2_345 }, (_, i) => ({
      at: new Date(Date.UTC(2024, 0, 1) + i * 1000),
      actor_id: admin.id,
      actor_name: admin.name,
      action: 'order.assign',
      target: `bulk-${i}`,
    }));
    await t.database.db
      .insertInto('audit_log')
      .values(many as never)
      .execute();
    const res = await t.app.inject({
      url: '/api/admin/activity/csv?action=order.assign&fromDate=2024-01-01&toDate=2024-01-01',
      headers: { authorization: admin.token },
    });
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines).toHaveLength(2_346);
    expect(lines[1]).toContain('bulk-2344');
    expect(lines[2_345]).toContain('bulk-0');
    expect(new Set(lines).size).toBe(2_346);
  });
});
