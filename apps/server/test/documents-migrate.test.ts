// `npm run documents:migrate` (issue 23): every document the database names (approvals, invoices, signatures) is
// copied from DATA_DIR/documents to S3 under its key and verified by sha256; a second run skips what is there; local
// copies go only with --delete-local; a corrupted or missing file is reported, left alone, and fails the run.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.js';
import type { DatabaseHandle } from '../src/db/database.js';
import { loadConfig } from '../src/lib/config.js';
import { prepareDatabase } from '../src/startup.js';
import type { StoredDocument } from '../src/lib/storage/document-store.js';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import { S3DocumentStore } from '../src/lib/storage/s3-document-store.js';
import { selectReferencedDocuments } from '../src/lib/storage/stored-documents.repository.js';
import { migrateDocuments, type MigrationProgress } from '../src/lib/storage/document-migration.js';
import { createTestDatabase, testBackend } from './helpers/test-database.js';
import { orderValues } from './helpers/orders.js';
import { LOOPBACK_CREDENTIALS, startLoopbackS3, type LoopbackS3 } from './helpers/loopback-s3.js';

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

let s3: LoopbackS3;
beforeAll(async () => {
  s3 = await startLoopbackS3();
});
afterAll(() => s3.close());

type StoredFile = StoredDocument & { content: Buffer };

interface Fixture {
  approvals: StoredFile[];
  invoice: StoredFile;
  signature: StoredFile;
}

let invoices = 0;

/** Two orders with an approved document each (one signed, one invoiced), and their files in the local store. */
async function storeLocalDocuments(db: Kysely<DB>, local: LocalDocumentStore): Promise<Fixture> {
  const keep = async (content: Buffer, extension: string) => ({
    ...(await local.put(content, { extension })),
    content,
  });
  const signature = await keep(Buffer.from('\x89PNG a customer signature'), 'png');
  const approvals = [
    await keep(Buffer.from('%PDF-1.7 first approval'), 'pdf'),
    await keep(Buffer.from(`%PDF-1.7 second approval ${'x'.repeat(1000)}`), 'pdf'),
  ];
  const invoice = await keep(Buffer.from('%PDF-1.7 invoice'), 'pdf');
  for (const [i, approval] of approvals.entries()) {
    const order = await db
      .insertInto('orders')
      .values(orderValues(i === 0 ? { customer_sign: signature.key } : {}))
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('documents')
      .values({
        order_id: order.id,
        storage_key: approval.key,
        original_name: 'approval.pdf',
        content_type: 'application/pdf',
        size_bytes: approval.size,
        sha256: approval.sha256,
        uploaded_by: null,
      })
      .execute();
    if (i === 0) {
      await db
        .insertInto('invoices')
        .values({
          invoice_number: `INV-2026-${String((invoices += 1)).padStart(6, '0')}`,
          order_id: order.id,
          amount_cents: 7900,
          currency: 'CAD',
          storage_key: invoice.key,
          sha256: invoice.sha256,
          created_by: null,
        })
        .execute();
    }
  }
  return { approvals, invoice, signature };
}

