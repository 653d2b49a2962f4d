// Every read of personal data on the record (issue 24): opening an order's detail, a defence pack, the signature image
// or exporting a CSV writes one access record (who, what, when, from where), written in batches; list pages write
// none. The order's "Viewed by" and the Activity page's reads list filter and page; an unusual reading pattern
// raises one alert per member per window, which an Admin acknowledges (audited).
import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccessAlertsPage, AccessRecordPage, AccessRecordRow } from '@eta/contracts';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import { AccessRecordWriter, UNUSUAL_READS } from '../src/modules/access-records/access-record-writer.js';
import { insertAccessRecords } from '../src/modules/access-records/access-records.repository.js';
import { RECORDED_READS } from '../src/modules/access-records/recorded-reads.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder, orderValues } from './helpers/orders.js';
import { testBackend } from './helpers/test-database.js';
import { samplePng } from './helpers/pdf-files.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

type Member = Awaited<ReturnType<TestApp['signIn']>>;

let t: TestApp;
let admin: Member;
let manager: Member;
let team: Member;
let telecaller: Member;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn('Admin', 'Audrey Admin');
  manager = await t.signIn('Manager', 'Rajesh Menon');
  team = await t.signIn('Team', 'Theo Team');
  telecaller = await t.signIn('Telecaller', 'Tara Telecaller');
});
afterAll(() => t.close());

const get = (url: string, member: Member, headers: Record<string, string> = {}, remoteAddress = '198.51.100.7') =>
  t.app.inject({ url, headers: { authorization: member.token, ...headers }, remoteAddress });
const post = (url: string, member: Member, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: { authorization: member.token }, payload });

/** Every access record of the order, oldest first, straight from the table (after the writer's flush). */
async function recordsOf(orderId: string) {
  await t.app.services.accessRecords.flush();
  return t.database.db
    .selectFrom('access_records as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.staff_id', 'r.staff_name', 'r.kind', 'r.detail', 'r.ip', 'r.browser', 'r.os', 'r.device_type'])
    .where('o.order_id', '=', orderId)
    .orderBy('r.id')
    .execute();
}

