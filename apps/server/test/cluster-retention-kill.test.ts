// The retention job killed for real (issue 24): the built server erasing a few hundred orders is sent SIGKILL in the
// middle of its run; no order is left half erased, and a second server process continues the same run once the dead
// one's heartbeat is stale, erasing every due order exactly once, counting each once, keeping the held and the
// disputed ones and deleting every freed file. PostgreSQL only (several processes on one database: cluster-*).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RetentionRun } from '@eta/contracts';
import type { DatabaseHandle } from '../src/db/database.js';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import { startBuiltServer, waitFor, type BuiltServer } from './helpers/built-server.js';
import { orderValues } from './helpers/orders.js';
import { samplePng } from './helpers/pdf-files.js';
import { orderFieldsOf, TEST_DATA_KEY, testKeyring } from './helpers/personal-data.js';
import { createTestDatabase } from './helpers/test-database.js';

const ADMIN = { email: 'first-admin@kill.test', password: 'first-admin-password' };
const DUE = 400;
const BATCH = 40;
const STALE_SECONDS = 2;
const FOUR_YEARS_AGO = new Date(Date.now() - 4 * 365 * 86_400_000).toISOString().slice(0, 10);

let database: DatabaseHandle;
let dataDir: string;
const servers: BuiltServer[] = [];

const startServer = async () => {
  const server = await startBuiltServer({
    NODE_ENV: 'test',
    DATABASE_URL: database.connectionString,
    DATA_DIR: dataDir,
    JWT_SECRET: 'retention-kill-test-secret-0123456789abcdef',
    DATA_KEY: TEST_DATA_KEY,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RETENTION_BATCH_SIZE: String(BATCH),
    RETENTION_STALE_SECONDS: String(STALE_SECONDS),
  });
  servers.push(server);
  return server;
};

