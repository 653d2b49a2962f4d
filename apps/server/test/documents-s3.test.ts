// Documents in S3 (issue 23) through the real app with DOCUMENTS_STORE=s3 against a loopback S3: a staff upload
// lands in the bucket with its sha256, the customer's portal download streams it back byte for byte and is logged,
// a landing site's signature is stored and shown from there, and nothing is written under DATA_DIR/documents.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TRACK_PROOF_HEADER } from '@eta/contracts';
import { loadConfig } from '../src/lib/config.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { samplePng } from './helpers/pdf-files.js';
import { INTAKE_TRAVELLER, approvalPdf, uploadRequest } from './helpers/uploads.js';
import { LOOPBACK_CREDENTIALS, startLoopbackS3, type LoopbackS3 } from './helpers/loopback-s3.js';

let s3: LoopbackS3;
let t: TestApp;
let staff: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  s3 = await startLoopbackS3();
  // Credentials reach the SDK as in production: its default provider chain, here from the environment.
  vi.stubEnv('AWS_ACCESS_KEY_ID', LOOPBACK_CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', LOOPBACK_CREDENTIALS.secretAccessKey);
  const { documentsStore, s3: s3Config } = loadConfig(s3.env);
  t = await buildTestApp({ documentsStore, s3: s3Config });
  staff = await t.signIn('Team', 'Uma Uploader');
});
afterAll(async () => {
  await t.close();
  await s3.close();
  vi.unstubAllEnvs();
});

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** Every file under DATA_DIR/documents, however deep (none: the folder is not even made). */
async function localDocumentFiles(): Promise<string[]> {
  const entries = await readdir(path.join(t.config.dataDir, 'documents'), { recursive: true }).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    },
  );
  return entries.map(String);
}

describe('DOCUMENTS_STORE=s3', () => {
  it('stores an uploaded approval in the bucket and the customer downloads it byte for byte', async () => {
    const email = 'ready@example.com';
    const orderId = await insertOrder(t.database.db, { email });
    const approval = await approvalPdf();
    const form = await uploadRequest(
      { orderId, email, mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
      { name: 'approval.pdf', content: approval, type: 'application/pdf' },
    );
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      headers: { ...form.headers, authorization: staff.token },
      payload: form.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);

    const row = await t.database.db
      .selectFrom('documents')
      .innerJoin('orders', 'orders.id', 'documents.order_id')
      .select(['storage_key', 'documents.sha256'])
      .where('orders.order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(row.sha256).toBe(sha256(approval));
    expect(await s3.listKeys()).toContain(row.storage_key);
    // Written encrypted, typed, and with the same sha256 the database recorded.
    const put = s3.requests.find(
      (r) => r.method === 'PUT' && r.url.split('?')[0] === `/${s3.bucket}/${row.storage_key}`,
    );
    expect(put?.headers).toMatchObject({
      'x-amz-server-side-encryption': 'AES256',
      'content-type': 'application/pdf',
      'x-amz-meta-sha256': row.sha256,
    });
    // The staff's HEAD check asks the bucket.
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/admin/order-document/${orderId}`,
      headers: { authorization: staff.token },
    });
    expect(head.statusCode).toBe(200);

    const tracked = await t.app.inject({ method: 'POST', url: '/api/front/track-order', payload: { orderId, email } });
    expect(tracked.statusCode, tracked.body).toBe(200);
    const proof = tracked.json<{ data: { proof: string } }>().data.proof;
    const prepared = await t.app.inject({
      method: 'POST',
      url: '/api/front/download-passport-doc-pdf',
      payload: { orderId, customername: 'Ada Lovelace', file1: `eTA-${orderId}.pdf` },
      headers: { [TRACK_PROOF_HEADER]: proof },
    });
    expect(prepared.statusCode, prepared.body).toBe(200);
    const file = await t.app.inject({
      url: prepared.json<{ data: { url: string } }>().data.url,
      remoteAddress: '8.8.8.8',
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(approval)).toBe(true);
    // Logged as with the local store: the download row and the audit line.
    const downloads = await t.database.db
      .selectFrom('downloads')
      .innerJoin('orders', 'orders.id', 'downloads.order_id')
      .select('ip')
      .where('orders.order_id', '=', orderId)
      .execute();
    expect(downloads).toEqual([{ ip: '8.8.8.8' }]);

    expect(await localDocumentFiles()).toEqual([]);
  });

  it("keeps a landing site's signature in the bucket and shows it on the order from there", async () => {
    const signature = samplePng();
    const key = await createIntakeKey(t);
    const posted = await postIntake(
      t,
      key,
      application({ signature: `data:image/png;base64,${signature.toString('base64')}` }),
    );
    expect(posted.statusCode, posted.body).toBe(201);
    const orderId = posted.json<{ data: { order_id: string } }>().data.order_id;
    const { customer_sign } = await t.database.db
      .selectFrom('orders')
      .select('customer_sign')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(await s3.listKeys()).toContain(customer_sign);

    const shown = await t.app.inject({
      url: `/api/admin/order-signature/${orderId}`,
      headers: { authorization: staff.token },
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.rawPayload.equals(signature)).toBe(true);
    expect(await localDocumentFiles()).toEqual([]);
  });

  it("deletes an erased order's signature and approved document from the bucket (issue 24)", async () => {
    const admin = await t.signIn('Admin', 'Erin Eraser');
    const email = 'erase.me@example.com';
    const posted = await postIntake(
      t,
      await createIntakeKey(t),
      application({ email, signature: `data:image/png;base64,${samplePng().toString('base64')}` }),
    );
    expect(posted.statusCode, posted.body).toBe(201);
    const orderId = posted.json<{ data: { order_id: string } }>().data.order_id;
    const form = await uploadRequest(
      { orderId, email, mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
      { name: 'approval.pdf', content: await approvalPdf(INTAKE_TRAVELLER), type: 'application/pdf' },
    );
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      headers: { ...form.headers, authorization: staff.token },
      payload: form.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { customer_sign, storage_key } = await t.database.db
      .selectFrom('orders')
      .innerJoin('documents', 'documents.order_id', 'orders.id')
      .select(['customer_sign', 'storage_key'])
      .where('orders.order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(await s3.listKeys()).toEqual(expect.arrayContaining([customer_sign, storage_key]));

    const erased = await t.app.inject({
      method: 'POST',
      url: '/api/admin/subject-requests/erase',
      headers: { authorization: admin.token },
      payload: { email, confirm: true },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json<{ data: { erased: string[] } }>().data.erased).toEqual([orderId]);
    const left = await s3.listKeys();
    expect(left).not.toContain(customer_sign);
    expect(left).not.toContain(storage_key);
    expect(s3.requests.filter((r) => r.method === 'DELETE').map((r) => r.url.split('?')[0])).toEqual(
      expect.arrayContaining([`/${s3.bucket}/${customer_sign}`, `/${s3.bucket}/${storage_key}`]),
    );
  });
});
