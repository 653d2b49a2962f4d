// Stripe for real (issue 21): the official SDK against a loopback stand-in of Stripe's HTTP API. Payments claimed
// at intake are checked before the order is queued, webhooks signed with the shared secret move orders into
// ChargeBack once (replays, races, forgeries and stale ones change nothing more), refunds go through Stripe with
// the order's idempotency key, and a chargeback's evidence is uploaded and submitted from the desk.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { extractText } from 'unpdf';
import type { GatewayHealth, OrderListPage } from '@eta/contracts';
import { buildApp } from '../src/app.js';
import { buildTestApp, JWT_SECRET, type TestApp } from './helpers/test-app.js';
import { deskReads } from './helpers/payments.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { startStripeStandIn, stripeDispute, stripeEvent, type StripeStandIn } from './helpers/stripe-stand-in.js';
import { loadConfig } from '../src/lib/config.js';
import { ERASED_EVENT_PAYLOAD } from '../src/modules/payments/payments.repository.js';

let stripe: StripeStandIn;
let t: TestApp;
let key: string;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let desk: ReturnType<typeof deskReads>;
let payment = 0;
let payments: ReturnType<typeof loadConfig>['payments'];

beforeAll(async () => {
  stripe = await startStripeStandIn();
  payments = loadConfig({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
    STRIPE_FILES_URL: stripe.filesUrl,
  }).payments;
  t = await buildTestApp({ payments, intakeRatePerSecond: 1000, publicUrl: 'https://desk.example.com' });
  key = await createIntakeKey(t);
  admin = await t.signIn('Admin', 'Payments Admin');
  desk = deskReads(t, admin.token);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});
beforeEach(() => {
  stripe.requests.length = 0;
});

const as = (token: string) => ({ authorization: token });
/** A PaymentIntent the stand-in knows, paid (by default) for the example's 89.00 USD. */
function paidIntent(
  fields: Partial<{ status: 'succeeded' | 'processing' | 'canceled'; amount: number; currency: string }> = {},
) {
  payment += 1;
  const id = `pi_test${payment}${Date.now()}`;
  stripe.payments.set(id, {
    id,
    status: fields.status ?? 'succeeded',
    amount: fields.amount ?? 8900,
    currency: fields.currency ?? 'usd',
    chargeId: `ch_test${payment}${Date.now()}`,
  });
  return stripe.payments.get(id)!;
}

const applicationPaidBy = (transactionId: string) => {
  const body = application();
  return { ...body, payment: { ...(body.payment as object), transaction_id: transactionId } };
};

async function orderPaidBy(transactionId: string) {
  const res = await postIntake(t, key, applicationPaidBy(transactionId));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: { order_id: string; payment: { status: string; verified: boolean; message: string } } }>()
    .data;
}

const webhook = (body: string, signature: string | null = stripe.sign(body)) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload: body,
    remoteAddress: '54.187.174.169',
  });

/** A completed order paid through Stripe (verified at intake), as the desk would have delivered it. */
async function completedOrder() {
  const intent = paidIntent();
  const { order_id } = await orderPaidBy(intent.id);
  await t.database.db
    .updateTable('orders')
    .set({ process_status: 'Completed' })
    .where('order_id', '=', order_id)
    .execute();
  return { orderId: order_id, intent };
}

async function disputeOpened(orderId: string, intent: { id: string; chargeId?: string }, dueInDays = 7) {
  const disputeId = `dp_${orderId.slice(4)}${dueInDays}`;
  const body = stripeEvent(
    'charge.dispute.created',
    stripeDispute({
      id: disputeId,
      charge: intent.chargeId!,
      paymentIntent: intent.id,
      amount: 8900,
      dueBy: new Date(Date.now() + dueInDays * 86_400_000 + 3_600_000),
    }),
  );
  const res = await webhook(body);
  expect(res.statusCode, res.body).toBe(200);
  return { disputeId, body };
}

