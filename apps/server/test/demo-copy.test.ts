// The demo loader's two ways in give the same rows: JSON batches (PGlite's way, and a pool without a connection
// string) and COPY FROM STDIN from a worker thread (PostgreSQL with a connection string), on one connection or, for a
// large load, two side by side with indexes and foreign keys set aside. Each is compared with a digest of every row
// it loaded, committed here, so a change to the data shows up as a change of this digest too.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../src/db/database.js';
import { seedDemoData, type SeedOptions } from '../src/demo/demo-data.js';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import type { SealedFields } from '../src/db/schema.js';
import { createTestDatabase, testBackend } from './helpers/test-database.js';
import { orderFieldsOf, testKeyring } from './helpers/personal-data.js';

/**
 * sha256 of every loaded row in id order, as JSON. What differs between two loads by design is set aside: ciphertexts
 * (fresh IVs; their opened values count instead), keyed hashes (each database's own key; checked against the opened
 * passport number), the stored files' random keys (checked to be one each), each mail's random message key.
 */
async function digest(handle: DatabaseHandle): Promise<{ sha256: string; rows: number }> {
  const db = handle.db;
  const fields = orderFieldsOf(await testKeyring(db));
  const hash = createHash('sha256');
  let rows = 0;
  const table = async (name: string, drop: string[]) => {
    const { rows: all } = await sql<{ row: Record<string, unknown> }>`
      SELECT to_jsonb(t) AS row FROM ${sql.table(name)} t ORDER BY id`.execute(db);
    for (const { row } of all) {
      for (const key of drop) delete row[key];
      hash.update(`${name} ${JSON.stringify(row)}\n`);
    }
    rows += all.length;
    return all.map((r) => r.row);
  };
  const orders = await sql<{ order_id: string; sealed: SealedFields | null; hmac: string | null }>`
    SELECT order_id, personal_sealed AS sealed, encode(passport_number_hmac, 'hex') AS hmac FROM orders ORDER BY id`.execute(
    db,
  );
  for (const o of orders.rows) {
    const open = await fields.open(o.order_id, o.sealed);
    const hmac = open.passport_number ? fields.passportHash(String(open.passport_number)).toString('hex') : null;
    expect(o.hmac).toBe(hmac);
    hash.update(`sealed ${o.order_id} ${JSON.stringify(Object.entries(open).sort())} ${Object.keys(o.sealed ?? {})}\n`);
  }
  // The due mark follows the processing date and today (migration 036): checked against them, not digested.
  const marks = await sql<{ wrong: number }>`
    SELECT count(*)::int AS wrong FROM orders
    WHERE future_due IS DISTINCT FROM (processing_type = 'Future' AND processing_date <= current_date)`.execute(db);
  expect(marks.rows[0]!.wrong).toBe(0);
  // The search text is PostgreSQL's own (a generated column, migration 037), not the loader's.
  await table('orders', ['personal_sealed', 'passport_number_hmac', 'customer_sign', 'future_due', 'search_text']);
  await table('remarks', []);
  // A claim's server and start (migration 026) belong to the outbox worker that took the mail, not to the data.
  await table('mails', ['message_key', 'claimed_by', 'claim_boot']);
  await table('downloads', []);
  await table('documents', ['storage_key', 'sha256', 'size_bytes']);
  await table('disputes', []);
  await table('dispute_history', []);
  await table('audit_log', []);
  const files = await sql<{ n: number }>`
    SELECT count(DISTINCT customer_sign)::int AS n FROM orders
    UNION ALL SELECT count(DISTINCT (storage_key, sha256, size_bytes))::int FROM documents`.execute(db);
  expect(files.rows).toEqual([{ n: 1 }, { n: 1 }]);
  return { sha256: hash.digest('hex'), rows };
}

/** The digest of `--orders 3000 --seed 7` into an empty database (changes whenever the demo data does). */
// Since migration 032 each document row also carries what the desk read in it (null for the demo's documents); since
// 033 each order its status's start, and one traveller in eight flies within days of buying (issue 35).
const EXPECTED = { sha256: 'e42f927f8fe6a0f7f6753a04bc056a04033603d73e6d1dcd93f6d0dcf1d2c18e', rows: 17_935 };

// A fresh database and 3,000 orders with their ~15,000 other rows each: PGlite's migrations alone take 10-25 s on a
// busy machine of two cores.
describe('demo data loaded with COPY or as JSON', { timeout: 60_000 }, () => {
  let dir: string;
  let store: LocalDocumentStore;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'eta-seed-copy-'));
    store = new LocalDocumentStore(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const load = async (options: Partial<SeedOptions> & { copy: boolean }) => {
    const handle = await createTestDatabase();
    try {
      const { copy, ...rest } = options;
      const result = await seedDemoData(handle.db, {
        keyring: await testKeyring(handle.db),
        store,
        orders: 3000,
        seed: 7,
        ...(copy ? { connectionString: handle.connectionString! } : {}),
        ...rest,
      });
      expect(result.orders).toBe(3000);
      return await digest(handle);
    } finally {
      await handle.close();
    }
  };

  it('as JSON batches', async () => {
    expect(await load({ copy: false })).toEqual(EXPECTED);
  });

  it.skipIf(testBackend() !== 'postgres')('with COPY on one connection, foreign keys in place', async () => {
    expect(await load({ copy: true, batchSize: 700 })).toEqual(EXPECTED);
  });

  it.skipIf(testBackend() !== 'postgres')(
    'with COPY on two connections, indexes and foreign keys set aside',
    async () => {
      const phases = new Set<string>();
      const options = {
        copy: true,
        batchSize: 700,
        bulkLoadAbove: 1000,
        onProgress: (p: { phase: string }) => phases.add(p.phase),
      };
      expect(await load(options)).toEqual(EXPECTED);
      expect(phases.has('indexes')).toBe(true);
    },
  );
});
