// Urgent first and how long an order has waited (issue 35, items 4 and 5): which orders are urgent, their counts per
// queue, the urgent-first sort's pages against the order it promises, target times, and the Waiting too long view.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderListPage, OrderListRow, QueueName } from '@eta/contracts';
import type { NewOrder } from '../src/db/schema.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder, putWithVersions } from './helpers/orders.js';

const HOUR = 3_600_000;
const now = Date.now();
/** The travel date and time (UTC) `hours` from now, as the intake stores them. */
const travelIn = (hours: number): Partial<NewOrder> => {
  const at = new Date(now + hours * HOUR).toISOString();
  return {
    do_you_know_when_travel_to_canada: true,
    travel_to_canada_year: at.slice(0, 10),
    travel_to_canada_hour: at.slice(11, 16),
  };
};
const hoursAgo = (h: number) => new Date(now - h * HOUR);
const todayUtc = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.UTC(...ymd(), 0) + days * 86_400_000).toISOString().slice(0, 10);
const ymd = () => {
  const d = new Date();
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()] as const;
};

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let alice: Awaited<ReturnType<TestApp['signIn']>>;
let bob: Awaited<ReturnType<TestApp['signIn']>>;
let caller: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn('Admin', 'Ada Admin');
  alice = await t.signIn('Team', 'Alice Ames');
  bob = await t.signIn('Team', 'Bob Brown');
  caller = await t.signIn('Telecaller', 'Tom Caller');
});
afterAll(() => t.close());

const get = (url: string, token: string) => t.app.inject({ url, headers: { authorization: token } });
const put = (url: string, token: string, payload: object) =>
  t.app.inject({ method: 'PUT', url, headers: { authorization: token }, payload });