describe('migrateDocuments', () => {
  let database: DatabaseHandle;
  let dataDir: string;
  let local: LocalDocumentStore;
  let target: S3DocumentStore;
  let files: Fixture;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-migrate-'));
    local = new LocalDocumentStore(path.join(dataDir, 'documents'));
    target = new S3DocumentStore({ ...s3.config, credentials: LOOPBACK_CREDENTIALS });
  });
  afterAll(async () => {
    target.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    files = await storeLocalDocuments(database.db, local);
  });

  const everyFile = () => [...files.approvals, files.invoice, files.signature];
  /** What the database names, narrowed to this test's documents (the tests share one database). */
  const referenced = async () => {
    const mine = new Set(everyFile().map((f) => f.key));
    return (await selectReferencedDocuments(database.db)).filter((d) => mine.has(d.key));
  };

  it('copies every document the database names to S3 under its key, verified, and keeps the local copies', async () => {
    const documents = await referenced();
    expect(documents).toEqual(
      expect.arrayContaining([
        ...[...files.approvals, files.invoice].map((f) => ({ key: f.key, sha256: f.sha256 })),
        { key: files.signature.key, sha256: null },
      ]),
    );
    expect(documents).toHaveLength(4);
    const progress: MigrationProgress[] = [];
    const summary = await migrateDocuments(documents, local, target, { onProgress: (p) => progress.push(p) });
    expect(summary).toEqual({ total: 4, copied: 4, alreadyInS3: 0, failed: [], localDeleted: 0 });
    expect(progress.map((p) => `${p.done}/${p.total} ${p.outcome}`)).toEqual([
      '1/4 copied',
      '2/4 copied',
      '3/4 copied',
      '4/4 copied',
    ]);
    for (const file of everyFile()) {
      expect((await target.read(file.key)).equals(file.content), file.key).toBe(true);
      expect((await target.describe(file.key))?.sha256).toBe(sha256(file.content));
      expect(await local.exists(file.key)).toBe(true);
    }
    expect((await target.describe(files.signature.key))?.contentType).toBe('image/png');
  });

  it('skips on a second run what is already there, and deletes local copies only when asked, after verifying', async () => {
    const documents = await referenced();
    await migrateDocuments(documents, local, target);
    const before = s3.requests.filter((r) => r.method === 'PUT').length;
    expect(await migrateDocuments(documents, local, target)).toMatchObject({ copied: 0, alreadyInS3: 4, failed: [] });
    expect(s3.requests.filter((r) => r.method === 'PUT').length).toBe(before);

    const summary = await migrateDocuments(documents, local, target, { deleteLocal: true });
    expect(summary).toMatchObject({ copied: 0, alreadyInS3: 4, failed: [], localDeleted: 4 });
    for (const file of everyFile()) expect(await local.exists(file.key)).toBe(false);
    // With the local copies gone a further run still counts every document as safely in S3.
    expect(await migrateDocuments(documents, local, target)).toMatchObject({ alreadyInS3: 4, failed: [] });
  });

  it('reports a corrupted and a missing local file, copies the rest, and leaves the broken ones alone', async () => {
    const [corrupted, missing] = files.approvals;
    await writeFile(path.join(dataDir, 'documents', ...corrupted!.key.split('/')), 'bit rot');
    await local.delete(missing!.key);
    const summary = await migrateDocuments(await referenced(), local, target, {
      deleteLocal: true,
    });
    expect(summary.copied).toBe(2);
    expect(summary.failed).toEqual(
      expect.arrayContaining([
        { key: corrupted!.key, reason: expect.stringMatching(/local copy is corrupted.*database recorded/) },
        { key: missing!.key, reason: 'missing locally and not in S3' },
      ]),
    );
    expect(summary.failed).toHaveLength(2);
    // The corrupted bytes were not copied, and the only local copy left of them is kept for a person to look at.
    expect(await target.exists(corrupted!.key)).toBe(false);
    expect(await local.exists(corrupted!.key)).toBe(true);
    expect(summary.localDeleted).toBe(2);
  });

  it('copies again an S3 object whose bytes do not match the recorded sha256', async () => {
    const [approval] = files.approvals;
    // Something else wrote other bytes under the key (no sha256 of ours on it).
    await new S3DocumentStore({ ...s3.config, credentials: LOOPBACK_CREDENTIALS }).putAt(
      approval!.key,
      Buffer.from('%PDF truncated'),
    );
    const summary = await migrateDocuments(await referenced(), local, target);
    expect(summary).toMatchObject({ copied: 4, alreadyInS3: 0, failed: [] });
    expect((await target.read(approval!.key)).equals(approval!.content)).toBe(true);
  });
});

describe('npm run documents:migrate', () => {
  const cli = fileURLToPath(new URL('../dist/cli/documents-migrate.js', import.meta.url));
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-migrate-cli-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  const run = (env: Record<string, string>, args: string[] = []) =>
    promisify(execFile)(process.execPath, [cli, ...args], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        AWS_ACCESS_KEY_ID: LOOPBACK_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: LOOPBACK_CREDENTIALS.secretAccessKey,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...env,
      },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );

  // The CLI runs on the embedded database in DATA_DIR whatever the project's backend, so once is enough; its two
  // starts (the fixture's, then the CLI's) take a while on a busy machine.
  it.skipIf(testBackend() === 'postgres')(
    'moves the documents of the embedded database, says what failed, and exits 1 until all are moved',
    { timeout: 180_000 },
    async () => {
      const config = loadConfig({ DATA_DIR: dataDir });
      const database = await prepareDatabase(config);
      const local = new LocalDocumentStore(path.join(dataDir, 'documents'));
      let stored: Fixture;
      try {
        stored = await storeLocalDocuments(database.db, local);
      } finally {
        await database.close();
      }
      const [, lost] = stored.approvals;
      await local.delete(lost!.key);

      const first = await run(s3.env, ['--delete-local']);
      expect(first.code).toBe(1);
      expect(first.stdout).toMatch(/Copying 4 documents from .* to s3:\/\/eta-documents/);
      expect(first.stdout).toContain('Done: 3 copied and verified, 0 already in S3, 1 failed, 3 local copies deleted.');
      expect(first.stderr).toContain(`FAILED ${lost!.key}: missing locally and not in S3`);

      // The lost file is found again (a backup): the next run moves it and succeeds.
      await writeFile(path.join(dataDir, 'documents', ...lost!.key.split('/')), lost!.content);
      const second = await run(s3.env, ['--delete-local']);
      expect(second.stdout).toContain(
        'Done: 1 copied and verified, 3 already in S3, 0 failed, 1 local copies deleted.',
      );
      expect(second.code).toBe(0);
      expect(await readdir(path.join(dataDir, 'documents'), { recursive: true, withFileTypes: true })).toSatisfy(
        (entries: { isFile(): boolean }[]) => entries.every((e) => !e.isFile()),
      );
    },
  );

  it('refuses to start without a bucket to copy to', async () => {
    const res = await run({ AWS_REGION: 'us-east-1' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('S3_BUCKET is not set');
  });
});
