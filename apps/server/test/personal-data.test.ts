// Personal data encrypted at rest (issue 24): an application's passport number, ids and birth date reach the
// database sealed and its signature and approved document reach the store encrypted, so a dump of either shows none
// of them; staff still see them, find an order by its exact passport number, and keep both after a key rotation;
// a wrong DATA_KEY stops the start; what was stored in clear before is encrypted by a resumable, verified run.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TRACK_PROOF_HEADER } from '@eta/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/lib/config.js';
import { prepareDatabase } from '../src/startup.js';
import { LocalMasterKey } from '../src/lib/crypto/master-key.js';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import { DataKeyError, openKeyring, rotateDataKeys } from '../src/modules/personal-data/data-keys.js';
import { encryptStoredDocuments, encryptStoredOrders } from '../src/modules/personal-data/encrypt-stored.js';
import { OrderFieldsCipher } from '../src/modules/personal-data/order-fields.js';
import { buildTestApp, JWT_SECRET, type TestApp } from './helpers/test-app.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { insertOrder } from './helpers/orders.js';
import { samplePng } from './helpers/pdf-files.js';
import { TRAVELLER, approvalPdf, uploadRequest } from './helpers/uploads.js';
import { appKeyring } from './helpers/personal-data.js';
import { startBuiltServer } from './helpers/built-server.js';
import { createTestDatabase, testBackend } from './helpers/test-database.js';

type Person = Awaited<ReturnType<TestApp['signIn']>>;

const newPassport = () => `ZX${randomInt(1_000_000, 9_999_999)}`;

/** An approved document that holds the traveller's passport number, as a real one does. */

async function intakeOrder(t: TestApp, passport: string, signature: Buffer): Promise<string> {
  const res = await postIntake(
    t,
    await createIntakeKey(t),
    application({
      passport_number: passport,
      confirm_passport_number: passport,
      appliedd_for_visa_before: true,
      uci_number: '87654321',
      confirm_uci_number: '87654321',
      signature: `data:image/png;base64,${signature.toString('base64')}`,
    }),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: { order_id: string } }>().data.order_id;
}

const details = (app: FastifyInstance, who: Person, orderId: string) =>
  app.inject({ url: `/api/admin/get-orders-details/${orderId}`, headers: { authorization: who.token } });

async function search(app: FastifyInstance, who: Person, searchVal: string): Promise<string[]> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/search-order',
    headers: { authorization: who.token },
    payload: { folderName: 'newOrder', searchVal, start: 0, end: 50 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { rows: { order_id: string }[] } }>().data.rows.map((r) => r.order_id);
}

/** Every row of every table as PostgreSQL prints it: what a dump of the database would show. */
async function dumpDatabase(t: TestApp): Promise<string> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`.execute(t.database.db);
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(name)} t`.execute(t.database.db);
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join('\n');
}

/** Every file the document store holds on disk. */
async function filesOnDisk(t: TestApp): Promise<Buffer[]> {
  const dir = path.join(t.config.dataDir, 'documents');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(path.join(e.parentPath, e.name))));
}