describe('the log', () => {
  it('names what went wrong with Stripe, never its secret key nor the webhook secret', async () => {
    const lines: string[] = [];
    const logged = await buildTestApp(
      { payments, intakeRatePerSecond: 1000 },
      { logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } } },
    );
    try {
      const loggedKey = await createIntakeKey(logged);
      stripe.failNext(500, 500, 500);
      const unreachable = await postIntake(logged, loggedKey, applicationPaidBy(paidIntent().id));
      expect(unreachable.statusCode, unreachable.body).toBe(201);
      const body = stripeEvent('customer.created', { id: 'cus_log', object: 'customer' });
      const forged = await logged.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripe.sign(body, undefined, 'whsec_wrong'),
        },
        payload: body,
      });
      expect(forged.statusCode).toBe(400);
    } finally {
      await logged.close();
    }
    const log = lines.join('');
    expect(log).toMatch(/Stripe/);
    expect(log).toContain('/api/webhooks/stripe');
    for (const secret of [stripe.secretKey, stripe.webhookSecret]) expect(log).not.toContain(secret);
  });
});

describe('a payment claimed at intake is checked with Stripe before the order is queued', () => {
  it('a succeeded PaymentIntent of the same amount and currency: Success, verified, its charge kept, queued in New', async () => {
    const before = await desk.counts();
    const intent = paidIntent();
    const created = await orderPaidBy(intent.id);
    expect(created.payment).toMatchObject({ status: 'Success', verified: true });
    const asked = stripe.requests.find((r) => r.method === 'GET');
    expect(asked).toMatchObject({ path: `/v1/payment_intents/${intent.id}`, host: 'api' });
    expect(asked!.headers.authorization).toContain(stripe.secretKey);
    const row = await desk.orderRow(created.order_id);
    expect(row).toMatchObject({ payment_status: 'Success', charge_id: intent.chargeId, transaction_id: intent.id });
    expect(row.payment_verified_at).toBeInstanceOf(Date);
    expect((await desk.counts()).newOrdersCount).toBe(before.newOrdersCount + 1);
    expect(await desk.remarksOf(created.order_id)).toEqual([
      expect.objectContaining({ remark_name: 'Stripe', remark: expect.stringContaining('succeeded'), staff_id: null }),
    ]);
  });

  it('a charge id (ch_…) claimed at intake is checked as a charge: Success, verified, kept as the charge', async () => {
    // A payment made with the Charges API: Stripe knows it by its charge id alone.
    const chargeId = `ch_direct${Date.now()}`;
    stripe.payments.set(chargeId, { id: chargeId, status: 'succeeded', amount: 8900, currency: 'usd' });
    stripe.requests.length = 0;
    const created = await orderPaidBy(chargeId);
    expect(created.payment).toMatchObject({ status: 'Success', verified: true });
    expect(stripe.requests.find((r) => r.method === 'GET')).toMatchObject({ path: `/v1/charges/${chargeId}` });
    expect(await desk.orderRow(created.order_id)).toMatchObject({ payment_status: 'Success', charge_id: chargeId });
  });

  it('another amount, a failed payment or an unknown one keep the order out of the queues and say why', async () => {
    const before = await desk.counts();
    const cheaper = await orderPaidBy(paidIntent({ amount: 100 }).id);
    expect(cheaper.payment).toMatchObject({ status: 'Pending', verified: false });
    expect(cheaper.payment.message).toMatch(/1\.00 USD, not 89\.00 USD/);
    const euros = await orderPaidBy(paidIntent({ currency: 'eur' }).id);
    expect(euros.payment.status).toBe('Pending');
    const cancelled = await orderPaidBy(paidIntent({ status: 'canceled' }).id);
    expect(cancelled.payment).toMatchObject({ status: 'Failed', verified: false });
    const unknown = await orderPaidBy('pi_doesnotexist');
    expect(unknown.payment).toMatchObject({
      status: 'Failed',
      message: expect.stringMatching(/no payment pi_doesnotexist/),
    });
    expect(await desk.counts()).toEqual(before);
    expect((await desk.orderRow(cheaper.order_id)).payment_status).toBe('Pending');
    expect((await desk.remarksOf(cheaper.order_id))[0]!.remark).toMatch(/kept out of the queues/);
  });

  it('Stripe unreachable: Pending now, settled by the background re-check once Stripe answers', async () => {
    const intent = paidIntent();
    stripe.failNext(500, 500); // the SDK tries once more on a 500
    const created = await orderPaidBy(intent.id);
    expect(created.payment).toMatchObject({ status: 'Pending', verified: false });
    const waiting = await desk.orderRow(created.order_id);
    expect(waiting.payment_check_due_at!.getTime()).toBeGreaterThan(Date.now());
    const health = (await t.app.inject({ url: '/api/admin/payment-gateways/health', headers: as(admin.token) })).json<{
      data: GatewayHealth[];
    }>().data;
    expect(health.find((g) => g.gateway_name === 'Stripe')!.lastError).toMatch(/could not be asked/);

    // Not due yet: nothing happens. Due: checked, Success, queued.
    expect(await t.app.services.payments.recheckDuePayments()).toBe(0);
    await sql`UPDATE orders SET payment_check_due_at = now() - interval '1 second' WHERE order_id = ${created.order_id}`.execute(
      t.database.db,
    );
    expect(await t.app.services.payments.recheckDuePayments()).toBe(1);
    const settled = await desk.orderRow(created.order_id);
    expect(settled).toMatchObject({ payment_status: 'Success', payment_check_due_at: null, payment_check_attempts: 1 });
    expect((await desk.remarksOf(created.order_id)).map((r) => r.remark)).toEqual([
      expect.stringMatching(/could not be asked.*checked again/),
      expect.stringMatching(/succeeded/),
    ]);
  });

  it('two server processes re-checking at once ask Stripe once per order and settle each once', async () => {
    const intents = Array.from({ length: 6 }, () => paidIntent());
    stripe.failNext(...intents.flatMap(() => [500, 500])); // unreachable at intake: each order waits for a re-check
    const orders = [];
    for (const intent of intents) orders.push((await orderPaidBy(intent.id)).order_id);
    await sql`UPDATE orders SET payment_check_due_at = now() - interval '1 second' WHERE order_id IN (${sql.join(orders)})`.execute(
      t.database.db,
    );
    stripe.requests.length = 0;
    // A second server on the same database (its own event bus on PostgreSQL, as another process would have).
    const other = await buildApp({ config: t.config, database: t.database, jwtSecret: JWT_SECRET, logger: false });
    try {
      const settled = await Promise.all([
        t.app.services.payments.recheckDuePayments(),
        other.services.payments.recheckDuePayments(),
      ]);
      expect(settled[0] + settled[1]).toBe(orders.length);
    } finally {
      await other.close();
    }
    const asked = stripe.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/payment_intents/'));
    expect(asked.map((r) => r.path).sort()).toEqual(intents.map((i) => `/v1/payment_intents/${i.id}`).sort());
    for (const orderId of orders) {
      expect(await desk.orderRow(orderId)).toMatchObject({ payment_status: 'Success', payment_check_attempts: 1 });
    }
  });

  it('a gateway that cannot answer again and again is asked less and less often', async () => {
    const intent = paidIntent();
    stripe.failNext(503, 503);
    const created = await orderPaidBy(intent.id);
    await sql`UPDATE orders SET payment_check_due_at = now() - interval '1 second' WHERE order_id = ${created.order_id}`.execute(
      t.database.db,
    );
    stripe.failNext(503, 503);
    const started = Date.now();
    await t.app.services.payments.recheckDuePayments();
    const row = await desk.orderRow(created.order_id);
    expect(row).toMatchObject({ payment_status: 'Pending', payment_check_attempts: 1 });
    // The second check waits twice as long as the first (2 minutes).
    expect(row.payment_check_due_at!.getTime() - started).toBeGreaterThan(110_000);
    await sql`UPDATE orders SET payment_check_due_at = NULL WHERE order_id = ${created.order_id}`.execute(
      t.database.db,
    );
  });
});