const countAll = async () => {
  await t.app.services.accessRecords.flush();
  const { n } = await t.database.db
    .selectFrom('access_records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
};

describe('each kind of read', () => {
  it("opening an order's detail writes one record: who, what, when and from where", async () => {
    const orderId = await insertOrder(t.database.db);
    const before = Date.now();
    const res = await get(`/api/admin/get-orders-details/${orderId.toLowerCase()}`, team, { 'user-agent': CHROME });
    expect(res.statusCode, res.body).toBe(200);
    expect(await recordsOf(orderId)).toEqual([
      {
        staff_id: team.id,
        staff_name: 'Theo Team',
        kind: 'detail',
        detail: null,
        ip: '198.51.100.7',
        browser: 'Chrome 131',
        os: 'Windows 10',
        device_type: 'desktop',
      },
    ]);
    const [row] = await t.database.db
      .selectFrom('access_records')
      .select('at')
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(row!.at.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(row!.at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('a defence pack writes one record naming the pack, as a PDF or as details', async () => {
    const orderId = await insertOrder(t.database.db, { process_status: 'Completed' });
    const pdf = await post('/api/admin/get-defence-pack-pdf', team, { orderId, defencePackType: 1 });
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    const details = await post('/api/admin/defence-pack-details', manager, { orderId, defencePackType: 2 });
    expect(details.statusCode, details.body).toBe(200);
    expect(await recordsOf(orderId)).toEqual([
      expect.objectContaining({ staff_name: 'Theo Team', kind: 'defence-pack', detail: 'Defence Pack 1 (PDF)' }),
      expect.objectContaining({ staff_name: 'Rajesh Menon', kind: 'defence-pack', detail: 'Defence Pack 2 (details)' }),
    ]);
  });

  it('the signature image writes one document record', async () => {
    const store = new LocalDocumentStore(path.join(t.config.dataDir, 'documents'));
    const { key } = await store.put(samplePng(), { extension: 'png' });
    const orderId = await insertOrder(t.database.db, { customer_sign: key });
    const res = await get(`/api/admin/order-signature/${orderId}`, telecaller, { 'user-agent': SAFARI_IPHONE });
    expect(res.statusCode).toBe(200);
    expect(await recordsOf(orderId)).toEqual([
      expect.objectContaining({
        staff_name: 'Tara Telecaller',
        kind: 'document',
        detail: 'Signature image',
        browser: 'Mobile Safari 18',
        os: 'iOS 18.1',
        device_type: 'mobile',
      }),
    ]);
  });

  it('a CSV export writes one record with what was exported and how many rows, not one per row', async () => {
    const orderId = await insertOrder(t.database.db);
    for (const remark of ['first', 'second', 'third']) {
      expect((await post('/api/admin/add-new-remark', team, { orderId, remark })).statusCode).toBe(200);
    }
    const res = await get(`/api/admin/activity/csv?orderId=${orderId}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.body.trim().split('\r\n')).toHaveLength(4);
    await t.app.services.accessRecords.flush();
    const exports = await t.database.db
      .selectFrom('access_records')
      .select(['staff_name', 'order_id', 'detail', 'ip'])
      .where('kind', '=', 'export')
      .execute();
    expect(exports).toEqual([
      {
        staff_name: 'Audrey Admin',
        order_id: null,
        detail: `Activity CSV (order ${orderId}): 3 rows`,
        ip: '198.51.100.7',
      },
    ]);
  });

  it('a subject-access export writes one record on each exported order, shown on its Viewed by, naming whose data', async () => {
    const email = 'Ada.Subject@Mail.test';
    const first = await insertOrder(t.database.db, { email: email.toLowerCase() });
    const second = await insertOrder(t.database.db, { email: email.toLowerCase() });
    const someoneElse = await insertOrder(t.database.db);
    const res = await post('/api/admin/subject-requests/export.json', admin, { email });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    await t.app.services.accessRecords.flush();
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('target')
      .where('action', '=', 'subject.access')
      .executeTakeFirstOrThrow();
    const viewedBy = async (orderId: string) => {
      // What the order detail page's "Viewed by" asks for.
      const page = await get(`/api/admin/orders/${orderId}/access-records`, manager);
      expect(page.statusCode, page.body).toBe(200);
      return page.json<{ data: AccessRecordPage }>().data.rows.map((r) => [r.staff_name, r.kind, r.order_id, r.detail]);
    };
    for (const orderId of [first, second]) {
      expect(await viewedBy(orderId)).toEqual([
        ['Audrey Admin', 'export', orderId, `Subject-access export (JSON) of ${audit.target}`],
      ]);
    }
    expect(await viewedBy(someoneElse)).toEqual([]);

    const pdf = await post('/api/admin/subject-requests/export.pdf', admin, { email });
    expect(pdf.statusCode).toBe(200);
    await t.app.services.accessRecords.flush();
    expect((await viewedBy(second))[0]).toEqual([
      'Audrey Admin',
      'export',
      second,
      `Subject-access export (PDF) of ${audit.target}`,
    ]);
    // An export that found no order still leaves one record (on the Activity page), without an order.
    const nobody = await post('/api/admin/subject-requests/export.json', admin, { email: 'no.one@mail.test' });
    expect(nobody.statusCode).toBe(200);
    await t.app.services.accessRecords.flush();
    const unordered = await t.database.db
      .selectFrom('access_records')
      .select(['staff_name', 'order_id'])
      .where('detail', 'like', 'Subject-access%')
      .where('order_id', 'is', null)
      .execute();
    expect(unordered).toEqual([{ staff_name: 'Audrey Admin', order_id: null }]);
  });

  it('a read that fails writes nothing', async () => {
    const before = await countAll();
    expect((await get('/api/admin/get-orders-details/ETA-999999999', team)).statusCode).toBe(404);
    const open = await insertOrder(t.database.db, { process_status: 'New' });
    // Defence packs exist only for Completed and Customer Called orders.
    expect(
      (await post('/api/admin/get-defence-pack-pdf', team, { orderId: open, defencePackType: 1 })).statusCode,
    ).toBe(409);
    expect((await get(`/api/admin/order-signature/${open}`, team)).statusCode).toBe(404);
    expect(await countAll()).toBe(before);
  });

  it('names only routes the app serves', () => {
    const registered = new Set(t.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    expect(Object.keys(RECORDED_READS).filter((route) => !registered.has(route))).toEqual([]);
  });
});

describe('list pages show no sensitive field and write no record', () => {
  it('queue lists, search, folder counts and an order’s disputes', async () => {
    await insertOrder(t.database.db, { passport_surname: 'Listed' });
    const before = await countAll();
    for (const url of [
      '/api/admin/get-orders-list/newOrder?page=1&limit=10',
      '/api/admin/get-orders-list/orderHistory?page=1&limit=10',
      '/api/admin/get-folder-count',
      '/api/admin/future-order-counts',
    ]) {
      expect((await get(url, admin)).statusCode, url).toBe(200);
    }
    expect(
      (await t.search(admin.token, { start: 0, end: 10, searchVal: 'Listed', folderName: 'newOrder' })).total,
    ).toBe(1);
    expect(await countAll()).toBe(before);
  });
});

describe('from where', () => {
  it('takes the client address from X-Forwarded-For only with TRUST_PROXY', async () => {
    const proxied = await buildTestApp({ trustProxy: true });
    try {
      const member = await proxied.signIn('Team', 'Pat Proxy');
      const orderId = await insertOrder(proxied.database.db);
      await proxied.app.inject({
        url: `/api/admin/get-orders-details/${orderId}`,
        headers: { authorization: member.token, 'x-forwarded-for': '203.0.113.50' },
        remoteAddress: '10.0.0.2',
      });
      await proxied.app.services.accessRecords.flush();
      const rows = await proxied.database.db.selectFrom('access_records').select(['ip', 'staff_name']).execute();
      expect(rows).toEqual([{ ip: '203.0.113.50', staff_name: 'Pat Proxy' }]);
    } finally {
      await proxied.close();
    }
  });

  it('keeps the address of clients that leave while their answer is sent, and every batch is written', async () => {
    // A connection closed before the answer's hooks ran has no address left to read: a record made then had none,
    // the table refused it and its whole batch with it, and every later batch was refused behind it.
    const failures: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          const { level, msg } = JSON.parse(line) as { level: number; msg: string };
          if (level >= 40) failures.push(msg);
        }
        callback();
      },
    });
    const leaving = await buildTestApp({}, { logger: { level: 'warn', stream } });
    try {
      const member = await leaving.signIn('Team', 'Lea Leaving');
      const orderId = await insertOrder(leaving.database.db);
      await leaving.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = leaving.app.server.address() as AddressInfo;
      let answered = 0;
      // Clients that give up after 0-3 ms: some before the statement, some while the answer is on its way.
      for (let i = 0; i < 400; i += 1) {
        await new Promise<void>((resolve) => {
          const req = http.get(
            {
              host: '127.0.0.1',
              port,
              path: `/api/admin/get-orders-details/${orderId}`,
              agent: false,
              headers: { authorization: member.token },
            },
            (res) => {
              res.resume();
              res.on('end', () => {
                answered += 1;
                resolve();
              });
            },
          );
          req.on('error', () => resolve());
          setTimeout(() => req.destroy(), Math.random() * 3);
        });
      }
      await leaving.app.services.accessRecords.flush();
      expect(failures).toEqual([]);
      const rows = await leaving.database.db.selectFrom('access_records').select('ip').execute();
      expect(rows.length).toBeGreaterThanOrEqual(answered);
      expect(new Set(rows.map((r) => r.ip))).toEqual(new Set(['127.0.0.1']));
    } finally {
      await leaving.close();
    }
  });
});

describe('the batched writer', () => {
  it('writes queued reads within about a second without a flush, and what is queued when the app closes', async () => {
    const app = await buildTestApp();
    const member = await app.signIn('Team', 'Quinn Queue');
    const orderId = await insertOrder(app.database.db);
    const records = () => app.database.db.selectFrom('access_records').select('staff_name').execute();
    await app.app.inject({ url: `/api/admin/get-orders-details/${orderId}`, headers: { authorization: member.token } });
    await vi.waitFor(async () => expect(await records()).toHaveLength(1), { timeout: 5_000, interval: 100 });

    await app.app.inject({ url: `/api/admin/get-orders-details/${orderId}`, headers: { authorization: member.token } });
    await app.app.inject({ url: `/api/admin/get-orders-details/${orderId}`, headers: { authorization: member.token } });
    // The app's close writes what is still queued, before the database closes.
    await app.app.close();
    expect(await records()).toHaveLength(3);
    await app.database.close();
    await rm(app.config.dataDir, { recursive: true, force: true });
  });
});

describe.runIf(testBackend() === 'postgres')('the batch insert on PostgreSQL', () => {
  it('is one prepared statement whatever the batch size', async () => {
    const member = await t.signIn('Team', 'Pia Prepared');
    const row = (n: number) => ({
      at: new Date(),
      staff_id: member.id,
      staff_name: member.name,
      order: null,
      kind: 'export' as const,
      detail: `batch row ${n}`,
      ip: '192.0.2.9',
      user_agent: null,
      browser: 'Unknown',
      os: 'Unknown',
      device: 'Unknown',
      device_type: 'Unknown',
    });
    const prepared = await t.database.db.transaction().execute(async (trx) => {
      for (const size of [1, 2, 5])
        await insertAccessRecords(
          trx,
          Array.from({ length: size }, (_, i) => row(i)),
        );
      const { rows } = await sql<{ statement: string; plans: number }>`
        SELECT statement, (generic_plans + custom_plans)::int AS plans FROM pg_prepared_statements
         WHERE statement ~ '^\\s*INSERT INTO access_records'`.execute(trx);
      return rows;
    });
    // One text for batches of 1, 2 and 5 rows (this connection may have written batches before).
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.plans).toBeGreaterThanOrEqual(3);
    const written = await t.database.db
      .selectFrom('access_records')
      .select('detail')
      .where('staff_id', '=', member.id)
      .execute();
    expect(written).toHaveLength(8);
  });
});

describe('who viewed an order', () => {
  let orderId: string;
  beforeAll(async () => {
    orderId = await insertOrder(t.database.db);
    for (const member of [team, manager, admin]) {
      expect((await get(`/api/admin/get-orders-details/${orderId}`, member)).statusCode).toBe(200);
    }
    await t.app.services.accessRecords.flush();
  });

  const viewedBy = (member: Member, query = '') => get(`/api/admin/orders/${orderId}/access-records${query}`, member);

  it('lists the reads newest first, a page at a time', async () => {
    const first = await viewedBy(manager, '?limit=2');
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json<{ data: AccessRecordPage }>().data;
    expect(page1.rows.map((r) => [r.staff_name, r.kind, r.order_id, r.ip])).toEqual([
      ['Audrey Admin', 'detail', orderId, '198.51.100.7'],
      ['Rajesh Menon', 'detail', orderId, '198.51.100.7'],
    ]);
    expect(page1.next).toEqual(expect.any(String));
    const page2 = (await viewedBy(manager, `?limit=2&cursor=${page1.next}`)).json<{ data: AccessRecordPage }>().data;
    expect(page2).toEqual({ rows: [expect.objectContaining({ staff_name: 'Theo Team' })], next: null });
  });

  it('is refused to a Telecaller, a Team member and Night Staff', async () => {
    const night = await t.signIn('Night Staff');
    for (const member of [telecaller, team, night]) {
      const res = await viewedBy(member);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await get('/api/admin/access-records', manager)).statusCode).toBe(403);
  });

  it('answers 404 for an unknown order and 400 for a cursor it did not make', async () => {
    expect((await get('/api/admin/orders/ETA-999999998/access-records', admin)).statusCode).toBe(404);
    expect((await viewedBy(admin, '?cursor=bm90LWEtY3Vyc29y')).statusCode).toBe(400);
  });
});

describe('the Activity page’s reads', () => {
  let orderA: string;
  let orderB: string;
  let reader: Member;

  beforeAll(async () => {
    reader = await t.signIn('Team', 'Rhea Reader');
    orderA = await insertOrder(t.database.db);
    orderB = await insertOrder(t.database.db);
    const key = async (orderId: string) =>
      (await t.database.db.selectFrom('orders').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow())
        .id;
    const row = (at: string, orderKey: number | null, kind: 'detail' | 'document' | 'export') => ({
      at: new Date(at),
      staff_id: reader.id,
      staff_name: reader.name,
      order_id: orderKey,
      kind,
      detail: null,
      ip: '192.0.2.1',
      browser: 'Firefox 133',
      os: 'Linux',
      device: 'Computer',
      device_type: 'desktop',
    });
    // Dated by hand at the edges of a UTC day.
    await t.database.db
      .insertInto('access_records')
      .values([
        row('2025-01-09T23:59:59.999Z', await key(orderA), 'detail'),
        row('2025-01-10T00:00:00.000Z', await key(orderA), 'document'),
        row('2025-01-10T23:59:59.999Z', await key(orderB), 'detail'),
        row('2025-01-11T00:00:00.000Z', null, 'export'),
      ])
      .execute();
  });

  const reads = async (query: string) => {
    const res = await get(`/api/admin/access-records?${query}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: AccessRecordPage }>().data;
  };
  const summary = (rows: AccessRecordRow[]) => rows.map((r) => `${r.at} ${r.kind} ${r.order_id ?? '-'}`);

  it('filters by member, order, kind and UTC dates', async () => {
    expect(summary((await reads(`staffId=${reader.id}`)).rows)).toEqual([
      `2025-01-11T00:00:00.000Z export -`,
      `2025-01-10T23:59:59.999Z detail ${orderB}`,
      `2025-01-10T00:00:00.000Z document ${orderA}`,
      `2025-01-09T23:59:59.999Z detail ${orderA}`,
    ]);
    expect(summary((await reads(`staffId=${reader.id}&orderId=${orderA.toLowerCase()}`)).rows)).toEqual([
      `2025-01-10T00:00:00.000Z document ${orderA}`,
      `2025-01-09T23:59:59.999Z detail ${orderA}`,
    ]);
    expect(summary((await reads(`staffId=${reader.id}&kind=detail`)).rows)).toEqual([
      `2025-01-10T23:59:59.999Z detail ${orderB}`,
      `2025-01-09T23:59:59.999Z detail ${orderA}`,
    ]);
    expect(summary((await reads('fromDate=2025-01-10&toDate=2025-01-10')).rows)).toEqual([
      `2025-01-10T23:59:59.999Z detail ${orderB}`,
      `2025-01-10T00:00:00.000Z document ${orderA}`,
    ]);
    expect(await reads('orderId=ETA-999999997')).toEqual({ rows: [], next: null });
  });

  it('pages over keys without repeats or gaps', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: AccessRecordPage = await reads(`staffId=${reader.id}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.rows.map((r) => String(r.id)));
      cursor = page.next;
    } while (cursor);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
  });

  it('refuses From after To and an unknown kind', async () => {
    const res = await get('/api/admin/access-records?fromDate=2025-01-11&toDate=2025-01-10', admin);
    expect(res.statusCode).toBe(400);
    expect((await get('/api/admin/access-records?kind=passport', admin)).statusCode).toBe(400);
  });
});

describe('an unusual reading pattern', () => {
  const { distinctOrders } = UNUSUAL_READS;

  async function manyOrders(n: number): Promise<string[]> {
    const values = Array.from({ length: n }, () => orderValues());
    await t.database.db.insertInto('orders').values(values).execute();
    return values.map((v) => v.order_id);
  }

  const alerts = async () => {
    const res = await get('/api/admin/access-alerts', admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: AccessAlertsPage }>().data;
  };

  it('raises one alert past the threshold of distinct orders in the window, none below it', async () => {
    const busy = await t.signIn('Team', 'Bea Busy');
    const steady = await t.signIn('Team', 'Sam Steady');
    const orders = await manyOrders(distinctOrders + 5);
    const accessRecords = t.app.services.accessRecords;
    const read = (member: Member, orderId: string) =>
      accessRecords.record(
        { staffId: member.id, staffName: member.name, ip: '192.0.2.8', userAgent: CHROME },
        { orderId, kind: 'detail', detail: null },
      );
    // One short of the threshold, and the same orders read again: distinct orders count, not reads.
    for (const orderId of orders.slice(0, distinctOrders - 1)) read(busy, orderId);
    for (const orderId of orders.slice(0, 50)) read(busy, orderId);
    for (const orderId of orders.slice(0, distinctOrders - 1)) read(steady, orderId);
    await accessRecords.flush();
    expect((await alerts()).rows.filter((a) => [busy.id, steady.id].includes(a.staff_id))).toEqual([]);

    read(busy, orders[distinctOrders - 1]!);
    await accessRecords.flush();
    const raised = (await alerts()).rows.filter((a) => a.staff_id === busy.id);
    expect(raised).toEqual([
      expect.objectContaining({ staff_name: 'Bea Busy', order_count: distinctOrders, acknowledged_at: null }),
    ]);
    const [alert] = raised;
    expect(new Date(alert!.window_end).getTime() - new Date(alert!.window_start).getTime()).toBeLessThanOrEqual(
      UNUSUAL_READS.windowMinutes * 60_000,
    );

    // Once per member per window: more reads in the same hour raise nothing new.
    for (const orderId of orders.slice(distinctOrders)) read(busy, orderId);
    await accessRecords.flush();
    expect((await alerts()).rows.filter((a) => a.staff_id === busy.id)).toHaveLength(1);
    expect((await alerts()).rows.filter((a) => a.staff_id === steady.id)).toEqual([]);
  });

  it('is acknowledged by an Admin, once, in the audit trail', async () => {
    const page = await alerts();
    const alert = page.rows.find((a) => a.acknowledged_at === null)!;
    expect(page.open).toBeGreaterThanOrEqual(1);

    expect((await post(`/api/admin/access-alerts/${alert.id}/acknowledge`, manager, {})).statusCode).toBe(403);
    const res = await post(`/api/admin/access-alerts/${alert.id}/acknowledge`, admin, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { id: alert.id, acknowledged_by: 'Audrey Admin' } });
    expect((await alerts()).open).toBe(page.open - 1);

    const again = await post(`/api/admin/access-alerts/${alert.id}/acknowledge`, admin, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This alert was already acknowledged by Audrey Admin.');
    expect((await post('/api/admin/access-alerts/999999/acknowledge', admin, {})).statusCode).toBe(404);

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['actor_name', 'target', 'after'])
      .where('action', '=', 'access.alert-acknowledge')
      .execute();
    expect(audit).toEqual([
      {
        actor_name: 'Audrey Admin',
        target: `staff:${alert.staff_id}`,
        after: { alert: alert.id, member: alert.staff_name, orders: alert.order_count },
      },
    ]);
  });

  it('a check that failed is made again by the next batch of the same orders, which then raises the alert', async () => {
    const member = await t.signIn('Team', 'Fay Failing');
    const orders = await manyOrders(distinctOrders);
    let checksFail = true;
    // The alert check (its advisory lock is its first statement) fails while checksFail; the inserts do not.
    const failingChecks: KyselyPlugin = {
      transformQuery({ node }) {
        if (checksFail && node.kind === 'RawNode' && node.sqlFragments.join('').includes('pg_advisory_xact_lock')) {
          throw new Error('the alert check could not run');
        }
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const errors: string[] = [];
    const writer = new AccessRecordWriter(t.database.db.withPlugin(failingChecks), {
      flushMs: 60_000,
      onError: (_err, message) => errors.push(message),
    });
    const reader = { staffId: member.id, staffName: member.name, ip: '192.0.2.10', userAgent: null };
    const readAll = () => {
      for (const orderId of orders) writer.record(reader, { orderId, kind: 'detail', detail: null });
    };
    const alertsOf = async () => (await alerts()).rows.filter((a) => a.staff_id === member.id);
    try {
      readAll();
      await writer.flush();
      expect(errors).toEqual([expect.stringContaining('the unusual-reading check failed')]);
      expect(await alertsOf()).toEqual([]);

      checksFail = false;
      readAll();
      await writer.flush();
      expect(await alertsOf()).toEqual([
        expect.objectContaining({ staff_name: 'Fay Failing', order_count: distinctOrders }),
      ]);
    } finally {
      await writer.close();
    }
  });

  it('is kept apart from the write audit: reading an order adds nothing to audit_log', async () => {
    const orderId = await insertOrder(t.database.db);
    const audited = () =>
      t.database.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
    const before = Number((await audited()).n);
    expect((await get(`/api/admin/get-orders-details/${orderId}`, team)).statusCode).toBe(200);
    await t.app.services.accessRecords.flush();
    expect(Number((await audited()).n)).toBe(before);
    expect(await recordsOf(orderId)).toHaveLength(1);
  });
});
