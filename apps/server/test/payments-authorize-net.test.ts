// Authorize.Net for real (issue 21): the official `authorizenet` SDK against a loopback stand-in of Authorize.Net's
// JSON API (answers with a BOM, as Authorize.Net sends them). Refunds only: "Refunded it" reads the transaction's
// details for the card's last four digits, then refunds it (or voids it while unsettled); a retry never refunds twice.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayHealth } from '@eta/contracts';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { deskReads } from './helpers/payments.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { startAuthorizeNetStandIn, type AuthorizeNetStandIn } from './helpers/authorize-net-stand-in.js';
import { loadConfig } from '../src/lib/config.js';
import { AuthorizeNetGateway } from '../src/modules/payments/authorize-net/authorize-net-gateway.js';

let anet: AuthorizeNetStandIn;
let t: TestApp;
let key: string;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let desk: ReturnType<typeof deskReads>;
let nextTransId = 60_000_000_000;

beforeAll(async () => {
  anet = await startAuthorizeNetStandIn();
  const payments = loadConfig({
    AUTHORIZE_NET_LOGIN_ID: anet.loginId,
    AUTHORIZE_NET_TRANSACTION_KEY: anet.transactionKey,
    AUTHORIZE_NET_API_URL: anet.url,
  }).payments;
  t = await buildTestApp({ payments, intakeRatePerSecond: 1000 });
  key = await createIntakeKey(t);
  admin = await t.signIn('Admin', 'Refunds Admin');
  desk = deskReads(t, admin.token);
});
afterAll(async () => {
  await t.close();
  await anet.close();
});
beforeEach(() => {
  anet.requests.length = 0;
});

const as = (token: string) => ({ authorization: token });

/** An order paid by an Authorize.Net card transaction (settled unless told), waiting in Refunds. */
async function inRefunds(status: 'settledSuccessfully' | 'capturedPendingSettlement' = 'settledSuccessfully') {
  nextTransId += 1;
  const transId = String(nextTransId);
  anet.transactions.set(transId, { transId, status, amount: 89, cardLastFour: String(1000 + (nextTransId % 9000)) });
  const body = application();
  const res = await postIntake(t, key, {
    ...body,
    payment: { ...(body.payment as object), gateway: 'Authorize.Net', transaction_id: transId },
  });
  expect(res.statusCode, res.body).toBe(201);
  const orderId = res.json<{ data: { order_id: string } }>().data.order_id;
  await t.database.db
    .updateTable('orders')
    .set({ process_status: 'Refunds' })
    .where('order_id', '=', orderId)
    .execute();
  return { orderId, transId, lastFour: anet.transactions.get(transId)!.cardLastFour };
}