const page = async (url: string, token: string): Promise<OrderListPage> => {
  const res = await get(url, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const counts = async (token: string) => (await get('/api/admin/get-folder-count', token)).json().data;
const ids = (rows: OrderListRow[]) => rows.map((r) => r.order_id);
/** Orders written here straight into the database, as the desk never does: the counts it keeps are read anew. */
const wroteBehindTheDesksBack = () => t.app.services.orderQueries.forgetTimingCounts();
const pick = ({ travel_at, urgent, status_since, overdue_since }: OrderListRow) => ({
  travel_at,
  urgent,
  status_since,
  overdue_since,
});

describe('urgent orders', () => {
  const o = {} as Record<string, string>;
  beforeAll(async () => {
    const db = t.database.db;
    // Created recently, so no target time is passed (the waiting tests below have their own orders).
    const fresh = { created_at: hoursAgo(0.5) };
    o.inTenHours = await insertOrder(db, { ...fresh, ...travelIn(10) });
    o.inTwoDays = await insertOrder(db, { ...fresh, ...travelIn(48) });
    o.justInside = await insertOrder(db, { ...fresh, ...travelIn(71) });
    o.justOutside = await insertOrder(db, { ...fresh, ...travelIn(74) });
    o.inFiveDays = await insertOrder(db, { ...fresh, ...travelIn(120) });
    o.yesterday = await insertOrder(db, {
      ...fresh,
      do_you_know_when_travel_to_canada: true,
      travel_to_canada_year: dayOffset(-1),
      travel_to_canada_hour: '10:00',
    });
    // Earlier today, its hour gone: the traveller still flies today (a date without a zone), so it is urgent.
    o.todayEarly = await insertOrder(db, {
      ...fresh,
      do_you_know_when_travel_to_canada: true,
      travel_to_canada_year: todayUtc(),
      travel_to_canada_hour: '00:00',
    });
    o.noDate = await insertOrder(db, fresh);
    o.priority = await insertOrder(db, { ...fresh, processing_type: 'Priority', ...travelIn(30) });
    o.pendingAlice = await insertOrder(db, {
      ...fresh,
      process_status: 'Pending',
      assign_to: alice.id,
      ...travelIn(5),
    });
    o.completed = await insertOrder(db, { ...fresh, process_status: 'Completed', ...travelIn(20) });
    // Two orders bought in the same millisecond, the urgent one later by microseconds though its id is lower: the sort
    // must compare them as the database orders them (a Date would call them equal and go by id).
    o.sameMsUrgent = await insertOrder(db, { ...fresh, ...travelIn(60) });
    o.sameMsOther = await insertOrder(db, fresh);
    const ms = new Date(now - 20 * 60_000).toISOString().slice(0, 23);
    await sql`UPDATE orders SET created_at = (${`${ms}900+00`})::timestamptz WHERE order_id = ${o.sameMsUrgent}`.execute(
      db,
    );
    await sql`UPDATE orders SET created_at = (${`${ms}100+00`})::timestamptz WHERE order_id = ${o.sameMsOther}`.execute(
      db,
    );
    o.future = await insertOrder(db, {
      ...fresh,
      processing_type: 'Future',
      processing_date: dayOffset(20),
      ...travelIn(40),
    });
    wroteBehindTheDesksBack();
  });

  it('marks open orders travelling within URGENT_TRAVEL_HOURS (72), today included, on every list', async () => {
    const history = await page('/api/admin/get-orders-list/orderHistory?page=1&limit=100', admin.token);
    const urgent = history.rows.filter((r) => r.urgent).map((r) => r.order_id);
    expect(urgent.sort()).toEqual(
      [
        o.inTenHours,
        o.inTwoDays,
        o.justInside,
        o.todayEarly,
        o.priority,
        o.pendingAlice,
        o.sameMsUrgent,
        o.future,
      ].sort(),
    );
    const row = history.rows.find((r) => r.order_id === o.inTenHours)!;
    expect(Date.parse(row.travel_at!)).toBe(Math.floor((now + 10 * HOUR) / 60_000) * 60_000);
    expect(history.rows.find((r) => r.order_id === o.noDate)!.travel_at).toBeNull();
    // A closed order is never urgent, whatever its travel date.
    expect(history.rows.find((r) => r.order_id === o.completed)!.urgent).toBe(false);
    // The order's page says the same.
    const detail = (await get(`/api/admin/get-orders-details/${o.inTenHours}`, alice.token)).json().data;
    expect(detail.timing).toEqual({ ...pick(row), overdue_since: null });
    const later = (await get(`/api/admin/get-orders-details/${o.inFiveDays}`, alice.token)).json().data;
    expect(later.timing.urgent).toBe(false);
  });

  it('counts the urgent orders of each queue beside the folder counts, for the queues a person may open', async () => {
    const forAlice = await counts(alice.token);
    expect(forAlice.urgentCounts).toMatchObject({
      newOrdersCount: 5,
      priorityOrdersCount: 1,
      futureOrdersCount: 1,
      pendingOrdersCount: 1,
      myOrdersCount: 1,
      allOrdersCount: 8,
      awaitingOrdersCount: 0,
    });
    expect(forAlice.urgentCounts).not.toHaveProperty('completedOrdersCount');
    expect((await counts(bob.token)).urgentCounts.myOrdersCount).toBe(0);
    // A Telecaller has no Order History: no count of it, urgent or not.
    const forCaller = await counts(caller.token);
    expect(forCaller.urgentCounts).not.toHaveProperty('allOrdersCount');
    expect(forCaller.urgentCounts.newOrdersCount).toBe(5);
  });

  it('counts anew at once when an order moves (the counts are kept between changes)', async () => {
    const before = (await counts(bob.token)).urgentCounts;
    const res = await putWithVersions(t, '/api/admin/assign-order-status', bob.token, {
      orderId: [o.inTwoDays],
      assignto: 'Bob Brown',
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await counts(bob.token)).urgentCounts;
    expect(after).toMatchObject({
      newOrdersCount: before.newOrdersCount - 1,
      pendingOrdersCount: before.pendingOrdersCount + 1,
      myOrdersCount: 1,
    });
    // Back to New for the tests below.
    await putWithVersions(t, '/api/admin/assign-order-status', bob.token, { orderId: [o.inTwoDays], assignto: '' });
    expect((await counts(bob.token)).urgentCounts).toMatchObject(before);
  });

  it('sorts a queue urgent first, soonest travel first, then the rest in queue order, on every page size', async () => {
    for (const queue of ['newOrder', 'orderHistory', 'futureOrder', 'pendingOrder'] as QueueName[]) {
      const all = await page(`/api/admin/get-orders-list/${queue}?page=1&limit=500`, admin.token);
      const soonest = all.rows
        .filter((r) => r.urgent)
        .sort((a, b) => Date.parse(a.travel_at!) - Date.parse(b.travel_at!));
      const expected = [...ids(soonest), ...ids(all.rows.filter((r) => !r.urgent))];
      for (const size of [1, 2, 3, 5, 100]) {
        const seen: string[] = [];
        for (let p = 1; p <= Math.ceil(all.total / size) + 1; p++) {
          const got = await page(
            `/api/admin/get-orders-list/${queue}?page=${p}&limit=${size}&sort=urgent`,
            admin.token,
          );
          expect(got.urgentFirst).toBe(true);
          expect(got.total).toBe(all.total);
          seen.push(...ids(got.rows));
        }
        expect(seen, `${queue}, ${size} a page`).toEqual(expected);
      }
    }
  });

  it('gives the right pages when the urgent counts it keeps are out of date (another server’s change not heard yet)', async () => {
    const inNew = async () => (await page('/api/admin/get-orders-list/newOrder?page=1&limit=500', admin.token)).rows;
    const urgentFirst = async () => {
      const seen: string[] = [];
      for (let p = 1; p <= 4; p++) {
        const got = await page(`/api/admin/get-orders-list/newOrder?page=${p}&limit=2&sort=urgent`, admin.token);
        seen.push(...ids(got.rows));
      }
      return seen;
    };
    // The counts kept now say New has its five urgent orders; the pages inside them are read as urgent orders alone.
    expect((await counts(admin.token)).urgentCounts.newOrdersCount).toBe(5);
    const two = ids((await inNew()).filter((r) => r.urgent)).slice(0, 2);
    // Two stop being urgent behind the desk's back: the kept counts still say five.
    const move = (days: number) =>
      sql`UPDATE orders SET travel_to_canada_year = travel_to_canada_year + ${days}::int
        WHERE order_id IN (${sql.join(two)})`.execute(t.database.db);
    await move(30);
    try {
      const got = await urgentFirst();
      const rows = await inNew();
      const soonest = rows.filter((r) => r.urgent).sort((a, b) => Date.parse(a.travel_at!) - Date.parse(b.travel_at!));
      expect(soonest).toHaveLength(3);
      expect(got).toEqual([...ids(soonest), ...ids(rows.filter((r) => !r.urgent))].slice(0, 8));
    } finally {
      await move(-30);
      wroteBehindTheDesksBack();
    }
  });

  it('keeps each member’s urgent-first choice per queue', async () => {
    const before = (await get('/api/admin/queue-settings', alice.token)).json().data;
    expect(before).toMatchObject({ urgentFirstQueues: [], urgentTravelHours: 72 });
    const res = await put('/api/admin/queue-settings/urgent-first', alice.token, {
      queue: 'newOrder',
      urgentFirst: true,
    });
    expect(res.statusCode).toBe(200);
    await put('/api/admin/queue-settings/urgent-first', alice.token, { queue: 'pendingOrder', urgentFirst: true });
    await put('/api/admin/queue-settings/urgent-first', alice.token, { queue: 'pendingOrder', urgentFirst: false });
    expect((await get('/api/admin/queue-settings', alice.token)).json().data.urgentFirstQueues).toEqual(['newOrder']);
    expect((await get('/api/admin/queue-settings', bob.token)).json().data.urgentFirstQueues).toEqual([]);
  });
});

describe('waiting too long', () => {
  const o = {} as Record<string, string>;
  beforeAll(async () => {
    const db = t.database.db;
    o.standardLate = await insertOrder(db, { created_at: hoursAgo(25) });
    o.standardFine = await insertOrder(db, { created_at: hoursAgo(23) });
    o.priorityLate = await insertOrder(db, { processing_type: 'Priority', created_at: hoursAgo(3) });
    o.priorityFine = await insertOrder(db, { processing_type: 'Priority', created_at: hoursAgo(1) });
    // A Future order waits from its processing date: bought 40 days ago, due two days ago.
    o.futureLate = await insertOrder(db, {
      processing_type: 'Future',
      processing_date: dayOffset(-2),
      created_at: hoursAgo(40 * 24),
    });
    o.futureFine = await insertOrder(db, {
      processing_type: 'Future',
      processing_date: dayOffset(3),
      created_at: hoursAgo(40 * 24),
    });
    o.pendingLate = await insertOrder(db, {
      process_status: 'Pending',
      assign_to: alice.id,
      created_at: hoursAgo(30),
      status_changed_at: hoursAgo(2),
    });
    o.completedOld = await insertOrder(db, { process_status: 'Completed', created_at: hoursAgo(24 * 5) });
    wroteBehindTheDesksBack();
  });

  it('starts with the business’s targets, which only an Admin changes, audited', async () => {
    const settings = (await get('/api/admin/queue-settings', alice.token)).json().data;
    expect(settings.targets).toEqual({ Priority: 120, Standard: 1440, Future: 1440 });
    const refused = await put('/api/admin/processing-targets', alice.token, { Priority: 60, Standard: 60, Future: 60 });
    expect(refused.statusCode).toBe(403);
    const bad = await put('/api/admin/processing-targets', admin.token, { Priority: 0, Standard: 60, Future: 60 });
    expect(bad.statusCode).toBe(400);
    expect((await get('/api/admin/queue-settings', alice.token)).json().data.targets.Priority).toBe(120);
  });

  it('lists the open orders past their target, longest wait first, with their holder, and counts them', async () => {
    const late = await page('/api/admin/waiting-too-long?page=1&limit=50', admin.token);
    // Oldest wait first: the Future order waits from its processing date, two days ago.
    expect(ids(late.rows)).toEqual([o.futureLate, o.pendingLate, o.standardLate, o.priorityLate]);
    expect(late.total).toBe(4);
    expect(late.rows.find((r) => r.order_id === o.pendingLate)!.assign_to).toBe('Alice Ames');
    expect(Date.parse(late.rows.find((r) => r.order_id === o.standardLate)!.overdue_since!)).toBeCloseTo(
      now - 25 * HOUR + 24 * HOUR,
      -4,
    );
    expect((await counts(alice.token)).waitingTooLongCount).toBe(4);
    // Pages of the view hold every late order once.
    const pages = [1, 2, 3, 4].map((p) => page(`/api/admin/waiting-too-long?page=${p}&limit=1`, admin.token));
    expect((await Promise.all(pages)).flatMap((p) => ids(p.rows))).toEqual(ids(late.rows));
    // A list row says how long it has been in its status and whether it is late.
    const pending = await page('/api/admin/get-orders-list/pendingOrder?page=1&limit=50', alice.token);
    const row = pending.rows.find((r) => r.order_id === o.pendingLate)!;
    expect(Date.parse(row.status_since)).toBeCloseTo(now - 2 * HOUR, -4);
    expect(row.overdue_since).not.toBeNull();
    const fine = await page('/api/admin/get-orders-list/newOrder?page=1&limit=100', alice.token);
    expect(fine.rows.find((r) => r.order_id === o.standardFine)!.overdue_since).toBeNull();
  });

  it('follows the Admin’s targets: a type without one has no late orders', async () => {
    const res = await put('/api/admin/processing-targets', admin.token, { Priority: 45, Standard: null, Future: 1440 });
    expect(res.statusCode).toBe(200);
    const late = await page('/api/admin/waiting-too-long?page=1&limit=50', admin.token);
    expect(ids(late.rows)).toEqual([o.futureLate, o.priorityLate, o.priorityFine]);
    const activity = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after', 'actor_id'])
      .where('action', '=', 'desk.processing-targets')
      .execute();
    expect(activity).toEqual([
      {
        action: 'desk.processing-targets',
        actor_id: admin.id,
        before: { Priority: 120, Standard: 1440, Future: 1440 },
        after: { Priority: 45, Standard: null, Future: 1440 },
      },
    ]);
    await put('/api/admin/processing-targets', admin.token, { Priority: 120, Standard: 1440, Future: 1440 });
  });

  it('is for those who may open Order History', async () => {
    expect((await get('/api/admin/waiting-too-long', caller.token)).statusCode).toBe(403);
    expect(await counts(caller.token)).not.toHaveProperty('waitingTooLongCount');
  });

  it('starts an order’s time in its status when its status changes', async () => {
    const res = await putWithVersions(t, '/api/admin/assign-order-status', bob.token, {
      orderId: [o.standardLate],
      assignto: 'Bob Brown',
    });
    expect(res.statusCode, res.body).toBe(200);
    const mine = await page('/api/admin/get-orders-list/myOrder?page=1&limit=50', bob.token);
    const row = mine.rows.find((r) => r.order_id === o.standardLate)!;
    expect(row.process_status).toBe('Pending');
    expect(Date.now() - Date.parse(row.status_since)).toBeLessThan(60_000);
    // Still late: the customer has waited since they bought it.
    expect(row.overdue_since).not.toBeNull();
  });
});

describe('a backlog of late orders', () => {
  it('is counted as far as 500 ("500+"), on the dashboard and in the view, and the view still pages', async () => {
    await sql`INSERT INTO orders (order_id, email, landing_site, payment_status, process_status, processing_type,
        created_at)
      SELECT 'ETA-9' || lpad(i::text, 8, '0'), 'late' || i || '@mail.test', 'default', 'Success', 'New', 'Standard',
        now() - interval '3 days' - i * interval '1 second'
      FROM generate_series(1, 520) AS i`.execute(t.database.db);
    wroteBehindTheDesksBack();
    const forAlice = await counts(alice.token);
    expect(forAlice).toMatchObject({ waitingTooLongCount: 500, waitingTooLongCapped: true });
    const first = await page('/api/admin/waiting-too-long?page=1&limit=50', admin.token);
    expect(first).toMatchObject({ total: 500, totalCapped: true });
    // Past the count's cap the pages go on: the last holds the rest (520 here and the 4 late orders above).
    const last = await page('/api/admin/waiting-too-long?page=11&limit=50', admin.token);
    expect(last).toMatchObject({ total: 524, totalCapped: true });
    expect(last.rows.length).toBe(24);
  });
});

describe('a crowd of urgent orders', () => {
  // Their travel hours go round the clock, so the soonest first is not the order of their ids (the queue's order).
  it('is counted as far as 5,000 and said to be more', async () => {
    const tomorrow = dayOffset(1);
    // In five statements: one of 5,000 rows took 1.5-2 s beside other test files, at the edge of the statement budget.
    for (let from = 1; from <= 5000; from += 1000) {
      await sql`INSERT INTO orders (order_id, email, landing_site, payment_status, process_status, processing_type,
          created_at, do_you_know_when_travel_to_canada, travel_to_canada_year, travel_to_canada_hour)
        SELECT 'ETA-8' || lpad(i::text, 8, '0'), 'crowd' || i || '@mail.test', 'default', 'Success', 'New', 'Standard',
          now() - interval '10 minutes', true, ${tomorrow}::date, lpad((i % 24)::text, 2, '0') || ':00'
        FROM generate_series(${from}::int, ${from + 999}::int) AS i`.execute(t.database.db);
    }
    wroteBehindTheDesksBack();
    const forAdmin = await counts(admin.token);
    expect(forAdmin.urgentCapped).toBe(true);
    expect(forAdmin.urgentCounts.allOrdersCount).toBe(5000);
    expect(forAdmin.urgentCounts.newOrdersCount).toBeGreaterThan(4900);
  });

  it('sorts the 200 soonest first and leaves the others in their place in the queue', async () => {
    const top = await page('/api/admin/get-orders-list/newOrder?page=1&limit=200&sort=urgent', admin.token);
    expect(top.rows.every((r) => r.urgent)).toBe(true);
    const next = await page('/api/admin/get-orders-list/newOrder?page=2&limit=200&sort=urgent', admin.token);
    const inQueueOrder = await page('/api/admin/get-orders-list/newOrder?page=1&limit=500', admin.token);
    const onTop = new Set(ids(top.rows));
    expect(ids(next.rows)).toEqual(ids(inQueueOrder.rows.filter((r) => !onTop.has(r.order_id))).slice(0, 200));
    // Pages across the 200 and past it, where the urgent orders above push others into each page's walk.
    const expected = [...ids(top.rows), ...ids(inQueueOrder.rows.filter((r) => !onTop.has(r.order_id)))];
    for (const size of [30, 70]) {
      const seen: string[] = [];
      for (let p = 1; p * size <= 490; p++) {
        seen.push(
          ...ids(
            (await page(`/api/admin/get-orders-list/newOrder?page=${p}&limit=${size}&sort=urgent`, admin.token)).rows,
          ),
        );
      }
      expect(seen, `${size} a page`).toEqual(expected.slice(0, seen.length));
      expect(seen.length).toBeGreaterThan(400);
    }
  });
});
