// The demo seeder: a small load covers every status, processing type, landing site and role, leaves the
// folder counters exact with their trigger live again, and the same seed always gives the same rows.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import {
  PROCESS_STATUSES,
  PROCESSING_TYPES,
  STAFF_TYPES,
  type DefencePackDetails,
  type Dispute,
  type DisputesReportRow,
  type OrderDetails,
  type OrderListPage,
} from '@eta/contracts';
import type { DatabaseHandle } from '../src/db/database.js';
import type { DB } from '../src/db/schema.js';
import { verifyPassword } from '../src/modules/auth/passwords.js';
import { DEMO_STAFF, seedDemoData, seedDemoDataIfEmpty, type SeedResult } from '../src/demo/demo-data.js';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import { createTestDatabase } from './helpers/test-database.js';
import { pdfPages } from './helpers/pdf-files.js';
import { orderFieldsOf, TEST_DATA_KEY, testKeyring } from './helpers/personal-data.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

const distinct = async (
  db: Kysely<DB>,
  column: 'process_status' | 'processing_type' | 'landing_site' | 'citizen_country',
) => (await db.selectFrom('orders').select(column).distinct().execute()).map((r) => r[column]);

/** What "identical data" is checked on: the orders and their remarks, in a stable order. */
async function snapshot(db: Kysely<DB>) {
  const orders = await db
    .selectFrom('orders')
    .select([
      'id',
      'order_id',
      'email',
      'process_status',
      'processing_type',
      'processing_date',
      'payment_status',
      'passport_surname',
      'personal_sealed',
      'citizen_country',
      'created_at',
      'assign_date',
      'amount_cents',
    ])
    .orderBy('order_id')
    .execute();
  // Passport numbers are sealed (issue 24), each with a fresh IV: compared as the order detail opens them.
  const fields = orderFieldsOf(await testKeyring(db));
  const opened = await Promise.all(
    orders.map(async ({ personal_sealed, ...order }) => ({
      ...order,
      passport_number: (await fields.open(order.order_id, personal_sealed)).passport_number,
    })),
  );
  const remarks = await db
    .selectFrom('remarks')
    .innerJoin('orders', 'orders.id', 'remarks.order_id')
    .select(['orders.order_id', 'remarks.remark_name', 'remarks.remark', 'remarks.created_at'])
    .orderBy('remarks.id')
    .execute();
  return { orders: opened, remarks };
}

/** On PostgreSQL the rows go in with COPY (the seeding CLI's way); on PGlite as JSON batches. */
const copy = (handle: DatabaseHandle) => (handle.connectionString ? { connectionString: handle.connectionString } : {});

/** order_counters as rows, and the same figures counted afresh from orders. */
async function counters(db: Kysely<DB>) {
  const kept = await sql<{ key: string; n: number }>`
    SELECT concat_ws('|', process_status, processing_type, assign_to, processing_date) AS key, sum(n)::int AS n
      FROM order_counters GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1`.execute(db);
  const counted = await sql<{ key: string; n: number }>`
    SELECT concat_ws('|', process_status, processing_type, coalesce(assign_to, 0),
             CASE WHEN processing_type = 'Future' AND process_status = 'New' THEN processing_date ELSE '-infinity'::date END) AS key,
           count(*)::int AS n
      FROM orders WHERE payment_status = 'Success' GROUP BY 1 ORDER BY 1`.execute(db);
  return { kept: kept.rows, counted: counted.rows };
}