describe('an Authorize.Net payment at intake', () => {
  it('is taken as the landing site sent it: Authorize.Net is not asked', async () => {
    const body = application();
    const res = await postIntake(t, key, {
      ...body,
      payment: { ...(body.payment as object), gateway: 'Authorize.Net', transaction_id: '60999999999' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.payment).toEqual({
      status: 'Success',
      verified: false,
      message: 'Payment taken as sent: the desk does not check Authorize.Net payments.',
    });
    expect(anet.requests).toEqual([]);
  });
});

describe('Refunded it, through Authorize.Net', () => {
  it('reads the card’s last four digits from the details, then refunds the settled amount with them', async () => {
    const order = await inRefunds();
    const res = await desk.refundIt([order.orderId]);
    expect(res.statusCode, res.body).toBe(200);
    expect(anet.requests.map((r) => r.type)).toEqual(['getTransactionDetailsRequest', 'createTransactionRequest']);
    const [details, refund] = anet.requests;
    expect(details!.body).toMatchObject({
      merchantAuthentication: { name: anet.loginId, transactionKey: anet.transactionKey },
      transId: order.transId,
    });
    expect(refund!.keys[0]).toBe('merchantAuthentication');
    expect(refund!.body.transactionRequest).toEqual({
      transactionType: 'refundTransaction',
      amount: '89',
      payment: { creditCard: { cardNumber: order.lastFour, expirationDate: 'XXXX' } },
      refTransId: order.transId,
      order: {
        invoiceNumber: `refund-${order.orderId}`,
        description: `eTA Desk refund of transaction ${order.transId}`,
      },
    });
    const made = [...anet.transactions.values()].filter((tx) => tx.refTransId === order.transId);
    expect(made).toHaveLength(1);
    expect(await desk.orderRow(order.orderId)).toMatchObject({
      process_status: 'Refund Completed',
      refund_id: made[0]!.transId,
    });
  });

  it('a retry after a crash between Authorize.Net and the desk answers the first refund and refunds nothing twice', async () => {
    const order = await inRefunds();
    expect((await desk.refundIt([order.orderId])).statusCode).toBe(200);
    const first = (await desk.orderRow(order.orderId)).refund_id;
    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Refunds' })
      .where('order_id', '=', order.orderId)
      .execute();
    anet.requests.length = 0;

    expect((await desk.refundIt([order.orderId])).statusCode).toBe(200);
    expect(anet.requests.map((r) => r.type)).toEqual([
      'getTransactionDetailsRequest',
      'createTransactionRequest',
      'getUnsettledTransactionListRequest',
    ]);
    expect((await desk.orderRow(order.orderId)).refund_id).toBe(first);
    expect([...anet.transactions.values()].filter((tx) => tx.refTransId === order.transId)).toHaveLength(1);
  });

  it('a payment not settled yet is voided instead, once', async () => {
    const order = await inRefunds('capturedPendingSettlement');
    expect((await desk.refundIt([order.orderId])).statusCode).toBe(200);
    const refund = anet.requests.find((r) => r.type === 'createTransactionRequest')!;
    expect(refund.body.transactionRequest).toMatchObject({
      transactionType: 'voidTransaction',
      refTransId: order.transId,
    });
    expect(anet.transactions.get(order.transId)!.status).toBe('voided');
    expect(await desk.orderRow(order.orderId)).toMatchObject({
      process_status: 'Refund Completed',
      refund_id: order.transId,
    });

    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Refunds' })
      .where('order_id', '=', order.orderId)
      .execute();
    anet.requests.length = 0;
    expect((await desk.refundIt([order.orderId])).statusCode).toBe(200);
    expect(anet.requests.map((r) => r.type)).toEqual(['getTransactionDetailsRequest']);
  });

  it('refusals stay in Refunds with the reason: unknown transaction, refunded in the Merchant Interface', async () => {
    const unknown = await inRefunds();
    anet.transactions.delete(unknown.transId);
    const elsewhere = await inRefunds();
    // Refunded in the Merchant Interface days ago (settled since, so no longer in the unsettled list).
    anet.transactions.set('70000000001', {
      transId: '70000000001',
      status: 'settledSuccessfully',
      amount: 89,
      cardLastFour: elsewhere.lastFour,
      transactionType: 'refundTransaction',
      refTransId: elsewhere.transId,
    });
    const good = await inRefunds();
    const res = await desk.refundIt([unknown.orderId, elsewhere.orderId, good.orderId]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      updated: [good.orderId],
      skipped: [
        {
          orderId: unknown.orderId,
          code: 'REFUND_FAILED',
          reason: expect.stringMatching(/Authorize\.Net has no transaction/),
        },
        {
          orderId: elsewhere.orderId,
          code: 'REFUND_FAILED',
          reason: expect.stringMatching(/already refunded .*nothing was refunded again/),
        },
      ],
    });
    expect((await desk.orderRow(unknown.orderId)).process_status).toBe('Refunds');
    expect((await desk.orderRow(elsewhere.orderId)).process_status).toBe('Refunds');
  });

  it('Authorize.Net unreachable: the order stays in Refunds, the gateway page says why, the next click refunds it', async () => {
    const order = await inRefunds();
    anet.failNext(503);
    const res = await desk.refundIt([order.orderId]);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/was not refunded: Authorize\.Net could not be reached \(HTTP 503\)/);
    expect((await desk.orderRow(order.orderId)).process_status).toBe('Refunds');
    const health = (await t.app.inject({ url: '/api/admin/payment-gateways/health', headers: as(admin.token) })).json<{
      data: GatewayHealth[];
    }>().data;
    expect(health.find((g) => g.gateway_name === 'Authorize.Net')!.lastError).toMatch(/HTTP 503/);
    expect((await desk.refundIt([order.orderId])).statusCode).toBe(200);
    expect((await desk.orderRow(order.orderId)).process_status).toBe('Refund Completed');
  });

  it('wrong credentials are a retryable refusal that names no secret', async () => {
    const gateway = new AuthorizeNetGateway({ loginId: anet.loginId, transactionKey: 'not-the-key', apiUrl: anet.url });
    const result = await gateway.refund({ transactionId: '1', chargeId: null }, 'refund-ETA-000000001');
    expect(result).toEqual({
      ok: false,
      reason: 'Authorize.Net: User authentication failed due to invalid authentication values. (E00007)',
      retry: true,
    });
  });

  it('answers arrive with a BOM, and the SDK’s loggers are not kept once a call is over', async () => {
    const raw = await fetch(`${anet.url}/xml/v1/request.api`, { method: 'POST', body: '{}' });
    expect(new Uint8Array(await raw.arrayBuffer()).subarray(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    const winston = createRequire(createRequire(import.meta.url).resolve('authorizenet'))('winston') as {
      loggers: { loggers: Map<string, unknown> };
    };
    const before = winston.loggers.loggers.size;
    const order = await inRefunds();
    expect((await desk.refundIt([order.orderId])).statusCode).toBe(200);
    expect(winston.loggers.loggers.size).toBe(before);
  });
});

describe('the gateway page', () => {
  it('shows Authorize.Net configured for refunds only, with no dispute API, and never a secret', async () => {
    const res = await t.app.inject({ url: '/api/admin/payment-gateways/health', headers: as(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(anet.transactionKey);
    const anetHealth = res.json<{ data: GatewayHealth[] }>().data.find((g) => g.gateway_name === 'Authorize.Net');
    expect(anetHealth).toMatchObject({
      configured: true,
      verifiesPayments: false,
      refunds: true,
      disputes: false,
      webhookUrl: null,
      note: expect.stringMatching(/no dispute API: chargebacks are answered in its Merchant Interface/),
    });
  });
});