async function startRun(server: BuiltServer): Promise<{ status: number; run?: RetentionRun }> {
  const login = await fetch(`${server.url}/api/admin/admin-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const token = ((await login.json()) as { jwtToken: string }).jwtToken;
  const res = await fetch(`${server.url}/api/admin/retention/runs`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ dryRun: false }),
  });
  const body = (await res.json()) as { data?: RetentionRun };
  return { status: res.status, run: body.data };
}

const runRow = (id: number) =>
  database.db.selectFrom('retention_runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Each order's state as a raw read sees it, and how many erasures its audit trail records. */
async function orderStates() {
  const rows = await database.db
    .selectFrom('orders as o')
    .select((eb) => [
      'o.id',
      'o.order_id',
      'o.erased_at',
      'o.personal_sealed',
      'o.passport_number_hmac',
      'o.passport_surname',
      'o.customer_sign',
      eb
        .selectFrom('audit_log as a')
        .select((a) => a.fn.countAll<string>().as('n'))
        .whereRef('a.order_id', '=', 'o.id')
        .where('a.action', '=', 'order.erase')
        .as('erasures'),
    ])
    .orderBy('o.id')
    .execute();
  return rows.map((r) => ({ ...r, erasures: Number(r.erasures) }));
}

/** Every order is whole or wholly erased: never erased without its audit row, nor with a personal field left. */
function expectNoneHalfErased(states: Awaited<ReturnType<typeof orderStates>>) {
  for (const s of states) {
    if (s.erased_at) {
      expect(s, s.order_id).toMatchObject({
        personal_sealed: null,
        passport_number_hmac: null,
        passport_surname: null,
        customer_sign: null,
        erasures: 1,
      });
    } else {
      expect(s.erasures, s.order_id).toBe(0);
      expect(s.personal_sealed, s.order_id).not.toBeNull();
      expect(s.passport_surname, s.order_id).toBe('Lovelace');
    }
  }
}

let held: string;
let disputed: string;
const signatures = new Map<string, string>();

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'eta-retention-kill-'));
  // The first start migrates the database and makes the data keys under DATA_KEY; the orders are then sealed with
  // them as intake seals them, each with a signature file of its own in DATA_DIR/documents.
  await (await startServer()).stop();
  const fields = orderFieldsOf(await testKeyring(database.db));
  const store = new LocalDocumentStore(path.join(dataDir, 'documents'));
  const signature = samplePng();
  const values = [];
  for (let i = 0; i < DUE + 2; i += 1) {
    const order = orderValues({
      process_status: 'Completed',
      travel_to_canada_year: FOUR_YEARS_AGO,
      street_name: '12 Analytical Row',
    });
    const sign = (await store.put(signature, { extension: 'png' })).key;
    signatures.set(order.order_id, sign);
    values.push({
      ...order,
      customer_sign: sign,
      ...fields.seal(order.order_id, { passport_number: `X${1_000_000 + i}`, birth_year: 1980 }),
    });
  }
  await database.db.insertInto('orders').values(values).execute();
  held = values[DUE / 2]!.order_id;
  disputed = values[DUE / 2 + 1]!.order_id;
  await database.db
    .updateTable('orders')
    .set({ legal_hold_at: new Date(), legal_hold_reason: 'Litigation: case 2026-7' })
    .where('order_id', '=', held)
    .execute();
  const stripe = await database.db
    .selectFrom('gateways')
    .select('id')
    .where('gateway_name', '=', 'Stripe')
    .executeTakeFirstOrThrow();
  const disputedOrder = await database.db
    .selectFrom('orders')
    .select('id')
    .where('order_id', '=', disputed)
    .executeTakeFirstOrThrow();
  await database.db
    .insertInto('disputes')
    .values({
      order_id: disputedOrder.id,
      gateway_id: stripe.id,
      dispute_id: 'dp_kill_1',
      reason: 'fraudulent',
      amount_cents: 8900,
      currency: 'USD',
      status: 'needs_response',
    })
    .execute();
}, 120_000);

afterAll(async () => {
  for (const server of servers) server.process.kill('SIGKILL');
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('a server killed in the middle of a retention run leaves nothing half erased, and another continues the run', async () => {
  const first = await startServer();
  const started = await startRun(first);
  expect(started.status).toBe(200);
  const runId = started.run!.id;
  // Killed in the middle of a batch after the first: some of its orders erased, its progress not yet recorded.
  const erasedOrders = async () =>
    Number(
      (
        await database.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('erased_at', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  await waitFor(
    'the run to be early in its second batch',
    async () => {
      const recorded = (await runRow(runId)).erased;
      const unrecorded = (await erasedOrders()) - recorded;
      return recorded >= BATCH && unrecorded > 0 && unrecorded <= BATCH / 2;
    },
    30_000,
    2,
  );
  first.process.kill('SIGKILL');
  expect(await first.exited).toBeNull(); // killed by the signal, no exit code: nothing ran on the way out

  const atKill = await runRow(runId);
  expect(atKill.state).toBe('running');
  const statesAtKill = await orderStates();
  const erasedAtKill = statesAtKill.filter((s) => s.erased_at).length;
  expect(erasedAtKill).toBeGreaterThan(atKill.erased);
  expect(erasedAtKill).toBeLessThan(DUE);
  expectNoneHalfErased(statesAtKill);

  // A second server: "Run now" is refused while the dead run's heartbeat is fresh, then continues that same run.
  const second = await startServer();
  let resumed: { status: number; run?: RetentionRun } = { status: 0 };
  await waitFor(
    'the dead run to be taken over',
    async () => {
      resumed = await startRun(second);
      expect([200, 409]).toContain(resumed.status);
      return resumed.status === 200;
    },
    30_000,
    250,
  );
  expect(resumed.run).toMatchObject({ id: runId, resumed: 1 });
  await waitFor('the run to finish', async () => (await runRow(runId)).state === 'finished', 60_000, 100);

  const done = await runRow(runId);
  const states = await orderStates();
  expectNoneHalfErased(states);
  const kept = states.filter((s) => !s.erased_at).map((s) => s.order_id);
  expect(kept.sort()).toEqual([held, disputed].sort());
  // Every due order counted once, those the killed batch erased before it could record them included.
  expect(done).toMatchObject({ erased: DUE, skipped: 2, file_failures: 0 });
  // Each file is deleted (below); only the deletions the killed process made before its batch's record go uncounted.
  expect(done.files_deleted).toBeGreaterThan(DUE - BATCH - 1);
  const store = new LocalDocumentStore(path.join(dataDir, 'documents'));
  for (const s of states) {
    expect(await store.exists(signatures.get(s.order_id)!), s.order_id).toBe(kept.includes(s.order_id));
  }
});
