// Customers' requests (issue 24): a subject-access export by e-mail address holds that person's orders with their
// mails, downloads and remarks and nobody else's, as JSON and as a readable PDF; an erasure request erases their
// orders at once, skipping legal holds with the reason, and is refused while a dispute is open; all Admin-only and
// audited under a keyed hash of the e-mail.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErasureResult, SubjectSummary } from '@eta/contracts';
import type { NewOrder } from '../src/db/schema.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { pdfPages } from './helpers/pdf-files.js';
import { appKeyring } from './helpers/personal-data.js';
import { auditRowsMentioning } from './helpers/audit-mentions.js';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let manager: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn('Admin', 'Ada Admin');
  manager = await t.signIn('Manager', 'Max Manager');
});
afterAll(() => t.close());

const GRACE = 'grace.hopper@customer.test';
const ALAN = 'alan.turing@customer.test';
const EMMY = 'emmy.noether@customer.test';

async function orderOf(email: string, overrides: Partial<NewOrder> = {}, extras = true) {
  const db = t.database.db;
  const orderId = await insertOrder(db, { email, passport_number: 'P7654321', ...overrides });
  const { id } = await db.selectFrom('orders').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow();
  if (extras) {
    await db
      .insertInto('mails')
      .values({
        order_id: id,
        kind: 'approval',
        to_address: email,
        subject: `Your Canada eTA is approved - order ${orderId}`,
        html: '<p>approved</p>',
        text: 'approved',
        provider: 'Sendgrid',
        state: 'sent',
      })
      .execute();
    await db.insertInto('downloads').values({ order_id: id, ip: '203.0.113.9', browser: 'Firefox 133' }).execute();
    await db
      .insertInto('remarks')
      .values({
        order_id: id,
        staff_id: admin.id,
        remark_name: admin.name,
        remark: `Spoke to the customer about ${orderId}`,
      })
      .execute();
  }
  return { orderId, id };
}

const post = (url: string, payload: object, token = admin.token) =>
  t.app.inject({ method: 'POST', url, headers: { authorization: token }, payload });

describe('a subject-access request', () => {
  let graceOrders: { orderId: string; id: number }[];
  let alanOrder: { orderId: string; id: number };

  beforeAll(async () => {
    graceOrders = [
      await orderOf(GRACE, { passport_first_name: 'Grace', passport_surname: 'Hopper' }),
      await orderOf('Grace.Hopper@Customer.test', { passport_first_name: 'Grace', passport_surname: 'Hopper' }, false),
    ];
    alanOrder = await orderOf(ALAN, { passport_first_name: 'Alan', passport_surname: 'Turing' });
  });

  it('summarises every order of that e-mail address (any case) with its mails, downloads and remarks', async () => {
    const res = await post('/api/admin/subject-requests/summary', { email: ' GRACE.hopper@customer.test ' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{ data: SubjectSummary }>().data;
    expect(data.orders.map((o) => o.orderId).sort()).toEqual(graceOrders.map((o) => o.orderId).sort());
    expect(data.orders.find((o) => o.orderId === graceOrders[0]!.orderId)).toMatchObject({
      mails: 1,
      downloads: 1,
      remarks: 1,
    });
    expect(data.erasureRefusal).toBeUndefined();
  });

  it('exports JSON with the orders, mails, downloads and remarks of that e-mail only, audited by its hash', async () => {
    const res = await post('/api/admin/subject-requests/export.json', { email: GRACE });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="subject-access-.*\.json"$/);
    const doc = res.json<{
      request: { email: string; orderCount: number };
      orders: {
        orderId: string;
        details: {
          passport_number?: string;
          mailHistory: { subject: string }[];
          downloadHistory: { ip: string }[];
          remark: { remark: string }[];
        };
      }[];
    }>();
    expect(doc.request).toMatchObject({ email: GRACE, orderCount: 2 });
    const first = doc.orders.find((o) => o.orderId === graceOrders[0]!.orderId)!;
    expect(first.details.passport_number).toBe('P7654321');
    expect(first.details.mailHistory[0]?.subject).toContain(graceOrders[0]!.orderId);
    expect(first.details.downloadHistory[0]?.ip).toBe('203.0.113.9');
    expect(first.details.remark[0]?.remark).toContain(graceOrders[0]!.orderId);
    expect(res.body).not.toContain(alanOrder.orderId);
    expect(res.body).not.toContain(ALAN);
    expect(res.body).not.toContain('Turing');

    // Audited under a keyed hash of the address (HMAC under the search key), never the address or its plain
    // SHA-256, which anyone with a list of candidate addresses could reverse.
    const keyed = `hmac:${(await appKeyring(t)).keyedHash(`email:${GRACE}`).toString('hex')}`;
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['actor_name', 'target', 'after'])
      .where('action', '=', 'subject.access')
      .where('target', '=', keyed)
      .execute();
    expect(audit.map((a) => (a.after as { format: string }).format)).toEqual(
      expect.arrayContaining(['summary', 'json']),
    );
    expect(await auditRowsMentioning(t.database.db, GRACE)).toBe(0);
    expect(await auditRowsMentioning(t.database.db, createHash('sha256').update(GRACE).digest('hex'))).toBe(0);
  });

  it('exports a readable PDF of the same', async () => {
    const res = await post('/api/admin/subject-requests/export.pdf', { email: GRACE });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = (await pdfPages(res.rawPayload)).join('\n');
    expect(text).toContain('Personal data we hold');
    for (const o of graceOrders) expect(text).toContain(o.orderId);
    expect(text).toContain('Spoke to the customer about');
    expect(text).toContain('203.0.113.9');
    expect(text).not.toContain(alanOrder.orderId);
    if (process.env.RETENTION_PDF_DIR) {
      await writeFile(path.join(process.env.RETENTION_PDF_DIR, 'subject-access.pdf'), res.rawPayload);
    }
  });

  it('is for Admins only', async () => {
    for (const url of [
      '/api/admin/subject-requests/summary',
      '/api/admin/subject-requests/export.json',
      '/api/admin/subject-requests/export.pdf',
    ]) {
      const res = await post(url, { email: GRACE }, manager.token);
      expect(res.statusCode, url).toBe(403);
    }
    const erase = await post('/api/admin/subject-requests/erase', { email: GRACE, confirm: true }, manager.token);
    expect(erase.statusCode).toBe(403);
  });
});