describe('POST /api/webhooks/stripe', () => {
  it('a dispute opened: ChargeBack whatever the status, the dispute kept, a system remark, counts moved, audited', async () => {
    const { orderId, intent } = await completedOrder();
    const before = await desk.counts();
    const { disputeId } = await disputeOpened(orderId, intent);
    const row = await desk.orderRow(orderId);
    expect(row.process_status).toBe('ChargeBack');
    expect(row.dispute_due_at).toBeInstanceOf(Date);
    const after = await desk.counts();
    expect(after.chargeBackCount).toBe(before.chargeBackCount + 1);
    expect(after.completedOrdersCount).toBe(before.completedOrdersCount - 1);
    const [dispute] = await desk.disputesOf(orderId);
    expect(dispute).toMatchObject({
      gateway_name: 'Stripe',
      dispute_id: disputeId,
      reason: 'fraudulent',
      amount_cents: 8900,
      currency: 'USD',
      status: 'needs_response',
      outcome: null,
      history: [
        expect.objectContaining({
          by: 'Stripe',
          note: expect.stringMatching(/Chargeback opened at Stripe: fraudulent, 89\.00 USD/),
        }),
      ],
    });
    expect((await desk.remarksOf(orderId)).at(-1)).toMatchObject({ remark_name: 'Stripe', chargeback: true });
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_name', 'ip'])
      .where('target', '=', orderId)
      .where('action', '=', 'order.dispute-created')
      .execute();
    expect(audit).toEqual([{ action: 'order.dispute-created', actor_name: 'Stripe', ip: '54.187.174.169' }]);
  });

  it('a replayed event answers 200 and does nothing twice; two copies racing make one effect', async () => {
    const { orderId, intent } = await completedOrder();
    const { body } = await disputeOpened(orderId, intent);
    const replay = await webhook(body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });

    const second = await completedOrder();
    const racing = stripeEvent(
      'charge.dispute.created',
      stripeDispute({ id: `dp_race_${second.orderId}`, charge: second.intent.chargeId!, amount: 8900 }),
    );
    const answers = await Promise.all([webhook(racing), webhook(racing), webhook(racing)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);
    for (const id of [orderId, second.orderId]) {
      const [dispute] = await desk.disputesOf(id);
      expect(dispute!.history).toHaveLength(1);
      expect((await desk.remarksOf(id)).filter((r) => r.chargeback)).toHaveLength(1);
    }
  });

  it('a forged, unsigned or stale event gets 400 and changes nothing; the gateway page says its signature failed', async () => {
    const { orderId, intent } = await completedOrder();
    const body = stripeEvent(
      'charge.dispute.created',
      stripeDispute({ id: 'dp_forged', charge: intent.chargeId!, amount: 8900 }),
    );
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    for (const signature of [
      stripe.sign(body, undefined, 'whsec_not_the_shared_secret'),
      null,
      stripe.sign(body, tenMinutesAgo),
      stripe.sign(`${body} `),
    ]) {
      const res = await webhook(body, signature);
      expect(res.statusCode, String(signature)).toBe(400);
      expect(res.json().message).toMatch(/signature did not hold/);
    }
    expect((await desk.orderRow(orderId)).process_status).toBe('Completed');
    expect(await desk.disputesOf(orderId)).toEqual([]);
    const events = await t.database.db
      .selectFrom('gateway_events')
      .select('id')
      .where('event_id', '=', JSON.parse(body).id)
      .execute();
    expect(events).toEqual([]);
    const stripeHealth = (
      await t.app.inject({ url: '/api/admin/payment-gateways/health', headers: as(admin.token) })
    ).json<{ data: GatewayHealth[] }>().data[0]!;
    expect(stripeHealth).toMatchObject({ gateway_name: 'Stripe', lastWebhookVerified: false });
  });

  it('an event signed four minutes ago is inside the 5-minute tolerance; a dispute moves an order from any status', async () => {
    const { orderId, intent } = await completedOrder();
    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Awaiting' })
      .where('order_id', '=', orderId)
      .execute();
    const body = stripeEvent(
      'charge.dispute.created',
      stripeDispute({ id: `dp_late_${orderId.slice(4)}`, charge: intent.chargeId!, amount: 8900 }),
    );
    const res = await webhook(body, stripe.sign(body, Math.floor(Date.now() / 1000) - 240));
    expect(res.statusCode, res.body).toBe(200);
    expect((await desk.orderRow(orderId)).process_status).toBe('ChargeBack');
    expect(await desk.disputesOf(orderId)).toHaveLength(1);
  });

  it('a dispute whose charge the desk never saw is matched by its PaymentIntent', async () => {
    const { orderId, intent } = await completedOrder();
    const body = stripeEvent(
      'charge.dispute.created',
      stripeDispute({
        id: `dp_pi_${orderId.slice(4)}`,
        charge: `ch_unseen${Date.now()}`,
        paymentIntent: intent.id,
        amount: 8900,
      }),
    );
    const res = await webhook(body);
    expect(res.statusCode, res.body).toBe(200);
    expect((await desk.orderRow(orderId)).process_status).toBe('ChargeBack');
    expect(await desk.disputesOf(orderId)).toHaveLength(1);
  });

  it('an unknown event type is acknowledged and ignored; a dispute for an unknown charge is kept for the Admins', async () => {
    const ignored = await webhook(stripeEvent('customer.created', { id: 'cus_1', object: 'customer' }));
    expect(ignored.statusCode).toBe(200);
    const stranger = stripeEvent(
      'charge.dispute.created',
      stripeDispute({ id: 'dp_stranger', charge: 'ch_nobody', amount: 500 }),
    );
    expect((await webhook(stranger)).statusCode).toBe(200);
    const res = await t.app.inject({ url: '/api/admin/gateway-events/unmatched', headers: as(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.rows[0]).toMatchObject({
      gateway_name: 'Stripe',
      event_id: JSON.parse(stranger).id,
      type: 'charge.dispute.created',
      note: 'No order has payment ch_nobody.',
    });
    const team = await t.signIn('Team');
    expect(
      (await t.app.inject({ url: '/api/admin/gateway-events/unmatched', headers: as(team.token) })).statusCode,
    ).toBe(403);
  });

  it('updated and closed: the new status and the outcome with its time; the due date leaves the queue', async () => {
    const { orderId, intent } = await completedOrder();
    const { disputeId } = await disputeOpened(orderId, intent);
    const update = (type: string, status: string) =>
      webhook(stripeEvent(type, stripeDispute({ id: disputeId, charge: intent.chargeId!, amount: 8900, status })));
    expect((await update('charge.dispute.updated', 'under_review')).statusCode).toBe(200);
    expect((await update('charge.dispute.closed', 'won')).statusCode).toBe(200);
    const [dispute] = await desk.disputesOf(orderId);
    expect(dispute).toMatchObject({ status: 'won', outcome: 'won', outcome_at: expect.any(String) });
    expect(dispute!.history.map((h) => h.status)).toEqual(['needs_response', 'under_review', 'won']);
    expect((await desk.orderRow(orderId)).dispute_due_at).toBeNull();
  });

  it('a refund made in the dashboard moves the order to Refund Completed', async () => {
    const { orderId, intent } = await completedOrder();
    const body = stripeEvent('charge.refunded', {
      id: intent.chargeId,
      object: 'charge',
      amount: 8900,
      amount_refunded: 8900,
      currency: 'usd',
      payment_intent: intent.id,
      refunds: { object: 'list', data: [{ id: 're_dashboard1', object: 'refund' }] },
    });
    expect((await webhook(body)).statusCode).toBe(200);
    expect(await desk.orderRow(orderId)).toMatchObject({
      process_status: 'Refund Completed',
      refund_id: 're_dashboard1',
    });
  });
});

describe('a webhook for an order whose personal data was erased', () => {
  it('is applied, and its payload naming the card holder is not stored (a raw read finds neither name nor e-mail)', async () => {
    const intent = paidIntent();
    const email = `card.holder.${payment}.${Date.now()}@mail.test`;
    const created = await postIntake(t, key, { ...applicationPaidBy(intent.id), email });
    expect(created.statusCode, created.body).toBe(201);
    const orderId = created.json<{ data: { order_id: string } }>().data.order_id;
    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Completed' })
      .where('order_id', '=', orderId)
      .execute();
    // Stripe's charge events name the card holder and their e-mail.
    const holder = { name: 'Ada Cardholder', email };
    const refunded = (refundId: string) =>
      stripeEvent('charge.refunded', {
        id: intent.chargeId,
        object: 'charge',
        amount: 8900,
        amount_refunded: 8900,
        currency: 'usd',
        payment_intent: intent.id,
        billing_details: { ...holder, address: { line1: '12 Erased Street' } },
        refunds: { object: 'list', data: [{ id: refundId, object: 'refund' }] },
      });
    const before = refunded(`re_${payment}before`);
    expect((await webhook(before)).statusCode).toBe(200);

    const erase = await t.app.inject({
      method: 'POST',
      url: '/api/admin/subject-requests/erase',
      headers: as(admin.token),
      payload: { email, confirm: true },
    });
    expect(erase.statusCode, erase.body).toBe(200);
    expect(erase.json().data.erased).toEqual([orderId]);

    // Months later: the refund is notified again (stored through the transaction's insert), then the bank disputes
    // the charge (stored by the dispute's one statement); both name the card holder.
    const after = refunded(`re_${payment}after`);
    expect((await webhook(after)).statusCode).toBe(200);
    const dispute = stripeEvent('charge.dispute.created', {
      ...stripeDispute({ id: `dp_erased${payment}`, charge: intent.chargeId!, paymentIntent: intent.id, amount: 8900 }),
      evidence: { customer_name: holder.name, customer_email_address: holder.email },
    });
    expect((await webhook(dispute)).statusCode).toBe(200);
    expect((await desk.orderRow(orderId)).process_status).toBe('ChargeBack');

    const { rows } = await sql<{ event_id: string; type: string; outcome: string; note: string; payload: string }>`
      SELECT e.event_id, e.type, e.outcome, e.note, e.payload::text AS payload
        FROM gateway_events e JOIN orders o ON o.id = e.order_id
       WHERE o.order_id = ${orderId}
       ORDER BY e.id`.execute(t.database.db);
    // What the gateway said and what the desk did stay: the evidence trail.
    expect(rows.map((r) => [r.event_id, r.type, r.outcome])).toEqual([
      [JSON.parse(before).id, 'charge.refunded', 'applied'],
      [JSON.parse(after).id, 'charge.refunded', 'ignored'],
      [JSON.parse(dispute).id, 'charge.dispute.created', 'applied'],
    ]);
    // The payload erased with the order and those stored after it read the same.
    for (const r of rows) {
      expect(r.note).not.toBe('');
      expect(JSON.parse(r.payload)).toEqual(JSON.parse(ERASED_EVENT_PAYLOAD));
    }
    const { rows: anywhere } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM gateway_events
       WHERE payload::text LIKE ${'%Ada Cardholder%'} OR payload::text LIKE ${`%${email}%`}`.execute(t.database.db);
    expect(anywhere).toEqual([{ n: 0 }]);
  });
});

describe('the ChargeBack queue', () => {
  it("shows each dispute's reason, amount and due date, soonest due first", async () => {
    const late = await completedOrder();
    await disputeOpened(late.orderId, late.intent, 20);
    const soon = await completedOrder();
    await disputeOpened(soon.orderId, soon.intent, 2);
    const res = await t.app.inject({
      url: '/api/admin/get-orders-list/chargeBack?page=1&limit=50',
      headers: as(admin.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<{ data: OrderListPage }>().data.rows;
    const ids = rows.map((r) => r.order_id);
    expect(ids.indexOf(soon.orderId)).toBeLessThan(ids.indexOf(late.orderId));
    // Open disputes first, soonest due first (a decided one has no due date on its order any more).
    const open = rows.filter((r) => r.dispute && !['won', 'lost'].includes(r.dispute.status));
    expect(rows.slice(0, open.length)).toEqual(open);
    const dues = open.map((r) => r.dispute!.evidence_due_by);
    expect([...dues].sort()).toEqual(dues);
    // Searching the queue keeps its order (the lead key reaches every search plan).
    const found = await t.search(admin.token, { start: 0, end: 50, searchVal: 'ETA-', folderName: 'chargeBack' });
    expect(found.rows.map((r) => r.order_id).filter((id) => [soon.orderId, late.orderId].includes(id))).toEqual([
      soon.orderId,
      late.orderId,
    ]);
    expect(rows.find((r) => r.order_id === soon.orderId)!.dispute).toMatchObject({
      reason: 'fraudulent',
      amount_cents: 8900,
      currency: 'USD',
      evidence_due_by: expect.stringMatching(/Z$/),
    });
  });
});

describe('Refunded it, through Stripe', () => {
  async function inRefunds() {
    const { orderId, intent } = await completedOrder();
    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Refunds' })
      .where('order_id', '=', orderId)
      .execute();
    return { orderId, intent };
  }

  it('refunds with the order as idempotency key; only refunded orders move, the others say why', async () => {
    const good = await inRefunds();
    const refused = await inRefunds();
    stripe.refuseRefund(refused.intent.id, 'charge_already_refunded', 'Charge has already been refunded.');
    const res = await desk.refundIt([good.orderId, refused.orderId]);
    expect(res.statusCode, res.body).toBe(200);
    const refunds = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(refunds.map((r) => [r.form.payment_intent, r.headers['idempotency-key']])).toEqual([
      [good.intent.id, `refund-${good.orderId}`],
      [refused.intent.id, `refund-${refused.orderId}`],
    ]);
    expect(res.json().data).toMatchObject({
      updated: [good.orderId],
      skipped: [{ orderId: refused.orderId, code: 'REFUND_FAILED', reason: expect.stringMatching(/already refunded/) }],
    });
    expect(await desk.orderRow(good.orderId)).toMatchObject({
      process_status: 'Refund Completed',
      refund_id: expect.stringMatching(/^re_/),
    });
    expect((await desk.orderRow(refused.orderId)).process_status).toBe('Refunds');

    // A retried click after a crash between Stripe and the desk: Stripe answers the first refund again.
    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Refunds' })
      .where('order_id', '=', good.orderId)
      .execute();
    const first = (await desk.orderRow(good.orderId)).refund_id;
    expect((await desk.refundIt([good.orderId])).statusCode).toBe(200);
    expect((await desk.orderRow(good.orderId)).refund_id).toBe(first);
  });

  it('an order whose payment no gateway confirmed moves as before, without calling Stripe', async () => {
    const created = await orderPaidBy('pi_unverified_demo');
    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Refunds', payment_status: 'Success' })
      .where('order_id', '=', created.order_id)
      .execute();
    expect((await desk.refundIt([created.order_id])).statusCode).toBe(200);
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds')).toEqual([]);
    expect((await desk.orderRow(created.order_id)).process_status).toBe('Refund Completed');
  });
});

describe('Submit evidence', () => {
  const submit = (orderId: string, body: object, token = admin.token) =>
    t.app.inject({ method: 'POST', url: `/api/admin/disputes/${orderId}/evidence`, headers: as(token), payload: body });
  /** The order's access records, oldest first: who, what kind, what. */
  const packReadsOf = async (orderId: string) => {
    await t.app.services.accessRecords.flush();
    const rows = await t.database.db
      .selectFrom('access_records as r')
      .innerJoin('orders as o', 'o.id', 'r.order_id')
      .select(['r.staff_name', 'r.kind', 'r.detail'])
      .where('o.order_id', '=', orderId)
      .orderBy('r.id')
      .execute();
    return rows.map((r) => [r.staff_name, r.kind, r.detail]);
  };

  it('previews the fields, uploads the pack as dispute_evidence and submits; a second submission is refused', async () => {
    const { orderId, intent } = await completedOrder();
    const { disputeId } = await disputeOpened(orderId, intent);
    stripe.requests.length = 0;
    const preview = await t.app.inject({
      url: `/api/admin/disputes/${orderId}/evidence?defencePackType=1`,
      headers: as(admin.token),
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ gateway_name: 'Stripe', dispute_id: disputeId, drafts: true });
    const fields = Object.fromEntries(
      preview.json().data.fields.map((f: { name: string; value: string }) => [f.name, f.value]),
    );
    expect(Object.keys(fields)).toEqual([
      'customer_name',
      'customer_email_address',
      'customer_purchase_ip',
      'product_description',
      'service_date',
      'access_activity_log',
      'refund_policy_disclosure',
      'uncategorized_text',
    ]);
    const pdf = await t.app.inject({
      url: `/api/admin/disputes/${orderId}/evidence.pdf?defencePackType=1`,
      headers: as(admin.token),
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(stripe.requests).toEqual([]);

    const res = await submit(orderId, { defencePackType: 1, submit: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      evidence_state: 'submitted',
      evidence_pack_type: 1,
      evidence_by: 'Payments Admin',
    });
    const upload = stripe.requests.find((r) => r.path === '/v1/files')!;
    expect(upload).toMatchObject({ host: 'files', file: { purpose: 'dispute_evidence', type: 'application/pdf' } });
    expect(upload.file!.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await extractText(new Uint8Array(upload.file!.bytes), { mergePages: true });
    expect(text).toContain(orderId);
    const update = stripe.requests.find((r) => r.path === `/v1/disputes/${disputeId}`)!;
    // Every field the preview showed is what Stripe received, with the pack as service documentation.
    expect(update.form).toMatchObject({
      ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [`evidence[${name}]`, value])),
      'evidence[service_documentation]': 'file_1',
      submit: 'true',
    });
    for (const name of Object.keys(fields)) expect(fields[name], name).not.toBe('');
    // Who submitted what and when is on the audit trail.
    const audit = await t.database.db
      .selectFrom('audit_log')
      .innerJoin('orders', 'orders.id', 'audit_log.order_id')
      .select(['audit_log.action', 'audit_log.actor_name', 'audit_log.after', 'audit_log.at'])
      .where('orders.order_id', '=', orderId)
      .where('audit_log.action', 'like', 'dispute.evidence-%')
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'dispute.evidence-submitted',
        actor_name: 'Payments Admin',
        after: expect.objectContaining({ evidence_state: 'submitted', dispute: disputeId, defencePackType: 1 }),
        at: expect.any(Date),
      }),
    ]);

    const again = await submit(orderId, { defencePackType: 2, submit: true });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'EVIDENCE_SUBMITTED' });
    // The pack holds the signature and the approved document: each read of it is on the record, its upload too.
    expect(await packReadsOf(orderId)).toEqual([
      ['Payments Admin', 'defence-pack', 'Defence Pack 1 (evidence preview)'],
      ['Payments Admin', 'defence-pack', 'Defence Pack 1 (evidence PDF)'],
      ['Payments Admin', 'defence-pack', 'Defence Pack 1 (evidence submitted to the gateway)'],
    ]);
  });

  it('a gateway error is shown with what to do, and nothing is marked; Team may not submit', async () => {
    const { orderId, intent } = await completedOrder();
    await disputeOpened(orderId, intent);
    const team = await t.signIn('Team');
    expect((await submit(orderId, { defencePackType: 1, submit: true }, team.token)).statusCode).toBe(403);
    stripe.refuseDisputeUpdate('This dispute is already closed.');
    try {
      const res = await submit(orderId, { defencePackType: 1, submit: true });
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toMatch(
        /Stripe refused the evidence: This dispute is already closed.* Check the dispute in Stripe's dashboard\.$/,
      );
    } finally {
      stripe.refuseDisputeUpdate(null);
    }
    const [dispute] = await desk.disputesOf(orderId);
    expect(dispute).toMatchObject({ evidence_state: null, evidence_at: null });
    const draft = await submit(orderId, { defencePackType: 2, submit: false });
    expect(draft.statusCode).toBe(200);
    expect(draft.json().data.evidence_state).toBe('draft');
    expect(stripe.requests.filter((r) => r.path.startsWith('/v1/disputes/')).at(-1)!.form.submit).toBe('false');
    // Only the draft Stripe accepted is on the record (a refused or forbidden submission sent nothing).
    expect(await packReadsOf(orderId)).toEqual([
      ['Payments Admin', 'defence-pack', 'Defence Pack 2 (evidence saved as a draft at the gateway)'],
    ]);
  });
});

describe('the gateway page and the Disputes report', () => {
  it('shows Stripe configured with its webhook URL, and never a secret', async () => {
    const res = await t.app.inject({ url: '/api/admin/payment-gateways/health', headers: as(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(stripe.secretKey);
    expect(res.body).not.toContain(stripe.webhookSecret);
    const byName = Object.fromEntries(res.json<{ data: GatewayHealth[] }>().data.map((g) => [g.gateway_name, g]));
    expect(byName.Stripe).toMatchObject({
      configured: true,
      webhookUrl: 'https://desk.example.com/api/webhooks/stripe',
    });
    expect(byName.PayPal).toMatchObject({ configured: false, note: expect.stringMatching(/PAYPAL_CLIENT_ID/) });
    expect(byName['Authorize.Net']).toMatchObject({ disputes: false, note: expect.stringMatching(/no dispute API/) });
  });

  it('counts disputes opened, won, lost and open with the win rate, and exports them as CSV', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/reports/disputes',
      headers: as(admin.token),
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows, totals } = res.json().data;
    const total = await t.database.db
      .selectFrom('disputes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(totals.opened).toBe(Number(total.n));
    expect(totals.won).toBeGreaterThanOrEqual(1);
    expect(totals.win_rate).toBe(1);
    expect(rows[0]).toMatchObject({ landing_site: 'default', gateway_name: 'Stripe', reason: 'fraudulent' });
    const csv = await t.app.inject({ url: '/api/admin/reports/disputes/csv', headers: as(admin.token) });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toMatch(
      /^\uFEFFMonth,Landing site,Gateway,Reason,Opened,Won,Lost,Open,Win rate\r\n\d{4}-\d{2},default,Stripe,fraudulent,/,
    );
  });
});
