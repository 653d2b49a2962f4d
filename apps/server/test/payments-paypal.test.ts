// PayPal for real (issue 21): the official server SDK and the adapter's REST calls against a loopback stand-in of
// PayPal's API. Captures claimed at intake are checked before the order is queued, webhooks are verified by PayPal
// (verify-webhook-signature) before they move an order into ChargeBack once, refunds go through PayPal with the
// order's PayPal-Request-Id, and a chargeback's evidence is sent as PayPal's multipart with the defence pack.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { extractText } from 'unpdf';
import type { GatewayHealth } from '@eta/contracts';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { deskReads } from './helpers/payments.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { paypalDispute, paypalEvent, startPayPalStandIn, type PayPalStandIn } from './helpers/paypal-stand-in.js';
import { loadConfig } from '../src/lib/config.js';

let paypal: PayPalStandIn;
let t: TestApp;
let key: string;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let desk: ReturnType<typeof deskReads>;
let capture = 0;

beforeAll(async () => {
  paypal = await startPayPalStandIn();
  const payments = loadConfig({
    PAYPAL_CLIENT_ID: paypal.clientId,
    PAYPAL_CLIENT_SECRET: paypal.clientSecret,
    PAYPAL_WEBHOOK_ID: paypal.webhookId,
    PAYPAL_API_URL: paypal.url,
  }).payments;
  t = await buildTestApp({ payments, intakeRatePerSecond: 1000, publicUrl: 'https://desk.example.com' });
  key = await createIntakeKey(t);
  admin = await t.signIn('Admin', 'PayPal Admin');
  desk = deskReads(t, admin.token);
});
afterAll(async () => {
  await t.close();
  await paypal.close();
});
beforeEach(() => {
  paypal.requests.length = 0;
});

const as = (token: string) => ({ authorization: token });
/** A capture the stand-in knows, completed (by default) for the example's 89.00 USD. */
function paidCapture(
  fields: Partial<{ status: 'COMPLETED' | 'PENDING' | 'DECLINED'; value: string; currency: string }> = {},
) {
  capture += 1;
  const id = `8PP${capture}${Date.now()}`.slice(0, 17);
  paypal.captures.set(id, {
    id,
    status: fields.status ?? 'COMPLETED',
    value: fields.value ?? '89.00',
    currency: fields.currency ?? 'USD',
  });
  return paypal.captures.get(id)!;
}

async function orderPaidBy(captureId: string, amountCents = 8900) {
  const body = application();
  const res = await postIntake(t, key, {
    ...body,
    payment: { ...(body.payment as object), gateway: 'PayPal', transaction_id: captureId, amount_cents: amountCents },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: { order_id: string; payment: { status: string; verified: boolean; message: string } } }>()
    .data;
}

const webhook = (body: string, headers: Record<string, string> | null = paypal.sign(body)) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/paypal',
    headers: { 'content-type': 'application/json', ...(headers ?? {}) },
    payload: body,
    remoteAddress: '173.0.82.126',
  });

/** A completed order paid through PayPal (verified at intake), as the desk would have delivered it. */
async function completedOrder() {
  const paid = paidCapture();
  const { order_id } = await orderPaidBy(paid.id);
  await t.database.db
    .updateTable('orders')
    .set({ process_status: 'Completed' })
    .where('order_id', '=', order_id)
    .execute();
  return { orderId: order_id, captureId: paid.id };
}

async function disputeOpened(orderId: string, captureId: string) {
  const disputeId = `PP-D-${orderId.slice(4)}`;
  const body = paypalEvent(
    'CUSTOMER.DISPUTE.CREATED',
    paypalDispute({ id: disputeId, captureId, dueBy: new Date(Date.now() + 10 * 86_400_000) }),
  );
  const res = await webhook(body);
  expect(res.statusCode, res.body).toBe(200);
  return { disputeId, body };
}

