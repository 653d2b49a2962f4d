// Retention and legal hold (issue 24): orders past their landing site's date are erased by the retention job (fields
// null, files gone, marked, audited), those on legal hold or under an open dispute are kept; a dry run reports and
// changes nothing; a run stopped after a batch is continued by the next and erases everything once; the policy and
// holds are Admin-only and audited; the detail page and the defence pack say the order was erased.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewOrder } from '../src/db/schema.js';
import type { DefencePackDetails, OrderDetails, RetentionOverview, RetentionRun } from '@eta/contracts';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { pdfPages, samplePdf, samplePng } from './helpers/pdf-files.js';
import { appDocumentStore, appKeyring, orderFieldsOf } from './helpers/personal-data.js';
import { OrderErasure } from '../src/modules/retention/erasure.js';
import { OrderEventsPublisher } from '../src/modules/events/order-events.publisher.js';
import { RetentionService } from '../src/modules/retention/retention.service.js';

let t: TestApp;
let store: LocalDocumentStore;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let manager: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  t = await buildTestApp({ retention: { batchSize: 2, staleAfterMs: 60_000 } });
  store = new LocalDocumentStore(path.join(t.config.dataDir, 'documents'));
  admin = await t.signIn('Admin', 'Ada Admin');
  manager = await t.signIn('Manager', 'Max Manager');
});
afterAll(() => t.close());

const YEAR_MS = 365 * 86_400_000;
const yearsAgo = (n: number) => new Date(Date.now() - n * YEAR_MS);
const dateYearsAgo = (n: number) => yearsAgo(n).toISOString().slice(0, 10);