describe('an erasure request', () => {
  it('is refused with the reason while a dispute is open, and erases nothing', async () => {
    const calm = await orderOf(EMMY);
    const disputed = await orderOf(EMMY, { process_status: 'ChargeBack' });
    const stripe = await t.database.db
      .selectFrom('gateways')
      .select('id')
      .where('gateway_name', '=', 'Stripe')
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto('disputes')
      .values({
        order_id: disputed.id,
        gateway_id: stripe.id,
        dispute_id: 'dp_subject_1',
        reason: 'fraudulent',
        amount_cents: 8900,
        currency: 'USD',
        status: 'needs_response',
      })
      .execute();

    const summary = await post('/api/admin/subject-requests/summary', { email: EMMY });
    expect(summary.json<{ data: SubjectSummary }>().data.erasureRefusal).toContain('dp_subject_1');

    const res = await post('/api/admin/subject-requests/erase', { email: EMMY, confirm: true });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'DISPUTE_OPEN' });
    expect(res.json<{ message: string }>().message).toContain(disputed.orderId);
    for (const o of [calm, disputed]) {
      const row = await t.database.db
        .selectFrom('orders')
        .select(['erased_at', 'passport_number'])
        .where('id', '=', o.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ erased_at: null, passport_number: 'P7654321' });
    }
    const refusal = await t.database.db
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'subject.erasure')
      .executeTakeFirstOrThrow();
    expect(refusal.after).toMatchObject({ erasure: 'refused' });
  });

  it('needs a confirmation', async () => {
    const res = await post('/api/admin/subject-requests/erase', { email: GRACE });
    expect(res.statusCode).toBe(400);
  });

  it("erases that person's orders at once, skipping a legal hold with the reason", async () => {
    const a = await orderOf('kurt.goedel@customer.test');
    const b = await orderOf('kurt.goedel@customer.test');
    const hold = await post('/api/admin/legal-hold', { orderId: b.orderId, reason: 'Court order 17/2026' });
    expect(hold.statusCode, hold.body).toBe(200);

    const res = await post('/api/admin/subject-requests/erase', { email: 'kurt.goedel@customer.test', confirm: true });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{ data: ErasureResult }>().data;
    expect(data.erased).toEqual([a.orderId]);
    expect(data.skipped).toEqual([
      expect.objectContaining({
        orderId: b.orderId,
        code: 'LEGAL_HOLD',
        reason: expect.stringContaining('Court order'),
      }),
    ]);
    const erased = await t.database.db
      .selectFrom('orders')
      .select(['erased_at', 'passport_number', 'email'])
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(erased).toMatchObject({ passport_number: null, email: '' });
    expect(erased.erased_at).not.toBeNull();
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('order_id', '=', a.id)
      .where('action', '=', 'order.erase')
      .executeTakeFirstOrThrow();
    expect(audit.after).toMatchObject({ cause: 'request' });

    // The held order is all that is left under that address.
    const again = await post('/api/admin/subject-requests/summary', { email: 'kurt.goedel@customer.test' });
    expect(again.json<{ data: SubjectSummary }>().data.orders.map((o) => o.orderId)).toEqual([b.orderId]);
  });
});
