// A restore proven, not assumed (issue 32): a desk's database with orders, remarks, mails, signatures and approved
// documents is dumped with pg_dump while its server runs, restored with pg_restore into a new database, and the built
// server started on it with the same DATA_KEY reads every order, signature and document back byte for byte through the
// API (order detail, signature, the approved document's record, the portal download); started with another key it
// refuses to start. Once with documents on the local disk (backed up with the dump: DATA_DIR/documents, copied after
// it), once in S3 (the bucket is not restored: it is its own backup).
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { TRACK_PROOF_HEADER } from '@eta/contracts';
import { loadConfig, type Config } from '../src/lib/config.js';
import { LocalMasterKey } from '../src/lib/crypto/master-key.js';
import { buildTestApp, JWT_SECRET, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';
import { startBuiltServer, type BuiltServer } from './helpers/built-server.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { samplePng } from './helpers/pdf-files.js';
import { INTAKE_TRAVELLER, approvalPdf, uploadRequest } from './helpers/uploads.js';
import { LOOPBACK_CREDENTIALS, startLoopbackS3, type LoopbackS3 } from './helpers/loopback-s3.js';
import { testBackend } from './helpers/test-database.js';

const run = promisify(execFile);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * A PostgreSQL client program: on PATH, else the newest under /usr/lib/postgresql (Debian's layout). pg_dump must be
 * as new as the server.
 */
async function pgTool(name: 'pg_dump' | 'pg_restore'): Promise<string> {
  const onPath = await run(name, ['--version']).then(
    () => name,
    () => null,
  );
  if (onPath) return onPath;
  const root = '/usr/lib/postgresql';
  const versions = (await readdir(root).catch(() => [])).sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`${name} is neither on PATH nor under ${root}`);
  return path.join(root, versions[0]!, 'bin', name);
}

/** Runs SQL on the PostgreSQL server of DATABASE_URL (creating and dropping databases). */
async function onServer(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/** What a desk's staff and customers read of an order's files, through the API. */
interface FilesReading {
  signature: string;
  /** The approved document: its record (the HEAD check's data) and the portal download's sha256; null when none. */
  approved: { record: unknown; download: string } | null;
}

interface Desk {
  /** An API call: path, method, JSON body, headers; answers status, headers and raw bytes. */
  call(
    urlPath: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string>; raw?: Buffer },
  ): Promise<{ status: number; headers: Record<string, string>; bytes: Buffer }>;
}

const json = <T>(bytes: Buffer): T => JSON.parse(bytes.toString()) as T;

/** The test app (in process) as a Desk. */
const inProcess = (t: TestApp): Desk => ({
  call: async (urlPath, init = {}) => {
    const res = await t.app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: urlPath,
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      payload: init.raw ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
    });
    return { status: res.statusCode, headers: res.headers as Record<string, string>, bytes: res.rawPayload };
  },
});