async function uploadApproval(t: TestApp, team: Person, orderId: string, content: Buffer) {
  const form = await uploadRequest(
    { orderId, email: 'traveller@customer.test', mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
    { name: 'approval.pdf', content, type: 'application/pdf' },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    headers: { ...form.headers, authorization: team.token },
    payload: form.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('personal data at rest', () => {
  let t: TestApp;
  let admin: Person;
  let team: Person;
  const passport = newPassport();
  const signature = samplePng(120, 40);
  let orderId: string;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.signIn('Admin');
    team = await t.signIn('Team');
    orderId = await intakeOrder(t, passport, signature);
  });
  afterAll(() => t.close());

  it('stores no sensitive field in clear: the columns are NULL and a dump of every table shows none of them', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      SELECT passport_number, confirm_passport_number, uci_number, confirm_uci_number, birth_year, birth_month,
             birth_date, personal_sealed, passport_number_hmac
        FROM orders WHERE order_id = ${orderId}`.execute(t.database.db);
    expect(rows[0]).toMatchObject({
      passport_number: null,
      confirm_passport_number: null,
      uci_number: null,
      confirm_uci_number: null,
      birth_year: null,
      birth_month: null,
      birth_date: null,
    });
    expect(Object.keys(rows[0]!.personal_sealed as object).sort()).toEqual(
      [
        // The birth date's parts as one value.
        'birth',
        'confirm_passport_number',
        'confirm_uci_number',
        'passport_number',
        'uci_number',
      ].sort(),
    );
    expect(Buffer.from(rows[0]!.passport_number_hmac as Uint8Array)).toHaveLength(32);
    const dump = await dumpDatabase(t);
    expect(dump).toContain(orderId); // the dump is real: it holds the order
    expect(dump).not.toContain(passport);
    expect(dump).not.toContain('87654321');
  });

  it('shows them to staff on the order as before, and finds the order by its exact passport number', async () => {
    const res = await details(t.app, admin, orderId);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      passport_number: passport,
      confirm_passport_number: passport,
      uci_number: '87654321',
      birth_year: 1988,
      birth_month: 4,
      birth_date: 17,
    });
    expect(await search(t.app, admin, passport)).toEqual([orderId]);
    // As staff type it: lower case, with a space; a number that is not on any order finds nothing.
    expect(await search(t.app, admin, ` ${passport.slice(0, 4).toLowerCase()} ${passport.slice(4)} `)).toEqual([
      orderId,
    ]);
    expect(await search(t.app, admin, newPassport())).toEqual([]);
    // Names and e-mails are searched as before.
    expect(await search(t.app, admin, 'García López')).toContain(orderId);
  });

  it('keeps the signature and the approved document encrypted on disk, and serves them as they were', async () => {
    const pendingId = await insertOrder(t.database.db, {
      process_status: 'Pending',
      assign_to: team.id,
      email: 'traveller@customer.test',
    });
    // The approval of this order's traveller (helpers/orders.ts), with their passport number also in clear bytes (a
    // PDF comment), so that any copy of it stored unencrypted would show.
    const approval = Buffer.concat([
      Buffer.from(`%PDF-1.7\n% passport ${TRAVELLER.passportNumber}\n`),
      (await approvalPdf()).subarray('%PDF-1.7\n'.length),
    ]);
    expect(approval.includes(Buffer.from(TRAVELLER.passportNumber))).toBe(true);
    await uploadApproval(t, team, pendingId, approval);
    const files = await filesOnDisk(t);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) {
      expect(file.includes(Buffer.from(TRAVELLER.passportNumber))).toBe(false);
      expect(file.includes(Buffer.from(passport))).toBe(false);
      expect(file.subarray(0, 4).toString('latin1')).toBe('ETAE');
    }
    const shown = await t.app.inject({
      url: `/api/admin/order-signature/${orderId}`,
      headers: { authorization: team.token },
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.rawPayload.equals(signature)).toBe(true);
    // The customer's download streams it decrypted.
    const tracked = await t.app.inject({
      method: 'POST',
      url: '/api/front/track-order',
      payload: { orderId: pendingId, email: 'traveller@customer.test' },
    });
    expect(tracked.statusCode, tracked.body).toBe(200);
    const prepared = await t.app.inject({
      method: 'POST',
      url: '/api/front/download-passport-doc-pdf',
      payload: { orderId: pendingId, customername: 'Ada Lovelace', file1: `eTA-${pendingId}.pdf` },
      headers: { [TRACK_PROOF_HEADER]: tracked.json<{ data: { proof: string } }>().data.proof },
    });
    expect(prepared.statusCode, prepared.body).toBe(200);
    const file = await t.app.inject({ url: prepared.json<{ data: { url: string } }>().data.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(approval)).toBe(true);
    // The sha256 on record (evidence) is the document's own, not its ciphertext's.
    const { sha256 } = await t.database.db
      .selectFrom('documents')
      .innerJoin('orders', 'orders.id', 'documents.order_id')
      .select('documents.sha256')
      .where('orders.order_id', '=', pendingId)
      .executeTakeFirstOrThrow();
    expect(sha256).toBe(createHash('sha256').update(approval).digest('hex'));
  });

  it('refuses a sealed value moved to another order or field', async () => {
    const otherId = await intakeOrder(t, newPassport(), signature);
    const sealed = async (id: string) =>
      (await t.database.db
        .selectFrom('orders')
        .select('personal_sealed')
        .where('order_id', '=', id)
        .executeTakeFirstOrThrow())!.personal_sealed!;
    const mine = await sealed(orderId);
    // The other order gets this order's passport number; its own UCI field gets its passport number.
    await t.database.db
      .updateTable('orders')
      .set({ personal_sealed: { ...(await sealed(otherId)), passport_number: mine.passport_number! } })
      .where('order_id', '=', otherId)
      .execute();
    expect((await details(t.app, admin, otherId)).statusCode).toBe(500);
    await t.database.db
      .updateTable('orders')
      .set({ personal_sealed: { ...mine, uci_number: mine.passport_number! } })
      .where('order_id', '=', orderId)
      .execute();
    expect((await details(t.app, admin, orderId)).statusCode).toBe(500);
    await t.database.db.updateTable('orders').set({ personal_sealed: mine }).where('order_id', '=', orderId).execute();
    expect((await details(t.app, admin, orderId)).json().data.passport_number).toBe(passport);
  });

  it('opens an order sealed before the birth date was one value (a value per part) as before', async () => {
    const older = await insertOrder(t.database.db);
    const keyring = await appKeyring(t);
    const part = (field: string, value: string) =>
      keyring.seal('order', Buffer.from(value), Buffer.from(`eta-desk order ${older} ${field}`)).toString('base64');
    await t.database.db
      .updateTable('orders')
      .set({ personal_sealed: { birth_year: part('birth_year', '1975'), birth_month: part('birth_month', '11') } })
      .where('order_id', '=', older)
      .execute();
    const res = await details(t.app, admin, older);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ birth_year: 1975, birth_month: 11 });
    expect(res.json().data.birth_date ?? null).toBeNull();
  });
});

describe('key rotation and a wrong key', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  let t: TestApp;
  let admin: Person;
  let team: Person;
  const passport = newPassport();
  const signature = samplePng(90, 30);
  let orderId: string;

  beforeAll(async () => {
    t = await buildTestApp({ dataKey: oldKey });
    admin = await t.signIn('Admin');
    team = await t.signIn('Team');
    orderId = await intakeOrder(t, passport, signature);
  });
  afterAll(() => t.close());

  const startWith = (dataKey: Buffer, dataKeyPrevious?: Buffer) =>
    buildApp({
      config: { ...t.config, dataKey, dataKeyPrevious },
      database: t.database,
      jwtSecret: JWT_SECRET,
      logger: false,
    });

  it('a wrong DATA_KEY stops the start with the fingerprints it needs, and nothing is served', async () => {
    const wrong = new LocalMasterKey(randomBytes(32));
    const error = await startWith(randomBytes(32)).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(DataKeyError);
    expect((error as Error).message).toMatch(
      new RegExp(`wrapped by the master key with fingerprint ${new LocalMasterKey(oldKey).fingerprint}`),
    );
    await expect(openKeyring(t.database.db, { current: wrong })).rejects.toThrow(
      `DATA_KEY's fingerprint is ${wrong.fingerprint}`,
    );
  });

  it('re-wraps the data keys under a new master key: everything still reads, and the old key alone no longer starts', async () => {
    const masters = { current: new LocalMasterKey(newKey), previous: new LocalMasterKey(oldKey) };
    // 1. Servers restart with the new key and the old one as DATA_KEY_PREVIOUS.
    const during = await startWith(newKey, oldKey);
    try {
      await during.ready();
      // 2. npm run keys:rotate, with new data keys for new writes; a second run has nothing left to do.
      const summary = await rotateDataKeys(t.database.db, masters, { newDataKeys: true });
      // The order, document, search and staff (second factors, issue 34) keys.
      expect(summary).toMatchObject({ rewrapped: 4, alreadyCurrent: 0 });
      expect(summary.created.map((k) => k.kind)).toEqual(['order', 'document']);
      expect(await rotateDataKeys(t.database.db, masters)).toMatchObject({
        rewrapped: 0,
        alreadyCurrent: 6,
        created: [],
      });

      // 3. Servers restart with the new key alone: the order, its search and its signature are as they were.
      const after = await startWith(newKey);
      try {
        await after.ready();
        const res = await details(after, admin, orderId);
        expect(res.json().data).toMatchObject({ passport_number: passport, uci_number: '87654321', birth_year: 1988 });
        expect(await search(after, admin, passport)).toEqual([orderId]);
        const shown = await after.inject({
          url: `/api/admin/order-signature/${orderId}`,
          headers: { authorization: team.token },
        });
        expect(shown.rawPayload.equals(signature)).toBe(true);

        // New writes use the new order key; a server started before the rotation (step 1) still reads them.
        const laterPassport = newPassport();
        const later = await postIntake(
          { ...t, app: after },
          await createIntakeKey({ ...t, app: after }),
          application({ passport_number: laterPassport, confirm_passport_number: laterPassport }),
        );
        expect(later.statusCode, later.body).toBe(201);
        const laterId = later.json<{ data: { order_id: string } }>().data.order_id;
        const { personal_sealed } = await t.database.db
          .selectFrom('orders')
          .select('personal_sealed')
          .where('order_id', '=', laterId)
          .executeTakeFirstOrThrow();
        const newOrderKey = summary.created.find((k) => k.kind === 'order')!.id;
        expect(Buffer.from(personal_sealed!.passport_number!, 'base64').readUInt32BE(1)).toBe(newOrderKey);
        expect((await details(during, admin, laterId)).json().data.passport_number).toBe(laterPassport);
        expect(await search(during, admin, laterPassport)).toEqual([laterId]);
      } finally {
        await after.close();
      }
    } finally {
      await during.close();
    }

    // 4. The old master key alone no longer opens anything.
    await expect(startWith(oldKey)).rejects.toThrow(DataKeyError);
    await expect(openKeyring(t.database.db, { current: new LocalMasterKey(oldKey) })).rejects.toThrow(
      `with fingerprint ${new LocalMasterKey(newKey).fingerprint}`,
    );
  });
});