describe('demo data', () => {
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let result: SeedResult;
  let dir: string;
  let store: LocalDocumentStore;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'eta-seed-'));
    store = new LocalDocumentStore(dir);
    [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    result = await seedDemoData(first.db, {
      keyring: await testKeyring(first.db),
      orders: 300,
      seed: 7,
      store,
      ...copy(first),
    });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates demo staff of every role, sharing the demo password', async () => {
    expect(result.staff).toHaveLength(DEMO_STAFF.length);
    expect(result.staffPassword).toBe('demo1234');
    const staff = await first.db.selectFrom('staff').select(['type', 'password_hash']).execute();
    expect(new Set(staff.map((s) => s.type))).toEqual(new Set(STAFF_TYPES));
    expect(await verifyPassword(staff[0]!.password_hash, 'demo1234')).toBe(true);
  });

  it('covers every status, processing type and landing site, and many countries', async () => {
    const db = first.db;
    expect(result.orders).toBe(300);
    expect(result.firstOrderId).toBe('ETA-200000001');
    expect(result.lastOrderId).toBe('ETA-200000300');
    expect((await distinct(db, 'process_status')).sort()).toEqual([...PROCESS_STATUSES].sort());
    expect((await distinct(db, 'processing_type')).sort()).toEqual([...PROCESSING_TYPES].sort());
    const sites = await db.selectFrom('landing_sites').select('key').execute();
    expect((await distinct(db, 'landing_site')).sort()).toEqual(sites.map((s) => s.key).sort());
    expect((await distinct(db, 'citizen_country')).length).toBeGreaterThanOrEqual(10);
    // Every status shows up in the queues, which list paid orders only.
    const paid = await db
      .selectFrom('orders')
      .select('process_status')
      .distinct()
      .where('payment_status', '=', 'Success')
      .execute();
    expect(paid).toHaveLength(PROCESS_STATUSES.length);
  });

  it('keeps the rules of DESIGN §2–3 and the table constraints', async () => {
    const db = first.db;
    const broken = await sql<{ order_id: string; rule: string }>`
      SELECT order_id, 'pending without assignee' AS rule FROM orders WHERE process_status = 'Pending' AND assign_to IS NULL
      UNION ALL SELECT order_id, 'new but assigned' FROM orders WHERE process_status = 'New' AND assign_to IS NOT NULL
      UNION ALL SELECT order_id, 'refund without date' FROM orders
                 WHERE process_status IN ('Refunds', 'Refund Completed') AND refund_date IS NULL
      UNION ALL SELECT order_id, 'paid without transaction' FROM orders WHERE payment_status = 'Success' AND transaction_id IS NULL
      UNION ALL SELECT order_id, 'unpaid but processed' FROM orders WHERE payment_status <> 'Success' AND process_status <> 'New'
      UNION ALL SELECT o.order_id, 'completed without approval mail' FROM orders o
                 WHERE o.process_status = 'Completed'
                   AND NOT EXISTS (SELECT 1 FROM mails m WHERE m.order_id = o.id AND m.kind = 'approval' AND m.state = 'sent')
      UNION ALL SELECT o.order_id, 'download before approval' FROM downloads d JOIN orders o ON o.id = d.order_id
                 WHERE NOT EXISTS (SELECT 1 FROM mails m WHERE m.order_id = o.id AND m.created_at <= d.created_at)
      UNION ALL SELECT order_id, 'created in the future' FROM orders WHERE created_at > '2026-11-20T12:00:00Z'`.execute(
      db,
    );
    expect(broken.rows).toEqual([]);
    const [remarks, downloads] = await Promise.all([
      db
        .selectFrom('remarks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('downloads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    expect(Number(remarks.n)).toBe(result.remarks);
    expect(result.remarks).toBeGreaterThan(200);
    expect(Number(downloads.n)).toBe(result.downloads);
    expect(result.downloads).toBeGreaterThan(0);
  });

  // What a person sees of this data on the desk (issue 33): it must not contradict itself. The app opens the seeded
  // database with the data key the seeding used; it runs before the tests below change the data.
  describe('on the desk', () => {
    let t: TestApp;
    let admin: { token: string };
    const as = (token: string) => ({ authorization: token });

    beforeAll(async () => {
      // The database stays open for the tests below: closing the app leaves it to the file's afterAll.
      t = await buildTestApp(
        { dataKey: Buffer.from(TEST_DATA_KEY, 'base64') },
        { database: { ...first, close: async () => undefined } },
      );
      admin = await t.signIn('Admin');
    });
    afterAll(() => t?.close());

    it('lists every Charge Back order with its dispute: gateway, reason, amount and evidence due date', async () => {
      const res = await t.app.inject({
        url: '/api/admin/get-orders-list/chargeBack?page=1&limit=100',
        headers: as(admin.token),
      });
      expect(res.statusCode, res.body).toBe(200);
      const { rows, total } = res.json<{ data: OrderListPage }>().data;
      expect(total).toBeGreaterThan(3);
      expect(rows).toHaveLength(total);
      for (const row of rows) {
        expect(row.dispute, row.order_id).toMatchObject({
          reason: expect.stringMatching(/\w/),
          amount_cents: expect.any(Number),
          currency: 'USD',
          evidence_due_by: expect.stringMatching(/Z$/),
        });
        expect(row.dispute!.amount_cents, row.order_id).toBeGreaterThan(0);
      }
      // The order's Chargeback panel: the dispute with its gateway and the history of what happened to it.
      const disputes = await t.app.inject({
        url: `/api/admin/disputes/${rows[0]!.order_id}`,
        headers: as(admin.token),
      });
      expect(disputes.statusCode, disputes.body).toBe(200);
      const [dispute] = disputes.json<{ data: Dispute[] }>().data;
      expect(['Stripe', 'PayPal']).toContain(dispute!.gateway_name);
      expect(dispute!.history[0]!.note).toMatch(/^Chargeback opened at (Stripe|PayPal): /);
    });

    it('fills the Disputes Report with disputes opened, won and lost', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/reports/disputes',
        headers: as(admin.token),
        payload: {},
      });
      expect(res.statusCode, res.body).toBe(200);
      const { rows, totals } = res.json<{
        data: { rows: DisputesReportRow[]; totals: Omit<DisputesReportRow, 'month'> };
      }>().data;
      expect(rows.length).toBeGreaterThan(0);
      expect(totals.opened).toBeGreaterThan(3);
      expect(totals.won).toBeGreaterThan(0);
      expect(totals.lost).toBeGreaterThan(0);
      expect(totals.open).toBeGreaterThan(0);
    });

    it("shows every comment staff made on an order in the order's Activity", async () => {
      const { rows } = await sql<{ order_id: string }>`
        SELECT o.order_id FROM orders o
         WHERE (SELECT count(*) FROM remarks r WHERE r.order_id = o.id AND r.staff_id IS NOT NULL) >= 2
         ORDER BY o.id LIMIT 5`.execute(first.db);
      expect(rows).toHaveLength(5);
      for (const { order_id } of rows) {
        const res = await t.app.inject({ url: `/api/admin/get-orders-details/${order_id}`, headers: as(admin.token) });
        expect(res.statusCode, res.body).toBe(200);
        const order = res.json<{ data: OrderDetails }>().data;
        const byStaff = order.remark.filter((r) => r.remark_name !== 'Stripe' && r.remark_name !== 'PayPal');
        expect(order.activity.length, order_id).toBeGreaterThanOrEqual(byStaff.length);
        for (const remark of byStaff) {
          expect(order.activity, `${order_id}: ${remark.remark}`).toContainEqual(
            expect.objectContaining({ at: remark.create_ts, actor: remark.remark_name }),
          );
        }
      }
      // No order with a staff comment has an empty Activity.
      const { rows: silent } = await sql<{ order_id: string }>`
        SELECT o.order_id FROM orders o
         WHERE EXISTS (SELECT 1 FROM remarks r WHERE r.order_id = o.id AND r.staff_id IS NOT NULL)
           AND NOT EXISTS (SELECT 1 FROM audit_log a WHERE a.order_id = o.id)`.execute(first.db);
      expect(silent).toEqual([]);
    });

    it('dates the legal texts every order agreed to before the oldest order, as its defence pack says', async () => {
      const { rows } = await sql<{ order_id: string; saved: Date; signed: Date }>`
        SELECT o.order_id, lt.created_at AS saved, o.customer_date AS signed
          FROM orders o JOIN legal_texts lt ON lt.landing_site = o.landing_site AND lt.version = o.legal_version
         WHERE o.process_status = 'Completed'
         ORDER BY o.created_at LIMIT 1`.execute(first.db);
      const oldest = rows[0]!;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/defence-pack-details',
        headers: as(admin.token),
        payload: { orderId: oldest.order_id, defencePackType: 1 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { agreement } = res.json<{ data: DefencePackDetails }>().data;
      expect(agreement.legalVersion).toBe(1);
      expect(Date.parse(agreement.legalVersionSavedAt)).toBeLessThan(Date.parse(agreement.signedAt!));
      const { rows: late } = await sql<{ order_id: string }>`
        SELECT o.order_id FROM orders o
          JOIN legal_texts lt ON lt.landing_site = o.landing_site AND lt.version = o.legal_version
         WHERE lt.created_at > least(o.created_at, o.customer_date)`.execute(first.db);
      expect(late).toEqual([]);
    });
  });

  it('gives every order a stored signature and every order whose approval was mailed its approved document', async () => {
    const db = first.db;
    const { rows } = await sql<{ order_id: string; rule: string }>`
      SELECT order_id, 'no signature' AS rule FROM orders WHERE customer_sign IS NULL
      UNION ALL SELECT o.order_id, 'approval mail without a document' FROM orders o
                 WHERE EXISTS (SELECT 1 FROM mails m WHERE m.order_id = o.id AND m.kind = 'approval')
                   AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.order_id = o.id)
      UNION ALL SELECT o.order_id, 'document not uploaded when processed' FROM orders o JOIN documents d ON d.order_id = o.id
                 WHERE d.created_at <> o.processed_at OR d.uploaded_by IS DISTINCT FROM o.processed_by`.execute(db);
    expect(rows).toEqual([]);
    const signatures = await db.selectFrom('orders').select('customer_sign').distinct().execute();
    expect(signatures).toHaveLength(1);
    expect((await store.read(signatures[0]!.customer_sign!)).subarray(1, 4).toString()).toBe('PNG');
    const documents = await db
      .selectFrom('documents')
      .select(['storage_key', 'sha256', 'content_type'])
      .distinct()
      .execute();
    expect(documents).toHaveLength(1);
    const pdf = await store.read(documents[0]!.storage_key);
    expect((await pdfPages(pdf)).join(' ')).toMatch(
      /DEMO DOCUMENT - NOT A REAL eTA.*not issued by the Government of Canada/,
    );
    expect(documents[0]!.content_type).toBe('application/pdf');
  });

  it('gives identical rows for the same seed in another empty database', async () => {
    const again = await seedDemoData(second.db, {
      keyring: await testKeyring(second.db),
      orders: 300,
      seed: 7,
      store,
      ...copy(second),
    });
    expect(again.orders).toBe(300);
    const [a, b] = await Promise.all([snapshot(first.db), snapshot(second.db)]);
    expect(b).toEqual(a);
    const other = await createTestDatabase();
    try {
      await seedDemoData(other.db, {
        keyring: await testKeyring(other.db),
        orders: 300,
        seed: 8,
        store,
        ...copy(other),
      });
      expect((await snapshot(other.db)).orders.map((o) => o.email)).not.toEqual(a.orders.map((o) => o.email));
    } finally {
      await other.close();
    }
  });

  it('leaves order_counters exact and its trigger live again', async () => {
    const db = first.db;
    const before = await counters(db);
    expect(before.kept).toEqual(before.counted);

    // An unassigned, paid, New Standard order: one more in that counter, then moved on to Completed.
    const newStandard = (rows: { key: string; n: number }[]) =>
      rows.find((r) => r.key === 'New|Standard|0|-infinity')?.n ?? 0;
    const { id } = await db
      .insertInto('orders')
      .values({
        order_id: 'ETA-250000000',
        email: 'trigger@example.com',
        landing_site: 'default',
        payment_status: 'Success',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const afterInsert = await counters(db);
    expect(afterInsert.kept).toEqual(afterInsert.counted);
    expect(newStandard(afterInsert.kept)).toBe(newStandard(before.kept) + 1);

    await db.updateTable('orders').set({ process_status: 'Completed' }).where('id', '=', id).execute();
    const afterUpdate = await counters(db);
    expect(afterUpdate.kept).toEqual(afterUpdate.counted);
    expect(newStandard(afterUpdate.kept)).toBe(newStandard(before.kept));

    // Each connection writes its own stripe of a counter; folding adds them into one row each, counts unchanged.
    expect(
      await sql`SELECT 1 FROM order_counters WHERE stripe <> 0`.execute(db).then((r) => r.rows.length),
    ).toBeGreaterThan(0);
    await sql`SELECT fold_counter_stripes()`.execute(db);
    const folded = await counters(db);
    expect(folded).toEqual(afterUpdate);
    const stripes = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM order_counters WHERE stripe <> 0 OR n = 0
      UNION ALL SELECT count(*)::int FROM order_report_counts WHERE stripe <> 0 OR n = 0`.execute(db);
    expect(stripes.rows).toEqual([{ n: 0 }, { n: 0 }]);
  });

  it('records who processed every delivered order, and the report counters match the orders', async () => {
    const db = first.db;
    const { rows } = await sql<{ status: string; processed: number; total: number; by_worker: number }>`
      SELECT process_status AS status, count(processed_by)::int AS processed, count(*)::int AS total,
             count(*) FILTER (WHERE s.type IN ('Team', 'Manager'))::int AS by_worker
        FROM orders o LEFT JOIN staff s ON s.id = o.processed_by
       WHERE payment_status = 'Success' AND process_status IN ('Completed', 'Customer Called', 'ChargeBack', 'New')
         AND order_id <> 'ETA-250000000' -- completed by hand in the test before
       GROUP BY 1 ORDER BY 1`.execute(db);
    for (const r of rows) {
      if (r.status === 'New') expect(r.processed).toBe(0);
      else expect([r.status, r.processed, r.by_worker]).toEqual([r.status, r.total, r.total]);
    }
    const { rows: check } = await sql<{ kept: number; counted: number; kept_p: number; counted_p: number }>`
      SELECT (SELECT sum(n)::int FROM order_report_counts) AS kept,
             (SELECT count(*)::int FROM orders WHERE payment_status = 'Success') AS counted,
             (SELECT sum(n)::int FROM processed_report_counts) AS kept_p,
             (SELECT count(*)::int FROM orders WHERE payment_status = 'Success' AND processed_by IS NOT NULL) AS counted_p
    `.execute(db);
    expect(check[0]!.kept).toBe(check[0]!.counted);
    expect(check[0]!.kept_p).toBe(check[0]!.counted_p);
    expect(check[0]!.kept_p).toBeGreaterThan(0);
  });

  it('appends after the highest order id, reusing existing demo staff; IfEmpty leaves a seeded database alone', async () => {
    expect(await seedDemoDataIfEmpty(first.db, { keyring: await testKeyring(first.db), orders: 10, store })).toBeNull();
    const staffBefore = await first.db.selectFrom('staff').select('id').execute();
    // An intake order's random id (ETA-300000000 and up) does not move where demo ids go on.
    await first.db
      .insertInto('orders')
      .values({ order_id: 'ETA-912345678', email: 'intake@example.com', landing_site: 'default' })
      .execute();
    const more = await seedDemoData(first.db, {
      keyring: await testKeyring(first.db),
      orders: 20,
      seed: 7,
      store,
      ...copy(first),
    });
    expect(more).toMatchObject({ orders: 20, firstOrderId: 'ETA-250000001', lastOrderId: 'ETA-250000020', staff: [] });
    expect(await first.db.selectFrom('staff').select('id').execute()).toHaveLength(staffBefore.length);
    const c = await counters(first.db);
    expect(c.kept).toEqual(c.counted);
  });

  it('sets indexes and foreign keys aside for a large load and restores them exactly, enforced again', async () => {
    const db = await createTestDatabase();
    const schema = async () => {
      const { rows } = await sql<{ kind: string; name: string; definition: string }>`
        SELECT 'index' AS kind, c.relname AS name,
               pg_get_indexdef(i.indexrelid) || coalesce(' stats ' || (
                 SELECT string_agg(a.attnum || '=' || a.attstattarget, ',' ORDER BY a.attnum) FROM pg_attribute a
                  WHERE a.attrelid = i.indexrelid AND a.attstattarget >= 0), '') AS definition
          FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE i.indrelid IN ('orders'::regclass, 'remarks'::regclass, 'mails'::regclass, 'downloads'::regclass,
                              'documents'::regclass, 'disputes'::regclass, 'dispute_history'::regclass,
                              'audit_log'::regclass)
        UNION ALL
        SELECT 'constraint', conrelid::regclass::text || '.' || conname, pg_get_constraintdef(oid)
          FROM pg_constraint WHERE conrelid IN ('orders'::regclass, 'remarks'::regclass, 'mails'::regclass,
                                                'downloads'::regclass, 'documents'::regclass, 'disputes'::regclass,
                                                'dispute_history'::regclass, 'audit_log'::regclass)
         ORDER BY 1, 2`.execute(db.db);
      return rows;
    };
    try {
      // A statistics target is not part of an index's definition; one set here must survive the load too, and so
      // must migration 040's 0 (no statistics) on the four-character index.
      await sql`ALTER INDEX orders_email_idx ALTER COLUMN 1 SET STATISTICS 500`.execute(db.db);
      const before = await schema();
      expect(before.filter((r) => r.kind === 'constraint' && /^FOREIGN KEY /.test(r.definition))).not.toEqual([]);
      expect(before.find((r) => r.name === 'orders_email_idx')?.definition).toMatch(/ stats 1=500$/);
      expect(before.find((r) => r.name === 'orders_search_quads_idx')?.definition).toMatch(/ stats 1=0$/);
      const phases = new Set<string>();
      const loaded = await seedDemoData(db.db, {
        ...copy(db),
        keyring: await testKeyring(db.db),
        store,
        orders: 120,
        seed: 3,
        bulkLoadAbove: 100,
        onProgress: (p) => phases.add(p.phase),
      });
      expect(loaded.orders).toBe(120);
      expect(phases.has('indexes')).toBe(true); // the bulk path ran
      expect(await schema()).toEqual(before);
      await expect(
        sql`INSERT INTO remarks (order_id, remark_name, remark) VALUES (-1, 'x', 'no such order')`.execute(db.db),
      ).rejects.toThrow(/foreign key/);
    } finally {
      await db.close();
    }
  });
});
