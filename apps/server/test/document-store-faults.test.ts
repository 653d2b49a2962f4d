// A document store that fails (issue 32), through the real app with DOCUMENTS_STORE=s3 and the real SDK against a
// loopback S3 that answers 500 or never answers: an upload is a 503 within a bound that says what to do and leaves
// nothing half-done (the order as it was, no document row, no mail, no audit line, no object in the bucket); a
// defence pack, a staff's look at a signature and a customer's download are a 503 in words, never a 500 with a stack,
// and a download that fails is not logged as one; a landing site's order with its signature is a 503 to retry. Once
// the bucket answers again, the same calls work.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { TRACK_PROOF_HEADER } from '@eta/contracts';
import { loadConfig } from '../src/lib/config.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { INTAKE_TRAVELLER, TRAVELLER, approvalPdf, uploadRequest } from './helpers/uploads.js';
import { auditRowsMentioning } from './helpers/audit-mentions.js';
import { LOOPBACK_CREDENTIALS, startLoopbackS3, type LoopbackS3, type S3Fault } from './helpers/loopback-s3.js';

/** S3_TIMEOUT_MS here: a bucket that hangs is given up after two silences of this. */
const TIMEOUT_MS = 300;
/** What an answer may take at most when the bucket hangs: two tries, and room for a busy machine. */
const HANG_BOUND_MS = 2 * TIMEOUT_MS + 2_000;

let s3: LoopbackS3;
let t: TestApp;
let staff: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  s3 = await startLoopbackS3();
  vi.stubEnv('AWS_ACCESS_KEY_ID', LOOPBACK_CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', LOOPBACK_CREDENTIALS.secretAccessKey);
  const { documentsStore, s3: s3Config } = loadConfig({ ...s3.env, S3_TIMEOUT_MS: String(TIMEOUT_MS) });
  t = await buildTestApp({ documentsStore, s3: s3Config });
  staff = await t.signIn('Team', 'Uma Uploader');
});
afterAll(async () => {
  await t.close();
  await s3.close();
  vi.unstubAllEnvs();
});
beforeEach(() => s3.fail(null));

const FAULTS: [string, S3Fault][] = [
  ['answers 500', { answer: 'error' }],
  ['never answers', { answer: 'hang' }],
];

/** The approval of the order's traveller: a test order's (helpers/orders.ts), or an intake's (`from: 'intake'`). */
async function upload(orderId: string, email = `${orderId.toLowerCase()}@mail.test`, from: 'test' | 'intake' = 'test') {
  const approval = await approvalPdf(from === 'intake' ? INTAKE_TRAVELLER : TRAVELLER);
  const form = await uploadRequest(
    { orderId, email, mailServiceProvider: 'AWS' },
    { name: 'approval.pdf', content: approval, type: 'application/pdf' },
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    headers: { ...form.headers, authorization: staff.token },
    payload: form.payload,
  });
}

/** Runs `call` and says how long it took. */
async function timed(call: () => Promise<LightMyRequestResponse>) {
  const started = Date.now();
  const res = await call();
  return { res, ms: Date.now() - started };
}

/** The store's 503: Retry-After, the code, the words given, and nothing of the code's insides. */
function expectStoreUnavailable(res: LightMyRequestResponse, message: RegExp) {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.headers['retry-after']).toBe('30');
  expect(res.json()).toEqual({
    status: 0,
    code: 'DOCUMENT_STORE_UNAVAILABLE',
    message: expect.stringMatching(message),
  });
  expect(res.body).not.toMatch(/stack|InternalError|TimeoutError|at .*\.js/);
}

/** What the database holds of an order and its document, mails and downloads. */
async function orderState(orderId: string) {
  const db = t.database.db;
  const order = await db
    .selectFrom('orders')
    .select(['id', 'process_status', 'version', 'processed_by'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  const count = async (table: 'documents' | 'mails' | 'downloads') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('order_id', '=', order.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    process_status: order.process_status,
    version: order.version,
    processed_by: order.processed_by,
    documents: await count('documents'),
    mails: await count('mails'),
    downloads: await count('downloads'),
  };
}

/** An order with a signature (from a landing site) and an approved document, both in the bucket. */
async function completedOrder(email: string): Promise<string> {
  const posted = await postIntake(t, await createIntakeKey(t), application({ email }));
  expect(posted.statusCode, posted.body).toBe(201);
  const orderId = posted.json<{ data: { order_id: string } }>().data.order_id;
  const uploaded = await upload(orderId, email, 'intake');
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  return orderId;
}

describe.each(FAULTS)('an upload while S3 %s', (_, fault) => {
  it('is a 503 within the bound saying nothing changed, and nothing did; once S3 answers it goes through', async () => {
    const orderId = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: staff.id });
    const before = await orderState(orderId);
    const keysBefore = await s3.listKeys();

    s3.fail(fault);
    const { res, ms } = await timed(() => upload(orderId));
    expectStoreUnavailable(
      res,
      new RegExp(
        `^The document store is not answering, so the document was not stored and order ${orderId} was not ` +
          'changed \\(no mail was sent\\)\\. Please upload it again in a minute',
      ),
    );
    expect(ms).toBeLessThan(HANG_BOUND_MS);
    expect(await orderState(orderId)).toEqual(before);
    expect(before).toMatchObject({ process_status: 'Pending', documents: 0, mails: 0 });
    expect(await auditRowsMentioning(t.database.db, orderId)).toBe(0);
    expect(await s3.listKeys()).toEqual(keysBefore);

    // What the message says to do works.
    s3.fail(null);
    const again = await upload(orderId);
    expect(again.statusCode, again.body).toBe(200);
    expect(await orderState(orderId)).toMatchObject({ process_status: 'Completed', documents: 1, mails: 1 });
  });
});