describe('the server process', () => {
  it(
    'never starts with a wrong DATA_KEY: it exits 1 with one line naming the fingerprints',
    { timeout: 120_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-data-key-'));
      const database = testBackend() === 'postgres' ? await createTestDatabase() : null;
      const env = { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.connectionString! } : {}) };
      const right = randomBytes(32);
      const wrong = randomBytes(32);
      try {
        const first = await startBuiltServer({ ...env, DATA_KEY: right.toString('base64') });
        expect(await first.stop()).toBe(0);
        const refused = await startBuiltServer({ ...env, DATA_KEY: wrong.toString('base64') }).then(
          () => null,
          (err: Error) => err.message,
        );
        expect(refused).toContain('the server exited (1)');
        expect(refused).toContain(
          `Personal data keys: DATA_KEY does not open this database's data keys: the order data key (id 1) was ` +
            `wrapped by the master key with fingerprint ${new LocalMasterKey(right).fingerprint}, and DATA_KEY's ` +
            `fingerprint is ${new LocalMasterKey(wrong).fingerprint}.`,
        );
        // With the right key it starts again.
        const again = await startBuiltServer({ ...env, DATA_KEY: right.toString('hex') });
        expect(await again.stop()).toBe(0);
      } finally {
        await database?.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});

describe('encrypting what was stored in clear (npm run personal-data:encrypt)', () => {
  let t: TestApp;
  let admin: Person;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.signIn('Admin');
  });
  afterAll(() => t.close());

  it('encrypts orders in batches, resumes after an interruption, verifies, and leaves nothing in clear', async () => {
    const passports = Array.from({ length: 25 }, newPassport);
    const ids: string[] = [];
    for (const [i, passport] of passports.entries()) {
      ids.push(
        await insertOrder(t.database.db, {
          passport_number: passport,
          // Stored before the intake checked that they match: a confirm copy of its own is sealed as its own value.
          confirm_passport_number: i === 3 ? 'TYPO12345' : passport,
          birth_year: 1970,
          birth_month: 1,
          birth_date: 2,
        }),
      );
    }
    // Before: in clear, shown, but not found by passport number (no keyed hash yet).
    expect((await details(t.app, admin, ids[0]!)).json().data.passport_number).toBe(passports[0]);
    expect(await search(t.app, admin, passports[0]!)).toEqual([]);

    const keyring = await appKeyring(t);
    // Stopped after the first batch of 10 (as a kill would between batches).
    const abort = new AbortController();
    await expect(
      encryptStoredOrders(t.database.db, keyring, {
        batchSize: 10,
        signal: abort.signal,
        onBatch: () => abort.abort(),
      }),
    ).rejects.toThrow();
    const clear = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('passport_number', 'is not', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await clear()).toBe(15);
    // Half done, every order reads the same.
    for (const [i, id] of ids.entries()) {
      expect((await details(t.app, admin, id)).json().data).toMatchObject({
        passport_number: passports[i],
        confirm_passport_number: i === 3 ? 'TYPO12345' : passports[i],
        birth_year: 1970,
      });
    }
    // The run again finishes the rest, and once more finds nothing to do.
    expect(await encryptStoredOrders(t.database.db, keyring, { batchSize: 10 })).toBe(15);
    expect(await encryptStoredOrders(t.database.db, keyring, { batchSize: 10 })).toBe(0);
    expect(await clear()).toBe(0);
    const dump = await dumpDatabase(t);
    for (const passport of passports) expect(dump).not.toContain(passport);
    for (const [i, id] of ids.entries()) {
      expect((await details(t.app, admin, id)).json().data).toMatchObject({
        passport_number: passports[i],
        confirm_passport_number: i === 3 ? 'TYPO12345' : passports[i],
        birth_year: 1970,
        birth_month: 1,
        birth_date: 2,
      });
    }
    expect(await search(t.app, admin, passports[7]!)).toEqual([ids[7]]);
  });

  it('keeps what a row already held sealed when it seals the fields still in clear', async () => {
    const passport = newPassport();
    const orderId = await insertOrder(t.database.db, { passport_number: passport });
    const keyring = await appKeyring(t);
    const { personal_sealed } = new OrderFieldsCipher(keyring).seal(orderId, { uci_number: '11223344' });
    await t.database.db.updateTable('orders').set({ personal_sealed }).where('order_id', '=', orderId).execute();
    expect(await encryptStoredOrders(t.database.db, keyring, { batchSize: 10 })).toBe(1);
    expect((await details(t.app, admin, orderId)).json().data).toMatchObject({
      passport_number: passport,
      uci_number: '11223344',
    });
    expect(await search(t.app, admin, passport)).toEqual([orderId]);
  });

  it('encrypts documents stored in clear in place, and a second run leaves them alone', async () => {
    const plain = new LocalDocumentStore(path.join(t.config.dataDir, 'documents'));
    const signature = samplePng(60, 20);
    const { key } = await plain.put(signature, { extension: 'png' });
    const orderId = await insertOrder(t.database.db, { customer_sign: key });
    const keyring = await appKeyring(t);
    const first = await encryptStoredDocuments(t.database.db, keyring, plain);
    expect(first).toMatchObject({ encrypted: 1, missing: [] });
    expect((await plain.read(key)).subarray(0, 4).toString('latin1')).toBe('ETAE');
    expect(await encryptStoredDocuments(t.database.db, keyring, plain)).toMatchObject({
      encrypted: 0,
      alreadyEncrypted: 1,
    });
    const shown = await t.app.inject({
      url: `/api/admin/order-signature/${orderId}`,
      headers: { authorization: admin.token },
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.rawPayload.equals(signature)).toBe(true);
  });
});

