// Every queue of DESIGN §3: an order in each state lands in exactly the queues it should, and the
// folder counts, the list totals and the rows all agree.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  FOLDER_COUNT_KEYS,
  holdsOpenOrders,
  OPEN_STATUSES,
  PROCESS_STATUSES,
  QUEUES,
  QUEUE_NAMES,
  STAFF_TYPES,
  type ProcessStatus,
  type QueueName,
} from '@eta/contracts';
import { QUEUE_STATUSES } from '../src/modules/orders/queues.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { daysFromToday, insertOrder } from './helpers/orders.js';

let t: TestApp;
let alice: Awaited<ReturnType<TestApp['signIn']>>;
let bob: Awaited<ReturnType<TestApp['signIn']>>;
const expected = {} as Record<QueueName, string[]>;

beforeAll(async () => {
  t = await buildTestApp();
  alice = await t.signIn('Team', 'Alice Ames');
  bob = await t.signIn('Team', 'Bob Brown');
  const db = t.database.db;
  const o = {
    newStandard: await insertOrder(db),
    newPriority: await insertOrder(db, { processing_type: 'Priority' }),
    futureLater: await insertOrder(db, { processing_type: 'Future', processing_date: daysFromToday(40) }),
    // Bought before its processing date, as the intake requires.
    futureDue: await insertOrder(db, {
      processing_type: 'Future',
      processing_date: daysFromToday(-1),
      created_at: new Date(Date.now() - 2 * 86_400_000),
    }),
    pendingAlice: await insertOrder(db, { process_status: 'Pending', assign_to: alice.id }),
    pendingBob: await insertOrder(db, { process_status: 'Pending', assign_to: bob.id }),
    awaitingAlice: await insertOrder(db, { process_status: 'Awaiting', assign_to: alice.id }),
    awaitingGovt: await insertOrder(db, { process_status: 'AwaitingGovt' }),
    called: await insertOrder(db, { process_status: 'Customer Called' }),
    contact: await insertOrder(db, { process_status: 'Contact Customer' }),
    completedAlice: await insertOrder(db, { process_status: 'Completed', assign_to: alice.id }),
    refunds: await insertOrder(db, { process_status: 'Refunds', refund_date: new Date() }),
    refundCompleted: await insertOrder(db, { process_status: 'Refund Completed' }),
    chargeBack: await insertOrder(db, { process_status: 'ChargeBack' }),
    deletedAlice: await insertOrder(db, { process_status: 'Deleted', assign_to: alice.id }),
  };
  // Unpaid orders appear in no queue at all.
  await insertOrder(db, { payment_status: 'Pending' });
  await insertOrder(db, { payment_status: 'Failed', process_status: 'Completed' });

  const all = Object.values(o);
  Object.assign(expected, {
    newOrder: [o.newStandard, o.futureDue],
    priorityOrder: [o.newPriority],
    pendingOrder: [o.pendingAlice, o.pendingBob],
    myOrder: [o.pendingAlice, o.awaitingAlice],
    completedOrder: [o.completedAlice],
    awaitingResponse: [o.awaitingAlice],
    awaitingGovt: [o.awaitingGovt],
    customerCalled: [o.called],
    contactCustomer: [o.contact],
    orderHistory: all.filter((id) => id !== o.deletedAlice),
    deletedOrder: [o.deletedAlice],
    refundOrder: [o.refunds],
    chargeBack: [o.chargeBack],
    futureOrder: [o.futureLater],
  } satisfies Record<QueueName, string[]>);
});
afterAll(() => t.close());

const get = (url: string, token: string) => t.app.inject({ url, headers: { authorization: token } });