describe('a capture claimed at intake is checked with PayPal before the order is queued', () => {
  it('a completed capture of the same amount: Success, verified, asked with a Bearer token got by client credentials', async () => {
    const before = await desk.counts();
    const paid = paidCapture();
    const created = await orderPaidBy(paid.id);
    expect(created.payment).toMatchObject({ status: 'Success', verified: true });
    const token = paypal.requests.find((r) => r.path === '/v1/oauth2/token')!;
    expect(token.headers.authorization).toBe(
      `Basic ${Buffer.from(`${paypal.clientId}:${paypal.clientSecret}`).toString('base64')}`,
    );
    expect(token.body).toEqual({ grant_type: 'client_credentials' });
    const asked = paypal.requests.find((r) => r.method === 'GET')!;
    expect(asked.path).toBe(`/v2/payments/captures/${paid.id}`);
    expect(asked.headers.authorization).toMatch(/^Bearer A21AA/);
    expect(asked.headers['user-agent']).toMatch(/PayPal REST API TypeScript SDK/);
    expect(await desk.orderRow(created.order_id)).toMatchObject({ payment_status: 'Success', transaction_id: paid.id });
    expect((await desk.counts()).newOrdersCount).toBe(before.newOrdersCount + 1);
    expect((await desk.remarksOf(created.order_id))[0]).toMatchObject({
      remark_name: 'PayPal',
      remark: `PayPal: capture ${paid.id} completed.`,
    });

    // The token is kept until it expires: the next check asks for none.
    const issued = paypal.tokensIssued();
    await orderPaidBy(paidCapture().id);
    expect(paypal.tokensIssued()).toBe(issued);
  });

  it('amounts are read exactly from their decimal strings ("19.29" is 1929 cents, not 1928)', async () => {
    const created = await orderPaidBy(paidCapture({ value: '19.29' }).id, 1929);
    expect(created.payment).toMatchObject({ status: 'Success', verified: true });
  });

  it('another amount, a declined or pending capture or an unknown one keep the order out of the queues and say why', async () => {
    const before = await desk.counts();
    const cheaper = await orderPaidBy(paidCapture({ value: '1.00' }).id);
    expect(cheaper.payment).toMatchObject({ status: 'Pending', verified: false });
    expect(cheaper.payment.message).toMatch(/1\.00 USD, not 89\.00 USD/);
    const euros = await orderPaidBy(paidCapture({ currency: 'EUR' }).id);
    expect(euros.payment.status).toBe('Pending');
    const declined = await orderPaidBy(paidCapture({ status: 'DECLINED' }).id);
    expect(declined.payment).toMatchObject({ status: 'Failed', message: expect.stringMatching(/is DECLINED/) });
    const pending = await orderPaidBy(paidCapture({ status: 'PENDING' }).id);
    expect(pending.payment).toMatchObject({
      status: 'Pending',
      message: expect.stringMatching(/pending \(PENDING_REVIEW\)/),
    });
    expect((await desk.orderRow(pending.order_id)).payment_check_due_at).toBeInstanceOf(Date);
    const unknown = await orderPaidBy('0NOSUCHCAPTURE00');
    expect(unknown.payment).toMatchObject({ status: 'Failed', message: 'PayPal has no capture 0NOSUCHCAPTURE00.' });
    expect(await desk.counts()).toEqual(before);
    await sql`UPDATE orders SET payment_check_due_at = NULL WHERE order_id = ${pending.order_id}`.execute(
      t.database.db,
    );
  });

  it('PayPal unreachable (token or API): Pending now, a failed token is asked for again, the re-check settles it', async () => {
    // PayPal no longer takes the token the desk holds: that check cannot be made, and the token is dropped.
    paypal.revokeTokens();
    const first = await orderPaidBy(paidCapture().id);
    expect(first.payment).toMatchObject({ status: 'Pending', verified: false });
    expect(first.payment.message).toMatch(/PayPal could not be asked: .*HTTP 401.*checked again/);
    // The new token's request fails once; that failure does not stick to the calls after it.
    paypal.failNext(503);
    const second = await orderPaidBy(paidCapture().id);
    expect(second.payment.message).toMatch(/PayPal could not be asked: PayPal gave no token/);
    const issued = paypal.tokensIssued();
    const third = await orderPaidBy(paidCapture().id);
    expect(third.payment).toMatchObject({ status: 'Success', verified: true });
    expect(paypal.tokensIssued()).toBe(issued + 1);
    expect((await desk.health()).PayPal!.lastError).toMatch(/could not be asked/);

    for (const { order_id } of [first, second]) {
      await sql`UPDATE orders SET payment_check_due_at = now() - interval '1 second' WHERE order_id = ${order_id}`.execute(
        t.database.db,
      );
    }
    expect(await t.app.services.payments.recheckDuePayments()).toBe(2);
    expect(await desk.orderRow(first.order_id)).toMatchObject({
      payment_status: 'Success',
      payment_check_due_at: null,
    });
    expect(await desk.orderRow(second.order_id)).toMatchObject({
      payment_status: 'Success',
      payment_check_due_at: null,
    });
  });
});