/** An order with the personal data a customer gives, a signature, an approved document, a mail, a download, a remark. */
async function personalOrder(overrides: Partial<NewOrder> = {}, files: { signature?: string } = {}) {
  const db = t.database.db;
  const signature = files.signature ?? (await store.put(samplePng(), { extension: 'png' })).key;
  const orderId = await insertOrder(db, {
    process_status: 'Completed',
    passport_number: 'X1234567',
    confirm_passport_number: 'X1234567',
    birth_year: 1980,
    birth_month: 5,
    birth_date: 17,
    passport_first_name: 'Ada',
    passport_surname: 'Lovelace',
    street_name: '12 Analytical Row',
    city: 'London',
    telephone_number: '5550100',
    have_you_ever_committed_been_arrested: false,
    ip_address: '192.0.2.44',
    customer_sign: signature,
    created_at: yearsAgo(3),
    ...overrides,
  });
  const { id } = await db.selectFrom('orders').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow();
  const document = await store.put(await samplePdf(1, 'APPROVED'), { extension: 'pdf' });
  const doc = await db
    .insertInto('documents')
    .values({
      order_id: id,
      storage_key: document.key,
      original_name: 'eTA-Ada-Lovelace.pdf',
      content_type: 'application/pdf',
      size_bytes: document.size,
      sha256: document.sha256,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('mails')
    .values({
      order_id: id,
      kind: 'approval',
      to_address: 'ada@customer.test',
      subject: `Your Canada eTA is approved - order ${orderId}`,
      html: '<p>Dear Ada Lovelace</p>',
      text: 'Dear Ada Lovelace',
      provider: 'AWS',
      state: 'sent',
      document_id: doc.id,
    })
    .execute();
  await db.insertInto('downloads').values({ order_id: id, document_id: doc.id, ip: '198.51.100.23' }).execute();
  await db
    .insertInto('remarks')
    .values({ order_id: id, staff_id: admin.id, remark_name: admin.name, remark: 'Called Ada on +44 5550100' })
    .execute();
  const stripe = await db
    .selectFrom('gateways')
    .select('id')
    .where('gateway_name', '=', 'Stripe')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('gateway_events')
    .values({
      gateway_id: stripe.id,
      event_id: `evt_${orderId}`,
      type: 'charge.succeeded',
      payload: JSON.stringify({
        data: { object: { billing_details: { name: 'Ada Lovelace', email: 'ada@customer.test' } } },
      }),
      order_id: id,
      outcome: 'applied',
    })
    .execute();
  return { orderId, id, signature, document: document.key };
}

async function openDispute(orderKey: number, disputeId: string) {
  const stripe = await t.database.db
    .selectFrom('gateways')
    .select('id')
    .where('gateway_name', '=', 'Stripe')
    .executeTakeFirstOrThrow();
  await t.database.db
    .insertInto('disputes')
    .values({
      order_id: orderKey,
      gateway_id: stripe.id,
      dispute_id: disputeId,
      reason: 'fraudulent',
      amount_cents: 8900,
      currency: 'USD',
      status: 'needs_response',
    })
    .execute();
}

const orderRow = (orderId: string) =>
  t.database.db.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();

async function startRun(dryRun: boolean, token = admin.token): Promise<RetentionRun> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/retention/runs',
    headers: { authorization: token },
    payload: { dryRun },
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.services.retention.settled();
  const started = res.json<{ data: RetentionRun }>().data;
  // Dry runs are not waited for by `settled` (they never block one another): poll as the screen does.
  for (let i = 0; i < 100; i += 1) {
    const run = await t.app.inject({
      url: `/api/admin/retention/runs/${started.id}`,
      headers: { authorization: token },
    });
    const data = run.json<{ data: RetentionRun }>().data;
    if (data.state !== 'running') return data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the run did not finish');
}

const erasures = async (orderKey: number) =>
  (
    await t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('order_id', '=', orderKey)
      .where('action', '=', 'order.erase')
      .execute()
  ).length;

describe('the retention job', () => {
  let byTravel: Awaited<ReturnType<typeof personalOrder>>;
  let byOrderDate: Awaited<ReturnType<typeof personalOrder>>;
  let travelsLater: Awaited<ReturnType<typeof personalOrder>>;
  let held: Awaited<ReturnType<typeof personalOrder>>;
  let disputed: Awaited<ReturnType<typeof personalOrder>>;
  let sharesSignature: Awaited<ReturnType<typeof personalOrder>>;

  beforeAll(async () => {
    // Travelled three years ago: past 24 months after the travel date.
    byTravel = await personalOrder({ travel_to_canada_year: dateYearsAgo(3) });
    // No travel date: the order date decides.
    byOrderDate = await personalOrder();
    // Ordered three years ago but travels a month ago: kept, the travel date decides.
    travelsLater = await personalOrder({ travel_to_canada_year: dateYearsAgo(1 / 12) });
    held = await personalOrder();
    disputed = await personalOrder({ process_status: 'ChargeBack' });
    await openDispute(disputed.id, 'dp_retention_1');
    // Demo data shares one signature file between orders: it goes only with its last reference.
    sharesSignature = await personalOrder({}, { signature: travelsLater.signature });

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/legal-hold',
      headers: { authorization: admin.token },
      payload: { orderId: held.orderId, reason: 'Litigation: case 2026-114' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a legal hold is for Admins only, audited and shown on the order', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/legal-hold',
      headers: { authorization: manager.token },
      payload: { orderId: byTravel.orderId, reason: 'Just because' },
    });
    expect(refused.statusCode).toBe(403);
    const detail = await t.app.inject({
      url: `/api/admin/get-orders-details/${held.orderId}`,
      headers: { authorization: manager.token },
    });
    expect(detail.json<{ data: OrderDetails }>().data.legalHold).toMatchObject({
      heldBy: 'Ada Admin',
      reason: 'Litigation: case 2026-114',
    });
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['actor_name', 'after'])
      .where('order_id', '=', held.id)
      .where('action', '=', 'order.legal-hold')
      .executeTakeFirstOrThrow();
    expect(audit.actor_name).toBe('Ada Admin');
    expect(audit.after).toMatchObject({ reason: 'Litigation: case 2026-114' });
  });

  it('a dry run reports what would be erased per landing site and what is skipped and why, and changes nothing', async () => {
    const run = await startRun(true);
    expect(run).toMatchObject({ dryRun: true, state: 'finished', erased: 0 });
    const report = run.report!;
    const listed = report.orders.map((o) => o.orderId);
    expect(listed).toEqual(expect.arrayContaining([byTravel.orderId, byOrderDate.orderId, sharesSignature.orderId]));
    expect(listed).not.toContain(travelsLater.orderId);
    expect(report.skips).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ orderId: held.orderId, code: 'LEGAL_HOLD', site: 'default' }),
        expect.objectContaining({ orderId: disputed.orderId, code: 'DISPUTE_OPEN', site: 'default' }),
      ]),
    );
    expect(report.bySite.find((s) => s.site === 'default')).toMatchObject({ erased: 3, skipped: 2 });
    expect(report.orders.find((o) => o.orderId === byTravel.orderId)?.dueFrom).toBe(dateYearsAgo(3));

    // Nothing changed: the data, the files, no erasure audited.
    const row = await orderRow(byTravel.orderId);
    expect(row).toMatchObject({ passport_first_name: 'Ada', erased_at: null });
    expect(await store.exists(byTravel.document)).toBe(true);
    expect(await store.exists(byTravel.signature)).toBe(true);
    expect(await erasures(byTravel.id)).toBe(0);
  });

  it('Run now erases orders past their date: fields null, files gone, marked and audited; holds and disputes kept', async () => {
    const run = await startRun(false);
    expect(run).toMatchObject({ dryRun: false, state: 'finished', erased: 3, skipped: 2 });
    expect(run.filesDeleted).toBeGreaterThanOrEqual(5);

    for (const erased of [byTravel, byOrderDate, sharesSignature]) {
      const row = await orderRow(erased.orderId);
      expect(row.erased_at).not.toBeNull();
      expect(row).toMatchObject({
        passport_number: null,
        confirm_passport_number: null,
        birth_year: null,
        passport_first_name: null,
        passport_surname: null,
        street_name: null,
        city: null,
        telephone_number: null,
        have_you_ever_committed_been_arrested: null,
        ip_address: null,
        customer_sign: null,
        email: '',
        // Accounting keeps these.
        amount_cents: row.amount_cents,
        process_status: row.process_status,
        landing_site: 'default',
      });
      expect(await store.exists(erased.document)).toBe(false);
      expect(await erasures(erased.id)).toBe(1);
      const mail = await t.database.db
        .selectFrom('mails')
        .select(['to_address', 'html', 'subject', 'state'])
        .where('order_id', '=', erased.id)
        .executeTakeFirstOrThrow();
      expect(mail).toMatchObject({ to_address: '(erased)', html: '', state: 'sent' });
      expect(mail.subject).toContain(erased.orderId);
      const remark = await t.database.db
        .selectFrom('remarks')
        .select('remark')
        .where('order_id', '=', erased.id)
        .executeTakeFirstOrThrow();
      expect(remark.remark).not.toContain('5550100');
      const download = await t.database.db
        .selectFrom('downloads')
        .select('ip')
        .where('order_id', '=', erased.id)
        .executeTakeFirstOrThrow();
      expect(download.ip).toBe('(erased)');
      // The gateway's webhook no longer names the card holder; what it was and what it did stay.
      const event = await t.database.db
        .selectFrom('gateway_events')
        .select(['event_id', 'type', 'outcome', 'payload'])
        .where('order_id', '=', erased.id)
        .executeTakeFirstOrThrow();
      expect(event).toMatchObject({ event_id: `evt_${erased.orderId}`, type: 'charge.succeeded', outcome: 'applied' });
      expect(JSON.stringify(event.payload)).not.toMatch(/Lovelace|ada@customer/);
    }
    expect(await store.exists(byTravel.signature)).toBe(false);
    // The shared signature stays while another order names it.
    expect(await store.exists(travelsLater.signature)).toBe(true);

    for (const kept of [held, disputed, travelsLater]) {
      const row = await orderRow(kept.orderId);
      expect(row).toMatchObject({ erased_at: null, passport_number: 'X1234567', passport_first_name: 'Ada' });
      const event = await t.database.db
        .selectFrom('gateway_events')
        .select('payload')
        .where('order_id', '=', kept.id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(event.payload)).toContain('ada@customer.test');
      expect(await store.exists(kept.document)).toBe(true);
    }

    // Nothing left to find an erased order by: a part of the names or of the telephone number finds the kept orders
    // only (the search reads a text PostgreSQL keeps from those fields, migration 037).
    for (const searchVal of ['ovelac', 'ada lovel', '555010']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/search-order',
        headers: { authorization: admin.token },
        payload: { start: 0, end: 50, searchVal, folderName: 'orderHistory' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const found = res.json<{ data: { rows: { order_id: string }[] } }>().data.rows.map((r) => r.order_id);
      expect(found, searchVal).toEqual(expect.arrayContaining([held.orderId, travelsLater.orderId]));
      for (const erased of [byTravel, byOrderDate, sharesSignature])
        expect(found, searchVal).not.toContain(erased.orderId);
    }
  });

  it("the order detail page and the defence pack say the order's personal data was erased", async () => {
    const res = await t.app.inject({
      url: `/api/admin/get-orders-details/${byTravel.orderId}`,
      headers: { authorization: admin.token },
    });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json<{ data: OrderDetails }>().data;
    expect(detail.erasedAt).toBeDefined();
    expect(detail).not.toHaveProperty('passport_first_name');
    expect(detail.mailHistory[0]?.to).toBe('(erased)');

    const facts = await t.app.inject({
      method: 'POST',
      url: '/api/admin/defence-pack-details',
      headers: { authorization: admin.token },
      payload: { orderId: byTravel.orderId, defencePackType: 1 },
    });
    expect(facts.json<{ data: DefencePackDetails }>().data).toMatchObject({
      erasedAt: detail.erasedAt,
      sale: { customerName: '(erased)', customerEmail: '(erased)' },
    });
    const pdf = await t.app.inject({
      method: 'POST',
      url: '/api/admin/get-defence-pack-pdf',
      headers: { authorization: admin.token },
      payload: { orderId: byTravel.orderId, defencePackType: 1 },
    });
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfPages(pdf.rawPayload)).join('\n');
    expect(text).toContain('Personal data erased on');
    expect(text).toContain('deleted with the order');
    expect(text).not.toContain('Lovelace');
    if (process.env.RETENTION_PDF_DIR) {
      await writeFile(path.join(process.env.RETENTION_PDF_DIR, 'erased-defence-pack.pdf'), pdf.rawPayload);
    }
  });

  it('a released hold lets the next run erase the order; a closed dispute too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/legal-hold/release',
      headers: { authorization: admin.token },
      payload: { orderId: held.orderId },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.database.db
      .updateTable('disputes')
      .set({ outcome: 'won', status: 'won' })
      .where('order_id', '=', disputed.id)
      .execute();
    const run = await startRun(false);
    expect(run).toMatchObject({ state: 'finished', erased: 2, skipped: 0 });
    expect((await orderRow(held.orderId)).erased_at).not.toBeNull();
    expect((await orderRow(disputed.orderId)).erased_at).not.toBeNull();
    const released = await t.database.db
      .selectFrom('audit_log')
      .select('before')
      .where('order_id', '=', held.id)
      .where('action', '=', 'order.legal-hold-release')
      .executeTakeFirstOrThrow();
    expect(released.before).toMatchObject({ reason: 'Litigation: case 2026-114' });
  });

  it('nothing is delivered for an erased order: Resend is refused', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/resend-mail',
      headers: { authorization: admin.token },
      payload: { orderId: byOrderDate.orderId, email: 'someone@customer.test', mailServiceProvider: 'AWS' },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ORDER_ERASED' });
    const mails = await t.database.db.selectFrom('mails').select('id').where('order_id', '=', byOrderDate.id).execute();
    expect(mails).toHaveLength(1);
  });

  it('a hold cannot be placed on an erased order', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/legal-hold',
      headers: { authorization: admin.token },
      payload: { orderId: byTravel.orderId, reason: 'Too late' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ORDER_ERASED' });
  });
});