describe('queue definitions', () => {
  it.each(QUEUE_NAMES)('%s holds exactly its orders, and its count and total agree', async (queue) => {
    const res = await get(
      `/api/admin/get-orders-list/${queue}?page=1&limit=100&delay=1&userName=Alice%20Ames`,
      alice.token,
    );
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.rows.map((r: { order_id: string }) => r.order_id).sort()).toEqual([...expected[queue]].sort());
    expect(data.total).toBe(expected[queue].length);
    const counts = (await get('/api/admin/get-folder-count?userName=Alice%20Ames', alice.token)).json().data;
    expect(counts[QUEUES[queue].countKey]).toBe(expected[queue].length);
    // The statuses a name's index is read by for this queue (migration 025) are its orders' statuses.
    const statuses = QUEUE_STATUSES[queue];
    if (statuses) {
      for (const row of data.rows as { process_status: ProcessStatus }[])
        expect(statuses).toContain(row.process_status);
    }
  });

  it('reads a name in Order History through every status but Deleted, and in My Orders through its own index', () => {
    expect([...QUEUE_STATUSES.orderHistory!].sort()).toEqual(PROCESS_STATUSES.filter((s) => s !== 'Deleted').sort());
    expect(QUEUE_STATUSES.myOrder).toBeNull();
  });

  it('My Orders follows the signed-in person, whatever userName says', async () => {
    const res = await get('/api/admin/get-orders-list/myOrder?userName=Alice%20Ames', bob.token);
    expect(res.json().data.rows.map((r: { order_id: string }) => r.order_id)).toEqual([expected.pendingOrder[1]]);
  });

  it('lists newest first with a stable tie-breaker, paging without repeats or gaps', async () => {
    const db = t.database.db;
    const same = new Date('2025-06-01T10:00:00Z');
    for (let i = 0; i < 7; i += 1) await insertOrder(db, { process_status: 'ChargeBack', created_at: same });
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const { data } = (await get(`/api/admin/get-orders-list/chargeBack?page=${page}&limit=3`, alice.token)).json();
      seen.push(...data.rows.map((r: { order_id: string }) => r.order_id));
      expect(data.total).toBe(8);
    }
    expect(new Set(seen).size).toBe(8);
    const full = (await get('/api/admin/get-orders-list/chargeBack?limit=100', alice.token)).json().data.rows;
    expect(full.map((r: { order_id: string }) => r.order_id)).toEqual(seen);
    const times = full.map((r: { create_ts: string }) => r.create_ts);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('pages New as one list: Standard and due Future orders merged newest first, held and waiting ones left out', async () => {
    const db = t.database.db;
    const at = (day: number) => new Date(Date.UTC(2020, 0, day, 12));
    // Due Future orders processed from the day after their purchase, the soonest the intake allows: a page reads the
    // due orders back to the day its Standard orders reach, and these are the closest to that edge.
    const due = (day: number) => ({
      processing_type: 'Future' as const,
      processing_date: at(day + 1)
        .toISOString()
        .slice(0, 10),
      created_at: at(day),
    });
    const merged = [
      await insertOrder(db, { created_at: at(1) }),
      await insertOrder(db, due(2)),
      await insertOrder(db, due(3)),
      await insertOrder(db, { created_at: at(4) }),
      await insertOrder(db, due(4)),
      await insertOrder(db, { created_at: at(5) }),
    ].reverse(); // newest first; of the two day-4 orders the later insert (higher id) comes first
    await insertOrder(db, { ...due(3), assign_to: bob.id });

    const seen: string[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const { data } = (await get(`/api/admin/get-orders-list/newOrder?page=${page}&limit=2`, alice.token)).json();
      seen.push(...data.rows.map((r: { order_id: string }) => r.order_id));
    }
    // The beforeAll orders were bought today, so they lead; these follow in time order. Its not-yet-due Future
    // order and the held one above are in no page.
    expect(seen.slice(0, 2).sort()).toEqual([...expected.newOrder].sort());
    expect(seen.slice(2)).toEqual(merged);
  });

  it('gives the same New pages and search walks whether its due Future orders are marked yet or not; marking never takes one not due', async () => {
    const db = t.database.db;
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    // Standard orders hourly, due Future orders bought between them (processed from today and yesterday), and Future
    // orders not due bought as recently (a search walk of New used to step over those).
    for (let h = 25; h <= 30; h += 1)
      await insertOrder(db, { created_at: hoursAgo(h), email: `walk${h}@marks.example` });
    const due = [
      await insertOrder(db, {
        processing_type: 'Future',
        processing_date: daysFromToday(0),
        created_at: hoursAgo(25.5),
        email: 'due1@marks.example',
      }),
      await insertOrder(db, {
        processing_type: 'Future',
        processing_date: daysFromToday(-1),
        created_at: hoursAgo(28.5),
        email: 'due2@marks.example',
      }),
    ];
    const notDue = await insertOrder(db, {
      processing_type: 'Future',
      processing_date: daysFromToday(3),
      created_at: hoursAgo(26.5),
      email: 'later@marks.example',
    });
    // The other tests read the Future queue: these orders go again at the end.
    onTestFinished(async () => {
      await db.deleteFrom('orders').where('email', 'like', '%@marks.example').execute();
    });
    const pages = async (limit: number, upTo = Infinity) => {
      const seen: string[] = [];
      for (let page = 1; page <= upTo; page += 1) {
        const res = await get(`/api/admin/get-orders-list/newOrder?page=${page}&limit=${limit}`, alice.token);
        const rows = res.json().data.rows as { order_id: string }[];
        if (rows.length === 0) break;
        seen.push(...rows.map((r) => r.order_id));
      }
      return seen;
    };
    const searched = async () =>
      (await t.search(alice.token, { folderName: 'newOrder', searchVal: 'marks.example', start: 0, end: 50 })).rows.map(
        (r) => r.order_id,
      );
    const marks = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom('orders')
            .select(['order_id', 'future_due'])
            .where('order_id', 'in', [...due, notDue])
            .execute()
        ).map((r) => [r.order_id, r.future_due]),
      );
    const sameEverywhere = async (whole: string[], found: string[]) => {
      expect(await pages(500)).toEqual(whole);
      for (const size of [1, 2, 3, 4, 5])
        expect(await pages(size, 1), `page 1 of ${size}`).toEqual(whole.slice(0, size));
      for (const size of [1, 3]) expect(await pages(size), `${size} a page`).toEqual(whole);
      expect(await searched()).toEqual(found);
    };

    // Stored with their processing date come, they are marked at once; the one not due is not, nor in New.
    expect(await marks()).toEqual({ [due[0]!]: true, [due[1]!]: true, [notDue]: false });
    const whole = await pages(500);
    expect(whole).toEqual(expect.arrayContaining(due));
    expect(whole).not.toContain(notDue);
    const found = await searched();
    expect(found).toHaveLength(8);
    expect(found).toEqual(whole.filter((id) => found.includes(id)));
    // As if their date came since housekeeping last marked: the same pages and walks from the unmarked part.
    await db.updateTable('orders').set({ future_due: false }).where('order_id', 'in', due).execute();
    await sameEverywhere(whole, found);
    // Housekeeping marks them (and nothing else), and nothing moves.
    expect(await t.app.services.orderQueries.markDueFutureOrders()).toBe(2);
    expect(await t.app.services.orderQueries.markDueFutureOrders()).toBe(0);
    expect(await marks()).toEqual({ [due[0]!]: true, [due[1]!]: true, [notDue]: false });
    await sameEverywhere(whole, found);
    // A processing date moved later unmarks the order: it leaves New for Future.
    await db
      .updateTable('orders')
      .set({ processing_date: daysFromToday(5) })
      .where('order_id', '=', due[0]!)
      .execute();
    expect((await marks())[due[0]!]).toBe(false);
    expect(await pages(500)).toEqual(whole.filter((id) => id !== due[0]));
    const future = (await get('/api/admin/get-orders-list/futureOrder?limit=500', alice.token)).json().data.rows;
    expect(future.map((r: { order_id: string }) => r.order_id)).toContain(due[0]);
  });

  it('shows the assignee by name and the row fields of spec §3 Version A', async () => {
    const { data } = (await get('/api/admin/get-orders-list/pendingOrder', alice.token)).json();
    const row = data.rows.find((r: { order_id: string }) => r.order_id === expected.pendingOrder[0]);
    expect(row).toMatchObject({
      process_status: 'Pending',
      passport_first_name: 'Ada',
      passport_surname: 'Lovelace',
      telephone_number: '5550100',
      country_code: '44',
      assign_to: 'Alice Ames',
      create_ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
    });
    const future = (await get('/api/admin/get-orders-list/futureOrder', alice.token)).json().data.rows[0];
    expect(future.processing_date).toBe(daysFromToday(40));
    const due = new Date(`${daysFromToday(40)}T00:00:00Z`);
    const month = due.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' }).slice(0, 3);
    expect(future.process_month).toBe(`${month} ${due.getUTCFullYear()}`);
  });

  it('refuses an unknown queue and bad paging with 400', async () => {
    for (const url of [
      '/api/admin/get-orders-list/everything',
      '/api/admin/get-orders-list/newOrder?page=0',
      '/api/admin/get-orders-list/newOrder?limit=abc',
      '/api/admin/get-orders-list/newOrder?limit=999999',
    ]) {
      const res = await get(url, alice.token);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().status).toBe(0);
    }
  });

  it('each role gets the counts of the queues it may open and no other (a Telecaller: no Order History)', async () => {
    for (const type of STAFF_TYPES) {
      const who = await t.signIn(type, `${type} Counter`);
      const counts = (await get('/api/admin/get-folder-count', who.token)).json().data;
      const opens: string[] = [];
      for (const queue of QUEUE_NAMES) {
        const list = await get(`/api/admin/get-orders-list/${queue}?page=1&limit=1`, who.token);
        expect([200, 403], `${type} ${queue}`).toContain(list.statusCode);
        if (list.statusCode === 200) opens.push(QUEUES[queue].countKey);
      }
      const specKeys = Object.keys(counts).filter((k) => (FOLDER_COUNT_KEYS as readonly string[]).includes(k));
      expect(specKeys.sort(), type).toEqual([...new Set(opens)].sort());
      // The urgent counts beside them (issue 35) are of those queues too, the ones that can hold open orders.
      for (const key of Object.keys(counts.urgentCounts)) expect(opens, `${type} urgent ${key}`).toContain(key);
      if (type === 'Telecaller') expect(counts).not.toHaveProperty('allOrdersCount');
      if (type === 'Telecaller') expect(counts.urgentCounts).not.toHaveProperty('allOrdersCount');
    }
  });

  it('knows which queues can hold open orders (urgent or late ones, issue 35) from their statuses', () => {
    for (const queue of QUEUE_NAMES) {
      const statuses = QUEUE_STATUSES[queue];
      const open = statuses === null || statuses.some((s) => (OPEN_STATUSES as readonly string[]).includes(s));
      expect(holdsOpenOrders(queue), queue).toBe(open);
    }
  });

  it('needs a signed-in staff member', async () => {
    expect((await t.app.inject({ url: '/api/admin/get-orders-list/newOrder' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/get-folder-count' })).statusCode).toBe(401);
  });
});

describe('future months', () => {
  it('counts Future orders per processing month and lists one month', async () => {
    const month = Number(daysFromToday(40).slice(5, 7));
    const counts = (await get('/api/admin/future-order-counts', alice.token)).json().data;
    expect(counts).toHaveLength(12);
    // The twelve months from the current one, each with its year (issue 22; future-order.test has the order).
    expect(counts.map((c: { label: string }) => c.label)).toEqual(
      Array.from({ length: 12 }, (_, i) => {
        const first = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + i, 1));
        return `${first.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' }).slice(0, 3)} ${first.getUTCFullYear()}`;
      }),
    );
    expect(counts.find((c: { month: number }) => c.month === month).count).toBe(1);
    expect(counts.reduce((sum: number, c: { count: number }) => sum + c.count, 0)).toBe(1);
    const list = (await get(`/api/admin/get-orders-list/futureOrder?month=${month}`, alice.token)).json().data;
    expect(list.rows.map((r: { order_id: string }) => r.order_id)).toEqual(expected.futureOrder);
    expect(list.total).toBe(1);
    const other = (await get(`/api/admin/get-orders-list/futureOrder?month=${(month % 12) + 1}`, alice.token)).json()
      .data;
    expect(other).toMatchObject({ rows: [], total: 0 });
  });
});

describe('times in a list', () => {
  it('are the stored instants to the millisecond, in UTC ISO form, in lists and search results', async () => {
    const db = t.database.db;
    const stamps = ['2025-03-04T05:06:07.070Z', '2025-03-04T05:06:07.000Z', '2025-03-04T05:06:07.999Z'];
    const ids = [];
    for (const [i, at] of stamps.entries()) {
      ids.push(
        await insertOrder(db, {
          process_status: 'Refunds',
          passport_surname: 'Timekeeper',
          created_at: new Date(at),
          refund_date: new Date(stamps[(i + 1) % stamps.length]!),
        }),
      );
    }
    const listed = (await get('/api/admin/get-orders-list/refundOrder?limit=100', alice.token)).json().data;
    const found = await t.search(alice.token, {
      searchVal: 'timekeeper',
      folderName: 'refundOrder',
      start: 0,
      end: 10,
    });
    for (const rows of [listed.rows, found.rows]) {
      const times = ids.map((id) => rows.find((r: { order_id: string }) => r.order_id === id));
      expect(times.map((r) => [r.create_ts, r.refund_date])).toEqual(
        stamps.map((at, i) => [at, stamps[(i + 1) % stamps.length]]),
      );
    }
  });
});