describe('npm run personal-data:encrypt and npm run keys:rotate', () => {
  const cli = (name: string) => fileURLToPath(new URL(`../dist/cli/${name}.js`, import.meta.url));
  const run = (name: string, env: Record<string, string>) =>
    promisify(execFile)(process.execPath, [cli(name)], { env: { PATH: process.env.PATH, ...env } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );

  // The CLIs run on the embedded database in DATA_DIR whatever the project's backend, so once is enough.
  it.skipIf(testBackend() === 'postgres')(
    'encrypt an embedded desk stored in clear, then move it from its generated key to a DATA_KEY of its own',
    { timeout: 180_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-keys-cli-'));
      try {
        const passport = newPassport();
        const database = await prepareDatabase(loadConfig({ DATA_DIR: dataDir }));
        try {
          await insertOrder(database.db, { passport_number: passport, confirm_passport_number: passport });
        } finally {
          await database.close();
        }
        const encrypted = await run('personal-data-encrypt', { DATA_DIR: dataDir });
        expect(encrypted.stdout).toContain('Orders: 1 encrypted and verified; none is left in clear.');
        expect(encrypted.code).toBe(0);
        expect((await run('personal-data-encrypt', { DATA_DIR: dataDir })).stdout).toContain('Orders: 0 encrypted');

        // The trial key made in DATA_DIR is the previous one; the desk's own key becomes DATA_KEY.
        const generated = (await readFile(path.join(dataDir, 'secrets', 'data-key'), 'utf8')).trim();
        const own = randomBytes(32).toString('base64');
        const rotated = await run('keys-rotate', { DATA_DIR: dataDir, DATA_KEY: own, DATA_KEY_PREVIOUS: generated });
        expect(rotated.code, rotated.stderr).toBe(0);
        expect(rotated.stdout).toContain('4 re-wrapped, 0 already under it');
        expect(rotated.stdout).toContain('Every data key opens with DATA_KEY alone');
        const again = await run('keys-rotate', { DATA_DIR: dataDir, DATA_KEY: generated });
        expect(again.code).toBe(1);
        expect(again.stderr).toContain("keys:rotate: nothing was changed: DATA_KEY does not open this database's");

        const check = await prepareDatabase(loadConfig({ DATA_DIR: dataDir }));
        try {
          const keyring = await openKeyring(check.db, { current: new LocalMasterKey(Buffer.from(own, 'base64')) });
          const row = await check.db
            .selectFrom('orders')
            .select(['order_id', 'personal_sealed', 'passport_number'])
            .executeTakeFirstOrThrow();
          expect(row.passport_number).toBeNull();
          const opened = await new OrderFieldsCipher(keyring).open(row.order_id, row.personal_sealed);
          expect(opened.passport_number).toBe(passport);
        } finally {
          await check.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