describe('a run stopped after a batch', () => {
  it('is continued by the next process from the order it reached, and erases every order once', async () => {
    const orders = [];
    for (let i = 0; i < 5; i += 1) orders.push(await personalOrder({ travel_to_canada_year: dateYearsAgo(4) }));

    // As if the process were killed after its first batch (2 orders): the run stays "running".
    const stopped = await t.app.services.retention.runNow(null, false, { stopAfterBatches: 1 });
    expect(stopped).toMatchObject({ state: 'running', erased: 2 });
    expect(stopped!.lastOrderKey).toBe(orders[1]!.id);
    // Its process is taken to be alive until its heartbeat is stale: nobody else starts or takes it over.
    expect(await t.app.services.retention.runDaily()).toBeUndefined();
    const busy = await t.app.inject({
      method: 'POST',
      url: '/api/admin/retention/runs',
      headers: { authorization: admin.token },
      payload: { dryRun: false },
    });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ code: 'RETENTION_RUNNING' });

    // The process died an hour ago: the daily job continues the same run.
    await t.database.db
      .updateTable('retention_runs')
      .set({ heartbeat_at: new Date(Date.now() - 3_600_000) })
      .where('id', '=', stopped!.id)
      .execute();
    const resumed = await t.app.services.retention.runDaily();
    expect(resumed).toMatchObject({ id: stopped!.id, state: 'finished', erased: 5, resumed: 1 });
    for (const order of orders) {
      expect((await orderRow(order.orderId)).erased_at).not.toBeNull();
      expect(await erasures(order.id)).toBe(1);
      expect(await store.exists(order.document)).toBe(false);
    }
    // The day has its run: the daily job does not start another.
    expect(await t.app.services.retention.runDaily()).toBeUndefined();
  });

  it("two servers asking for the day's run at once: one erases, the other leaves it", async () => {
    const orders = [];
    for (let i = 0; i < 3; i += 1) orders.push(await personalOrder({ travel_to_canada_year: dateYearsAgo(4) }));
    // A second server: its own service over the same database and store.
    const other = new RetentionService(
      t.database.db,
      new OrderErasure(
        t.database.db,
        await appDocumentStore(t),
        new OrderEventsPublisher(t.app.eventBus, t.database.db, () => {}),
      ),
      t.app.log,
      { batchSize: 2, staleAfterMs: 60_000 },
    );
    await t.database.db.deleteFrom('retention_runs').where('trigger', '=', 'daily').execute();
    const [mine, theirs] = await Promise.all([t.app.services.retention.runDaily(), other.runDaily()]);
    const worked = [mine, theirs].filter((run) => run !== undefined);
    expect(worked).toHaveLength(1);
    expect(worked[0]).toMatchObject({ state: 'finished', erased: 3 });
    for (const order of orders) expect(await erasures(order.id)).toBe(1);
  });

  it('a run taken over while its process paused is left to the one that took it: the paused one erases nothing more', async () => {
    const orders = [];
    for (let i = 0; i < 6; i += 1) orders.push(await personalOrder({ travel_to_canada_year: dateYearsAgo(4) }));
    const documents = await appDocumentStore(t);
    const events = new OrderEventsPublisher(t.app.eventBus, t.database.db, () => {});
    /** An erasure that stalls before its `nth` erasure (a long GC pause, a stopped VM) until released. */
    const stallingBefore = (nth: number) => {
      let calls = 0;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const stalled = new Promise<void>((resolve) => (reached = resolve));
      class StallingErasure extends OrderErasure {
        override async erase(...args: Parameters<OrderErasure['erase']>) {
          calls += 1;
          if (calls === nth) {
            reached();
            await gate;
          }
          return super.erase(...args);
        }
      }
      return { erasure: new StallingErasure(t.database.db, documents, events), stalled, release };
    };
    const options = { batchSize: 2, staleAfterMs: 60_000 };
    const a = stallingBefore(3);
    const b = stallingBefore(1);
    const first = new RetentionService(t.database.db, a.erasure, t.app.log, options).runNow(null, false);
    await a.stalled;
    // Silent past staleAfterMs: taken for dead, and another process takes the run over (and stalls in its turn).
    await t.database.db
      .updateTable('retention_runs')
      .set({ heartbeat_at: new Date(Date.now() - 3_600_000) })
      .where('state', '=', 'running')
      .execute();
    const second = new RetentionService(t.database.db, b.erasure, t.app.log, options).runNow(null, false);
    await b.stalled;
    // The first wakes while the second holds the run: its erasure finds the claim gone, and it stops writing.
    a.release();
    const left = await first;
    expect(left).toMatchObject({ state: 'running', resumed: 1 });
    b.release();
    const taken = await second;
    expect(taken).toMatchObject({ state: 'finished', resumed: 1, erased: orders.length });
    expect(await t.app.services.retention.run(taken!.id)).toEqual(taken);
    for (const order of orders) expect(await erasures(order.id)).toBe(1);
    expect(taken!.report!.orders.map((o) => o.orderId).sort()).toEqual(orders.map((o) => o.orderId).sort());
  });

  it('a dry run whose process ended is shown as stopped, not running for ever', async () => {
    const { id } = await t.database.db
      .insertInto('retention_runs')
      .values({
        dry_run: true,
        trigger: 'manual',
        cutoff_at: new Date(),
        heartbeat_at: new Date(Date.now() - 3_600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({ url: '/api/admin/retention', headers: { authorization: admin.token } });
    expect(res.json<{ data: RetentionOverview }>().data.runs.find((r) => r.id === id)).toMatchObject({
      state: 'failed',
      error: 'Stopped: its server process ended before the run did.',
    });
  });

  it('a file the store could not delete is deleted by the next run', async () => {
    const order = await personalOrder({ travel_to_canada_year: dateYearsAgo(4) });
    const failing = t.app.services.retention as unknown as { erasure: { store: { delete(k: string): Promise<void> } } };
    const realStore = failing.erasure.store;
    const original = realStore.delete.bind(realStore);
    realStore.delete = async () => {
      throw new Error('store unreachable');
    };
    try {
      const run = await t.app.services.retention.runNow(null, false);
      expect(run).toMatchObject({ erased: 1 });
      expect(run!.fileFailures).toBeGreaterThan(0);
    } finally {
      realStore.delete = original;
    }
    expect(await store.exists(order.document)).toBe(true);
    const next = await t.app.services.retention.runNow(null, false);
    expect(next!.filesDeleted).toBeGreaterThanOrEqual(2);
    expect(await store.exists(order.document)).toBe(false);
    expect(await store.exists(order.signature)).toBe(false);
  });
});

describe('the retention policy', () => {
  it('is shown per landing site, edited by an Admin only, and audited', async () => {
    const overview = await t.app.inject({ url: '/api/admin/retention', headers: { authorization: admin.token } });
    const data = overview.json<{ data: RetentionOverview }>().data;
    expect(data.policies.map((p) => [p.key, p.months])).toEqual(
      expect.arrayContaining([
        ['default', 24],
        ['eta-express', 24],
      ]),
    );
    expect(data.runs.length).toBeGreaterThan(0);

    const byManager = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/retention/policies/eta-express',
      headers: { authorization: manager.token },
      payload: { months: 36 },
    });
    expect(byManager.statusCode).toBe(403);
    const invalid = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/retention/policies/eta-express',
      headers: { authorization: admin.token },
      payload: { months: 0 },
    });
    expect(invalid.statusCode).toBe(400);

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/retention/policies/eta-express',
      headers: { authorization: admin.token },
      payload: { months: 60 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['before', 'after', 'actor_name'])
      .where('action', '=', 'retention.policy')
      .where('target', '=', 'eta-express')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      actor_name: 'Ada Admin',
      before: { personal_data_retention_months: 24 },
      after: { personal_data_retention_months: 60 },
    });

    // Four years after travel is within 60 months: the site's orders are no longer due.
    const kept = await personalOrder({ landing_site: 'eta-express', travel_to_canada_year: dateYearsAgo(4) });
    const run = await startRun(true);
    expect(run.report!.orders.map((o) => o.orderId)).not.toContain(kept.orderId);
  });
});