/** A built server over HTTP as a Desk. */
const overHttp = (server: BuiltServer): Desk => ({
  call: async (urlPath, init = {}) => {
    const res = await fetch(`${server.url}${urlPath}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(init.raw || init.body !== undefined ? { body: init.raw ?? JSON.stringify(init.body) } : {}),
    });
    return {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  },
});

async function signIn(desk: Desk, email: string): Promise<string> {
  const res = await desk.call('/api/admin/admin-login', {
    method: 'POST',
    body: { email, password: TEST_PASSWORD },
  });
  expect(res.status, res.bytes.toString()).toBe(200);
  return json<{ jwtToken: string }>(res.bytes).jwtToken;
}

/** The order detail page's data, as staff read it (its remarks, mails, documents and downloads with it). */
async function readDetail(desk: Desk, token: string, orderId: string): Promise<Record<string, unknown>> {
  const detail = await desk.call(`/api/admin/get-orders-details/${orderId}`, { headers: { authorization: token } });
  expect(detail.status, detail.bytes.toString()).toBe(200);
  // Its reads of personal data are on the record as they happen: the restored desk's are its own.
  const { activity: _reads, ...rest } = json<{ data: Record<string, unknown> }>(detail.bytes).data;
  return rest;
}

/** The order's signature as staff see it, and its approved document as staff and its customer get it. */
async function readFiles(desk: Desk, token: string, orderId: string, email: string): Promise<FilesReading> {
  const auth = { authorization: token };
  const signature = await desk.call(`/api/admin/order-signature/${orderId}`, { headers: auth });
  expect(signature.status).toBe(200);
  const record = await desk.call(`/api/admin/order-document/${orderId}`, { headers: auth });
  if (record.status === 404) return { signature: sha256(signature.bytes), approved: null };
  expect(record.status, record.bytes.toString()).toBe(200);
  const tracked = await desk.call('/api/front/track-order', { method: 'POST', body: { orderId, email } });
  expect(tracked.status, tracked.bytes.toString()).toBe(200);
  const proof = json<{ data: { proof: string } }>(tracked.bytes).data.proof;
  const prepared = await desk.call('/api/front/download-passport-doc-pdf', {
    method: 'POST',
    body: { orderId, customername: 'Restored Customer', file1: `eTA-${orderId}.pdf` },
    headers: { [TRACK_PROOF_HEADER]: proof },
  });
  expect(prepared.status, prepared.bytes.toString()).toBe(200);
  const file = await desk.call(json<{ data: { url: string } }>(prepared.bytes).data.url);
  expect(file.status).toBe(200);
  return {
    signature: sha256(signature.bytes),
    approved: { record: json<{ data: unknown }>(record.bytes).data, download: sha256(file.bytes) },
  };
}

/** A desk with work on it: orders from a landing site with their signatures, approved documents, mails, remarks. */
async function fillDesk(t: TestApp): Promise<{ staffEmail: string; orders: { orderId: string; email: string }[] }> {
  const key = await createIntakeKey(t);
  const staff = await t.signIn('Admin', 'Rhea Restorer');
  const orders: { orderId: string; email: string }[] = [];
  for (let i = 0; i < 4; i += 1) {
    const email = `restore.${i}@example.com`;
    // Each signature its own image, so a mix-up of files would show.
    const signature = samplePng(200 + i * 10, 80);
    const posted = await postIntake(
      t,
      key,
      application({
        email,
        passport_number: `RST00${i}99`,
        confirm_passport_number: `RST00${i}99`,
        signature: `data:image/png;base64,${signature.toString('base64')}`,
      }),
    );
    expect(posted.statusCode, posted.body).toBe(201);
    const orderId = posted.json<{ data: { order_id: string } }>().data.order_id;
    orders.push({ orderId, email });
    const remark = await t.app.inject({
      method: 'POST',
      url: '/api/admin/add-new-remark',
      headers: { authorization: staff.token },
      payload: { orderId, remark: `Called the customer about order ${i}: all well.` },
    });
    expect(remark.statusCode, remark.body).toBe(200);
    if (i === 3) continue; // one order still waiting for its document
    const form = await uploadRequest(
      { orderId, email, mailServiceProvider: 'AWS' },
      {
        name: `approval-${i}.pdf`,
        // Each order's own approval (issue 35: the desk reads it), so a mix-up of files would show.
        content: await approvalPdf({
          ...INTAKE_TRAVELLER,
          passportNumber: `RST00${i}99`,
          applicationNumber: `V30000000${i}`,
        }),
        type: 'application/pdf',
      },
    );
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      headers: { ...form.headers, authorization: staff.token },
      payload: form.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
  }
  return { staffEmail: staff.email, orders };
}

describe.runIf(testBackend() === 'postgres')('a backup restored (pg_dump, pg_restore)', () => {
  let s3: LoopbackS3;
  beforeAll(async () => {
    s3 = await startLoopbackS3();
    vi.stubEnv('AWS_ACCESS_KEY_ID', LOOPBACK_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', LOOPBACK_CREDENTIALS.secretAccessKey);
  });
  afterAll(async () => {
    await s3.close();
    vi.unstubAllEnvs();
  });

  it.each(['local', 's3'] as const)(
    'reads every order, signature and document back byte for byte with its DATA_KEY; another key is refused (documents: %s)',
    { timeout: 180_000 },
    async (store) => {
      const dataKey = randomBytes(32);
      const otherKey = randomBytes(32);
      const storeConfig: Partial<Config> =
        store === 's3' ? { documentsStore: 's3', s3: loadConfig(s3.env).s3 } : { documentsStore: 'local' };
      const t = await buildTestApp({ ...storeConfig, dataKey });
      const work = await mkdtemp(path.join(os.tmpdir(), 'eta-restore-'));
      const restoredName = `eta_test_restored_${randomBytes(6).toString('hex')}`;
      let server: BuiltServer | undefined;
      try {
        const { staffEmail, orders } = await fillDesk(t);
        const before = inProcess(t);
        const token = await signIn(before, staffEmail);
        // The files first (a download is logged on its order), then every order as its detail page shows it.
        const files = new Map<string, FilesReading>();
        for (const { orderId, email } of orders) files.set(orderId, await readFiles(before, token, orderId, email));
        expect([...files.values()].filter((f) => f.approved).length).toBe(3);
        const details = new Map<string, Record<string, unknown>>();
        for (const { orderId } of orders) details.set(orderId, await readDetail(before, token, orderId));
        // What is compared holds what matters: sealed fields opened, remarks, mails, documents, downloads.
        for (const [i, { orderId }] of orders.entries()) {
          expect(details.get(orderId)).toMatchObject({
            passport_number: `RST00${i}99`,
            birth_year: expect.any(Number),
            remark: [expect.objectContaining({ remark: `Called the customer about order ${i}: all well.` })],
            mailHistory: expect.arrayContaining([expect.objectContaining({ kind: 'confirmation' })]),
            ...(i < 3
              ? {
                  uploadDoc: [expect.objectContaining({ file1: `approval-${i}.pdf` })],
                  downloadHistory: [expect.anything()],
                }
              : { uploadDoc: [], downloadHistory: [] }),
          });
        }

        // The backup, taken while the desk runs: the database first, then the documents (a document is never
        // changed in place, so a copy made after the dump holds every file a row of the dump names).
        const dump = path.join(work, 'eta.dump');
        await run(await pgTool('pg_dump'), ['--format=custom', `--file=${dump}`, t.database.connectionString!]);
        const backupDir = path.join(work, 'data');
        if (store === 'local') {
          await cp(path.join(t.config.dataDir, 'documents'), path.join(backupDir, 'documents'), { recursive: true });
        }
        // The desk is gone (its server, its database, its disk); the bucket stays.
        await t.close();

        await onServer(`CREATE DATABASE ${restoredName}`);
        const restoredUrl = withDatabase(process.env.DATABASE_URL!, restoredName);
        await run(await pgTool('pg_restore'), ['--exit-on-error', '--no-owner', `--dbname=${restoredUrl}`, dump]);
        const env = {
          DATABASE_URL: restoredUrl,
          DATA_DIR: backupDir,
          JWT_SECRET,
          ...(store === 's3'
            ? {
                ...s3.env,
                AWS_ACCESS_KEY_ID: LOOPBACK_CREDENTIALS.accessKeyId,
                AWS_SECRET_ACCESS_KEY: LOOPBACK_CREDENTIALS.secretAccessKey,
              }
            : {}),
        };

        // Another key: the start is refused, naming the key the database needs.
        const refused = await startBuiltServer({ ...env, DATA_KEY: otherKey.toString('base64') }).then(
          async (started) => {
            await started.stop();
            return 'it started';
          },
          (err: Error) => err.message,
        );
        expect(refused).toContain('the server exited (1)');
        expect(refused).toContain(
          `wrapped by the master key with fingerprint ${new LocalMasterKey(dataKey).fingerprint}, and DATA_KEY's ` +
            `fingerprint is ${new LocalMasterKey(otherKey).fingerprint}.`,
        );

        server = await startBuiltServer({ ...env, DATA_KEY: dataKey.toString('base64') });
        const after = overHttp(server);
        const restoredToken = await signIn(after, staffEmail);
        for (const { orderId } of orders) {
          expect(await readDetail(after, restoredToken, orderId), orderId).toEqual(details.get(orderId));
        }
        for (const { orderId, email } of orders) {
          expect(await readFiles(after, restoredToken, orderId, email), orderId).toEqual(files.get(orderId));
        }
        expect(await server.stop()).toBe(0);
      } finally {
        if (server && server.process.exitCode === null) server.process.kill('SIGKILL');
        await t.close().catch(() => undefined);
        await onServer(`DROP DATABASE IF EXISTS ${restoredName} WITH (FORCE)`);
        await rm(work, { recursive: true, force: true });
      }
    },
  );
});