describe.each(FAULTS)("a landing site's order while S3 %s", (_, fault) => {
  it('is a 503 with Retry-After and no order; the same request is taken once S3 answers', async () => {
    const key = await createIntakeKey(t);
    const email = `intake.${fault.answer}@example.com`;
    const idempotencyKey = `store-fault-${fault.answer}`;
    s3.fail(fault);
    const started = Date.now();
    const refused = await postIntake(t, key, application({ email }), idempotencyKey);
    expect(Date.now() - started).toBeLessThan(HANG_BOUND_MS);
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.body).not.toMatch(/stack|InternalError|TimeoutError/);
    const stored = () => t.database.db.selectFrom('orders').select('order_id').where('email', '=', email).execute();
    expect(await stored()).toEqual([]);

    s3.fail(null);
    const taken = await postIntake(t, key, application({ email }), idempotencyKey);
    expect(taken.statusCode, taken.body).toBe(201);
    expect(await stored()).toHaveLength(1);
  });
});

describe('an upload whose write lands in S3 but whose answer never comes', () => {
  it('is a 503, and the object that landed is removed: no row names it, none is left in the bucket', async () => {
    const orderId = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: staff.id });
    const keysBefore = await s3.listKeys();
    s3.fail({ answer: 'hang-after-storing', methods: ['PUT'] });
    const { res, ms } = await timed(() => upload(orderId));
    expectStoreUnavailable(res, /^The document store is not answering, so the document was not stored/);
    expect(ms).toBeLessThan(HANG_BOUND_MS);
    expect(await orderState(orderId)).toMatchObject({ process_status: 'Pending', version: 1, documents: 0, mails: 0 });
    // It did land; its removal follows the answer.
    const written = s3.requests
      .filter((r) => r.method === 'PUT')
      .at(-1)!
      .url.split('?')[0]!;
    await expect.poll(() => s3.listKeys(), { timeout: 5_000 }).toEqual(keysBefore);
    expect(s3.requests.some((r) => r.method === 'DELETE' && r.url.split('?')[0] === written)).toBe(true);
  });
});

describe.each(FAULTS)('reading documents while S3 %s', (_, fault) => {
  it('refuses a defence pack in words, and makes it once S3 answers', async () => {
    const orderId = await completedOrder('pack.reader@example.com');
    const pack = (url: string) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: staff.token },
        payload: { orderId, defencePackType: 1 },
      });
    s3.fail(fault);
    for (const url of ['/api/admin/get-defence-pack-pdf', '/api/admin/defence-pack-details']) {
      const { res, ms } = await timed(() => pack(url));
      expectStoreUnavailable(
        res,
        /^The defence pack cannot be made now: the document store, which holds the signature and the approved document it shows, is not answering\. Please try again in a minute/,
      );
      expect(ms).toBeLessThan(url.endsWith('pdf') ? 2 * HANG_BOUND_MS : HANG_BOUND_MS);
    }
    s3.fail(null);
    const made = await pack('/api/admin/get-defence-pack-pdf');
    expect(made.statusCode, made.body).toBe(200);
    expect(made.headers['content-type']).toBe('application/pdf');
  });

  it("refuses a staff's look at a signature in words", async () => {
    const orderId = await completedOrder('signature.viewer@example.com');
    s3.fail(fault);
    const { res, ms } = await timed(() =>
      t.app.inject({ url: `/api/admin/order-signature/${orderId}`, headers: { authorization: staff.token } }),
    );
    expectStoreUnavailable(
      res,
      new RegExp(`^The signature of order ${orderId} cannot be shown now: the document store is not answering`),
    );
    expect(ms).toBeLessThan(HANG_BOUND_MS);
  });

  it('tells the customer on the page, and a link opened meanwhile fails in words, logging no download', async () => {
    const email = 'portal.customer@example.com';
    const orderId = await completedOrder(email);
    const tracked = await t.app.inject({ method: 'POST', url: '/api/front/track-order', payload: { orderId, email } });
    expect(tracked.statusCode, tracked.body).toBe(200);
    const proof = tracked.json<{ data: { proof: string } }>().data.proof;
    const prepare = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/front/download-passport-doc-pdf',
        payload: { orderId, customername: 'Ada Lovelace', file1: `eTA-${orderId}.pdf` },
        headers: { [TRACK_PROOF_HEADER]: proof },
      });
    const link = await prepare();
    expect(link.statusCode, link.body).toBe(200);
    const url = link.json<{ data: { url: string } }>().data.url;

    s3.fail(fault);
    const customerWords =
      /^Your eTA cannot be downloaded right now because of a problem on our side\. Please try again in a few minutes/;
    const prepared = await timed(prepare);
    expectStoreUnavailable(prepared.res, customerWords);
    expect(prepared.ms).toBeLessThan(HANG_BOUND_MS);
    const opened = await timed(() => t.app.inject({ url, remoteAddress: '8.8.8.8' }));
    expectStoreUnavailable(opened.res, customerWords);
    expect(opened.ms).toBeLessThan(HANG_BOUND_MS);
    expect(await orderState(orderId)).toMatchObject({ downloads: 0 });

    s3.fail(null);
    const file = await t.app.inject({ url, remoteAddress: '8.8.8.8' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(await orderState(orderId)).toMatchObject({ downloads: 1 });
  });
});