describe('POST /api/webhooks/paypal', () => {
  it('a verified dispute opens ChargeBack with its facts; PayPal was asked with the headers, webhook id and the event as sent', async () => {
    const { orderId, captureId } = await completedOrder();
    const before = await desk.counts();
    const { disputeId, body } = await disputeOpened(orderId, captureId);
    const row = await desk.orderRow(orderId);
    expect(row.process_status).toBe('ChargeBack');
    expect(row.dispute_due_at).toBeInstanceOf(Date);
    expect((await desk.counts()).chargeBackCount).toBe(before.chargeBackCount + 1);
    const [dispute] = await desk.disputesOf(orderId);
    expect(dispute).toMatchObject({
      gateway_name: 'PayPal',
      dispute_id: disputeId,
      reason: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
      amount_cents: 8900,
      currency: 'USD',
      status: 'WAITING_FOR_SELLER_RESPONSE',
      outcome: null,
    });
    expect(dispute!.history[0]!.note).toMatch(
      /Chargeback opened at PayPal: MERCHANDISE_OR_SERVICE_NOT_RECEIVED, 89\.00 USD/,
    );
    const verify = paypal.requests.find((r) => r.path === '/v1/notifications/verify-webhook-signature')!;
    const sent = verify.body as Record<string, unknown>;
    expect(sent).toMatchObject({ auth_algo: 'SHA256withRSA', webhook_id: paypal.webhookId });
    expect(sent.webhook_event).toEqual(JSON.parse(body));
    // The event goes back byte for byte as it arrived.
    expect(verify.raw.toString('utf8')).toContain(`"webhook_event":${body}}`);
    expect(verify.headers.authorization).toMatch(/^Bearer /);
    expect((await desk.remarksOf(orderId)).at(-1)).toMatchObject({ remark_name: 'PayPal', chargeback: true });
  });

  it('an event PayPal does not verify (FAILURE) gets 400 and changes nothing; missing headers are refused without asking', async () => {
    const { orderId, captureId } = await completedOrder();
    const body = paypalEvent('CUSTOMER.DISPUTE.CREATED', paypalDispute({ id: 'PP-D-FORGED', captureId }));
    const signedForAnother = paypal.sign(body, 'WH-SOMEONE-ELSES');
    const tampered = paypal.sign(body.replace('89.00', '1.00'));
    for (const headers of [signedForAnother, tampered]) {
      const res = await webhook(body, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/PayPal did not verify it \(FAILURE\)/);
    }
    paypal.requests.length = 0;
    const { 'paypal-transmission-sig': _dropped, ...unsigned } = paypal.sign(body);
    const res = await webhook(body, unsigned);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/PAYPAL-TRANSMISSION-SIG header\(s\) are missing/);
    expect(paypal.requests.filter((r) => r.path.includes('verify-webhook-signature'))).toEqual([]);

    expect((await desk.orderRow(orderId)).process_status).toBe('Completed');
    expect(await desk.disputesOf(orderId)).toEqual([]);
    const stored = await t.database.db
      .selectFrom('gateway_events')
      .select('id')
      .where('event_id', '=', JSON.parse(body).id)
      .execute();
    expect(stored).toEqual([]);
    expect((await desk.health()).PayPal).toMatchObject({ lastWebhookVerified: false });
  });

  it('PayPal unreachable while verifying: 502 (PayPal sends it again), nothing changed, the error shown', async () => {
    const { orderId, captureId } = await completedOrder();
    const body = paypalEvent('CUSTOMER.DISPUTE.CREATED', paypalDispute({ id: `PP-D-LATER${capture}`, captureId }));
    const headers = paypal.sign(body);
    paypal.failNext(503);
    const res = await webhook(body, headers);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({
      code: 'GATEWAY_ERROR',
      message: expect.stringMatching(/could not be asked to verify a webhook/),
    });
    expect((await desk.health()).PayPal!.lastError).toMatch(/could not be asked to verify a webhook/);
    expect((await desk.orderRow(orderId)).process_status).toBe('Completed');
    expect((await webhook(body, headers)).statusCode).toBe(200);
    expect((await desk.orderRow(orderId)).process_status).toBe('ChargeBack');
  });

  it('a replayed event answers 200 duplicate and does nothing twice', async () => {
    const { orderId, captureId } = await completedOrder();
    const { body } = await disputeOpened(orderId, captureId);
    const replay = await webhook(body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect((await desk.disputesOf(orderId))[0]!.history).toHaveLength(1);
    expect((await desk.remarksOf(orderId)).filter((r) => r.chargeback)).toHaveLength(1);
  });

  it('updated, then resolved in the seller’s favour: won, with the history; the due date leaves the queue', async () => {
    const { orderId, captureId } = await completedOrder();
    const { disputeId } = await disputeOpened(orderId, captureId);
    const send = (type: string, fields: { status: string; outcome?: string }) =>
      webhook(paypalEvent(type, paypalDispute({ id: disputeId, captureId, ...fields })));
    expect((await send('CUSTOMER.DISPUTE.UPDATED', { status: 'UNDER_REVIEW' })).statusCode).toBe(200);
    expect(
      (await send('CUSTOMER.DISPUTE.RESOLVED', { status: 'RESOLVED', outcome: 'RESOLVED_SELLER_FAVOUR' })).statusCode,
    ).toBe(200);
    const [dispute] = await desk.disputesOf(orderId);
    expect(dispute).toMatchObject({ status: 'RESOLVED', outcome: 'won', outcome_at: expect.any(String) });
    expect(dispute!.history.map((h) => h.status)).toEqual(['WAITING_FOR_SELLER_RESPONSE', 'UNDER_REVIEW', 'RESOLVED']);
    expect((await desk.orderRow(orderId)).dispute_due_at).toBeNull();

    const lost = await completedOrder();
    const opened = await disputeOpened(lost.orderId, lost.captureId);
    await webhook(
      paypalEvent(
        'CUSTOMER.DISPUTE.RESOLVED',
        paypalDispute({
          id: opened.disputeId,
          captureId: lost.captureId,
          status: 'RESOLVED',
          outcome: 'RESOLVED_BUYER_FAVOUR',
        }),
      ),
    );
    expect((await desk.disputesOf(lost.orderId))[0]).toMatchObject({ outcome: 'lost' });
  });

  it('a refund made in PayPal moves the order to Refund Completed (its capture found by the "up" link); other events are ignored', async () => {
    const { orderId, captureId } = await completedOrder();
    const body = paypalEvent('PAYMENT.CAPTURE.REFUNDED', {
      id: '1RF12345AB6789012',
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '89.00' },
      links: [
        { href: 'https://api.paypal.com/v2/payments/refunds/1RF12345AB6789012', rel: 'self', method: 'GET' },
        { href: `https://api.paypal.com/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
    });
    expect((await webhook(body)).statusCode).toBe(200);
    expect(await desk.orderRow(orderId)).toMatchObject({
      process_status: 'Refund Completed',
      refund_id: '1RF12345AB6789012',
    });
    expect((await desk.remarksOf(orderId)).at(-1)!.remark).toMatch(/PayPal: capture \w+ refunded \(89\.00 USD\)/);

    const other = paypalEvent('CHECKOUT.ORDER.APPROVED', { id: '5O190127TN364715T' });
    const res = await webhook(other);
    expect(res.statusCode).toBe(200);
    const stored = await t.database.db
      .selectFrom('gateway_events')
      .select(['outcome', 'type'])
      .where('event_id', '=', JSON.parse(other).id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ outcome: 'ignored', type: 'CHECKOUT.ORDER.APPROVED' });
  });
});

describe('Refunded it, through PayPal', () => {
  async function inRefunds() {
    const order = await completedOrder();
    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Refunds' })
      .where('order_id', '=', order.orderId)
      .execute();
    return order;
  }

  it('refunds with PayPal-Request-Id refund-<order>; refused refunds stay in Refunds with the reason; a retry gets the same refund', async () => {
    const good = await inRefunds();
    const disputed = await inRefunds();
    paypal.refuseRefund(
      disputed.captureId,
      'TRANSACTION_DISPUTED',
      'Partial refunds cannot be offered at this time because there is an open case on this transaction.',
    );
    const res = await desk.refundIt([good.orderId, disputed.orderId]);
    expect(res.statusCode, res.body).toBe(200);
    const refunds = paypal.requests.filter((r) => r.path.endsWith('/refund'));
    expect(refunds.map((r) => [r.path, r.headers['paypal-request-id']])).toEqual([
      [`/v2/payments/captures/${good.captureId}/refund`, `refund-${good.orderId}`],
      [`/v2/payments/captures/${disputed.captureId}/refund`, `refund-${disputed.orderId}`],
    ]);
    expect(refunds[0]!.body).toEqual({});
    expect(res.json().data).toMatchObject({
      updated: [good.orderId],
      skipped: [
        {
          orderId: disputed.orderId,
          code: 'REFUND_FAILED',
          reason: expect.stringMatching(/disputed; answer the dispute/),
        },
      ],
    });
    const refunded = await desk.orderRow(good.orderId);
    expect(refunded).toMatchObject({ process_status: 'Refund Completed', refund_id: expect.stringMatching(/RF/) });
    expect((await desk.orderRow(disputed.orderId)).process_status).toBe('Refunds');

    // A retried click after a crash between PayPal and the desk: the same PayPal-Request-Id answers the first refund.
    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Refunds' })
      .where('order_id', '=', good.orderId)
      .execute();
    expect((await desk.refundIt([good.orderId])).statusCode).toBe(200);
    expect((await desk.orderRow(good.orderId)).refund_id).toBe(refunded.refund_id);
  });

  it('a capture already refunded elsewhere is refused as such; PayPal down leaves the order in Refunds to try again', async () => {
    const elsewhere = await inRefunds();
    paypal.refuseRefund(elsewhere.captureId, 'CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
    const down = await inRefunds();
    const res = await desk.refundIt([elsewhere.orderId]);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/PayPal: already refunded/);

    paypal.failNext(500);
    const again = await desk.refundIt([down.orderId]);
    expect(again.json().message).toMatch(/PayPal could not be reached/);
    expect((await desk.orderRow(down.orderId)).process_status).toBe('Refunds');
    expect((await desk.health()).PayPal!.lastError).toMatch(/could not be reached/);
    expect((await desk.refundIt([down.orderId])).statusCode).toBe(200);
    expect((await desk.orderRow(down.orderId)).process_status).toBe('Refund Completed');
  });
});

describe('Submit evidence to PayPal', () => {
  const submit = (orderId: string, body: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/disputes/${orderId}/evidence`,
      headers: as(admin.token),
      payload: body,
    });

  it('sends the evidence as multipart: an input JSON part and the defence pack PDF; a second submission is refused', async () => {
    const { orderId, captureId } = await completedOrder();
    const { disputeId } = await disputeOpened(orderId, captureId);
    paypal.requests.length = 0;
    const res = await submit(orderId, { defencePackType: 1, submit: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ evidence_state: 'submitted', evidence_by: 'PayPal Admin' });

    const sent = paypal.requests.find((r) => r.path === `/v1/customer/disputes/${disputeId}/provide-evidence`)!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.headers.authorization).toMatch(/^Bearer /);
    const input = sent.parts!.find((p) => p.name === 'input')!;
    expect(input.type).toBe('application/json');
    const { evidences } = JSON.parse(input.bytes.toString('utf8')) as {
      evidences: { evidence_type: string; notes: string }[];
    };
    expect(evidences.map((e) => e.evidence_type)).toEqual(['PROOF_FOR_SOFTWARE_OR_SERVICE_DELIVERED', 'RETURN_POLICY']);
    expect(evidences[0]!.notes).toContain(orderId);
    expect(evidences[0]!.notes).toMatch(
      /^Customer: .+ <applicant\.\w+@mail\.test>, purchase from IP 83\.45\.120\.17\./,
    );
    expect(evidences.every((e) => e.notes.length <= 2000)).toBe(true);
    const file = sent.parts!.find((p) => p.name === 'evidence-file')!;
    expect(file).toMatchObject({ type: 'application/pdf', filename: `defence-pack-1-${orderId}.pdf` });
    expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await extractText(new Uint8Array(file.bytes), { mergePages: true });
    expect(text).toContain(orderId);

    const again = await submit(orderId, { defencePackType: 2, submit: true });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'EVIDENCE_SUBMITTED' });
  });

  it('PayPal keeps no drafts: saving one is refused before anything is sent; a refusal by PayPal marks nothing', async () => {
    const { orderId, captureId } = await completedOrder();
    await disputeOpened(orderId, captureId);
    paypal.requests.length = 0;
    const draft = await submit(orderId, { defencePackType: 1, submit: false });
    expect(draft.statusCode).toBe(502);
    expect(draft.json().message).toMatch(/PayPal takes evidence only as final/);
    expect(paypal.requests).toEqual([]);

    paypal.refuseEvidence('NOT_ELIGIBLE_FOR_EVIDENCE');
    try {
      const res = await submit(orderId, { defencePackType: 1, submit: true });
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toMatch(/PayPal refused the evidence: NOT_ELIGIBLE_FOR_EVIDENCE/);
    } finally {
      paypal.refuseEvidence(null);
    }
    expect((await desk.disputesOf(orderId))[0]).toMatchObject({ evidence_state: null, evidence_at: null });
  });
});

describe('the gateway page', () => {
  it('shows PayPal configured with its webhook URL, and never a secret or a token', async () => {
    const res = await t.app.inject({ url: '/api/admin/payment-gateways/health', headers: as(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(paypal.clientSecret);
    expect(res.body).not.toContain('A21AA');
    const byName = Object.fromEntries(res.json<{ data: GatewayHealth[] }>().data.map((g) => [g.gateway_name, g]));
    expect(byName.PayPal).toMatchObject({
      configured: true,
      verifiesPayments: true,
      refunds: true,
      disputes: true,
      webhookUrl: 'https://desk.example.com/api/webhooks/paypal',
      note: null,
    });
  });
});