describe('an order stored encrypted', () => {
  it('is erased with its sealed fields, its passport hash and its encrypted files', async () => {
    const keyring = await appKeyring(t);
    const appStore = await appDocumentStore(t);
    const signature = await appStore.put(samplePng(), { extension: 'png' });
    const order = await personalOrder(
      { travel_to_canada_year: dateYearsAgo(5), passport_number: null, confirm_passport_number: null },
      { signature: signature.key },
    );
    const sealed = orderFieldsOf(keyring).seal(order.orderId, { passport_number: 'S9876543', birth_year: 1975 });
    // The hash travels as PostgreSQL's text form (backslash-x and hex); PGlite takes bytea parameters as bytes.
    const hmac = Buffer.from(sealed.passport_number_hmac!.slice(2), 'hex');
    await t.database.db
      .updateTable('orders')
      .set({ ...sealed, passport_number_hmac: hmac })
      .where('id', '=', order.id)
      .execute();
    const before = await orderRow(order.orderId);
    expect(before.personal_sealed).not.toBeNull();
    expect(before.passport_number_hmac).not.toBeNull();

    const run = await t.app.services.retention.runNow(null, false);
    expect(run).toMatchObject({ state: 'finished', erased: 1 });
    const after = await orderRow(order.orderId);
    expect(after).toMatchObject({ personal_sealed: null, passport_number_hmac: null, passport_number: null });
    expect(after.erased_at).not.toBeNull();
    expect(await appStore.exists(signature.key)).toBe(false);
    const detail = await t.app.inject({
      url: `/api/admin/get-orders-details/${order.orderId}`,
      headers: { authorization: admin.token },
    });
    expect(detail.json<{ data: OrderDetails }>().data).not.toHaveProperty('passport_number');
  });
});
