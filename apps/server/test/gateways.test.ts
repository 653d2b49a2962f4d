// Gateway Setting (spec §2 "Change Gateway", §3, §5, §7; issue 10): the list without secrets, one active
// gateway switched in one transaction (also under two switches at once), audited, and the public read. Issue 33: a
// gateway this server has no keys for is activated only by a request that says the person was warned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '@eta/contracts';
import { sql } from 'kysely';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { loadConfig } from '../src/lib/config.js';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let manager: Awaited<ReturnType<TestApp['signIn']>>;

// The credentials live in the environment only (issue 21); the app under test has them.
const STRIPE_KEY = 'sk_live_secret_value';
beforeAll(async () => {
  t = await buildTestApp({ payments: loadConfig({ STRIPE_SECRET_KEY: STRIPE_KEY }).payments });
  admin = await t.signIn('Admin');
  manager = await t.signIn('Manager');
});
afterAll(() => t.close());

const list = async () => {
  const res = await t.app.inject({ url: '/api/admin/payment-gateways', headers: { authorization: admin.token } });
  expect(res.statusCode).toBe(200);
  return res;
};
const activate = (gatewayId: unknown, who = admin, warned = true) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/payment-gateway-setting',
    headers: { authorization: who.token },
    payload: gatewayId === undefined ? {} : { gatewayId, ...(warned ? { activateNotConfigured: true } : {}) },
  });
const activeIds = async () =>
  (await t.database.db.selectFrom('gateways').select('id').where('is_active', '=', true).execute()).map((g) => g.id);

describe('payment gateways', () => {
  it('lists every gateway with is_active "1"/"0", whether this server has its keys, and never a secret', async () => {
    const res = await list();
    const data = res.json<{ data: Gateway[] }>().data;
    expect(data).toEqual([
      { id: expect.any(Number), gateway_name: 'Stripe', is_active: '1', configured: true },
      { id: expect.any(Number), gateway_name: 'PayPal', is_active: '0', configured: false },
      { id: expect.any(Number), gateway_name: 'Authorize.Net', is_active: '0', configured: false },
    ]);
    expect(res.body).not.toContain('sk_live');
    expect(res.body).not.toContain('secrets');
    const health = await t.app.inject({
      url: '/api/admin/payment-gateways/health',
      headers: { authorization: admin.token },
    });
    expect(health.json().data[0]).toMatchObject({ gateway_name: 'Stripe', configured: true });
    expect(health.body).not.toContain('sk_live');
  });

  it('keeps no credential in the database: the gateways table has no column for one', async () => {
    const { rows } = await sql<{ column_name: string }>`
      SELECT column_name FROM information_schema.columns WHERE table_name = 'gateways' ORDER BY column_name`.execute(
      t.database.db,
    );
    expect(rows.map((r) => r.column_name)).toEqual([
      'created_at',
      'gateway_name',
      'id',
      'is_active',
      'last_error',
      'last_error_at',
      'last_webhook_at',
      'last_webhook_verified',
    ]);
  });

  it('switches exactly one active gateway, audited; choosing the active one again changes nothing', async () => {
    const [stripe, paypal] = (await list()).json<{ data: Gateway[] }>().data;
    const res = await activate(paypal!.id, manager);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 1,
      message:
        'PayPal is now the active gateway. PayPal is not configured on this server: until its keys are set, payments made through it are not verified, and refunds and dispute evidence cannot go through it.',
      data: { id: paypal!.id, gateway_name: 'PayPal', is_active: '1', configured: false },
    });
    expect(await activeIds()).toEqual([paypal!.id]);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['actor_id', 'before', 'after'])
      .where('action', '=', 'gateway.activate')
      .execute();
    expect(audit).toEqual([
      { actor_id: manager.id, before: { active: 'Stripe' }, after: { active: 'PayPal', configured: false } },
    ]);

    const again = await activate(paypal!.id);
    expect(again.json()).toMatchObject({
      status: 1,
      message: expect.stringMatching(/^PayPal is already the active gateway\. PayPal is not configured on this server/),
    });
    expect(await activeIds()).toEqual([paypal!.id]);
    const back = await activate(stripe!.id, admin, false);
    expect(back.json()).toEqual({
      status: 1,
      message: 'Stripe is now the active gateway.',
      data: { id: stripe!.id, gateway_name: 'Stripe', is_active: '1', configured: true },
    });
    expect(await activeIds()).toEqual([stripe!.id]);
  });

  it('refuses to activate a gateway without keys unless the person was warned, and changes nothing', async () => {
    const [stripe, paypal] = (await list()).json<{ data: Gateway[] }>().data;
    expect(await activeIds()).toEqual([stripe!.id]);
    const before = await t.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'gateway.activate')
      .executeTakeFirstOrThrow();
    const res = await activate(paypal!.id, manager, false);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      status: 0,
      code: 'GATEWAY_NOT_CONFIGURED',
      message:
        'PayPal is not configured on this server: until its keys are set, payments made through it are not verified, and refunds and dispute evidence cannot go through it. It was not made the active gateway; confirm to activate it anyway.',
    });
    expect(await activeIds()).toEqual([stripe!.id]);
    const after = await t.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'gateway.activate')
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // The landing sites still read the gateway that was active.
    const read = await t.app.inject({ url: '/api/front/active-gateway' });
    expect(read.json().data).toEqual({ gateway_name: 'Stripe' });
  });

  it("refuses a missing gateway with the spec's message and an unknown one with 404", async () => {
    const missing = await activate(undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Please select gateway.' });
    const unknown = await activate(424242);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'That gateway does not exist.' });
  });

  it('two switches at the same moment end with exactly one active gateway', async () => {
    const gateways = (await list()).json<{ data: Gateway[] }>().data;
    for (let round = 0; round < 5; round += 1) {
      const [a, b] = [gateways[round % 3]!, gateways[(round + 1) % 3]!];
      const answers = await Promise.all([activate(a.id, admin), activate(b.id, manager)]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      const active = await activeIds();
      expect(active).toHaveLength(1);
      expect([a.id, b.id]).toContain(active[0]);
    }
  });

  it('the landing sites read the active gateway name without signing in', async () => {
    const [, , authorizeNet] = (await list()).json<{ data: Gateway[] }>().data;
    await activate(authorizeNet!.id);
    const res = await t.app.inject({ url: '/api/front/active-gateway' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1, message: 'OK', data: { gateway_name: 'Authorize.Net' } });
    expect(res.body).not.toContain('secret');
  });
});
