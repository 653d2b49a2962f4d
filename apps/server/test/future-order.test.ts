// The Future month view is worked by the day processing may start: soonest first, whatever order the
// customers bought in (it once listed February as 23/02, 16/02, 25/02, 03/02).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { daysFromToday, insertOrder } from './helpers/orders.js';

let t: TestApp;
let token: string;
const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await buildTestApp();
  token = (await t.signIn('Team')).token;
  // Bought in this order (created_at ascending), due in another.
  for (const [name, days, minute] of [
    ['late', 45, 1],
    ['early', 31, 2],
    ['middle', 38, 3],
    ['sameDayOlder', 38, 0],
  ] as const) {
    ids[name] = await insertOrder(t.database.db, {
      processing_type: 'Future',
      processing_date: daysFromToday(days),
      created_at: new Date(Date.UTC(2026, 5, 1, 0, minute)),
      passport_surname: 'Futurist',
    });
  }
});
afterAll(() => t.close());

const orderIds = (rows: { order_id: string }[]) => rows.map((r) => r.order_id);

describe('Future orders', () => {
  it('"today" is the UTC date, whatever time zone the database server runs in', async () => {
    const { rows } = await sql<{ zone: string }>`SELECT current_setting('TimeZone') AS zone`.execute(t.database.db);
    expect(rows[0]?.zone).toBe('UTC');
  });

  it('list by processing date, soonest first; the same day newest bought first', async () => {
    const res = await t.app.inject({
      url: '/api/admin/get-orders-list/futureOrder?limit=50',
      headers: { authorization: token },
    });
    expect(orderIds(res.json().data.rows)).toEqual([ids.early, ids.middle, ids.sameDayOlder, ids.late]);
  });

  it('counts the months in time order from the current one, each named with its year (issue 22)', async () => {
    const res = await t.app.inject({ url: '/api/admin/future-order-counts', headers: { authorization: token } });
    const months: { month: number; label: string; count: number }[] = res.json().data;
    // Computed from today (UTC): on 24 Nov 2026 the answer read Jan 2027 … Oct 2027, then "Nov", "Dec".
    const today = new Date();
    const names = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const expected = Array.from({ length: 12 }, (_, i) => {
      const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + i, 1));
      return { month: first.getUTCMonth() + 1, label: `${names[first.getUTCMonth()]} ${first.getUTCFullYear()}` };
    });
    expect(months.map(({ month, label }) => ({ month, label }))).toEqual(expected);
    // The four orders are counted in the months of their processing dates.
    const perMonth = new Map<number, number>();
    for (const days of [45, 31, 38, 38]) {
      const month = Number(daysFromToday(days).slice(5, 7));
      perMonth.set(month, (perMonth.get(month) ?? 0) + 1);
    }
    expect(months.filter((m) => m.count > 0).map((m) => [m.month, m.count])).toEqual(
      expected.filter((m) => perMonth.has(m.month)).map((m) => [m.month, perMonth.get(m.month)]),
    );
  });

  it('an order due in the current month of next year is in the queue, labelled with its year, but not this month', async () => {
    const now = new Date();
    const nextYear = new Date(Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const month = now.getUTCMonth() + 1;
    const before = await t.app.inject({ url: '/api/admin/future-order-counts', headers: { authorization: token } });
    const countOf = (res: typeof before) =>
      res.json<{ data: { month: number; count: number }[] }>().data.find((m) => m.month === month)!.count;
    const farId = await insertOrder(t.database.db, { processing_type: 'Future', processing_date: nextYear });

    const after = await t.app.inject({ url: '/api/admin/future-order-counts', headers: { authorization: token } });
    expect(countOf(after)).toBe(countOf(before));
    const thisMonth = await t.app.inject({
      url: `/api/admin/get-orders-list/futureOrder?month=${month}&limit=50`,
      headers: { authorization: token },
    });
    expect(orderIds(thisMonth.json().data.rows)).not.toContain(farId);
    const all = await t.app.inject({
      url: '/api/admin/get-orders-list/futureOrder?limit=50',
      headers: { authorization: token },
    });
    const far = all.json().data.rows.find((r: { order_id: string }) => r.order_id === farId);
    expect(far.process_month).toMatch(new RegExp(` ${now.getUTCFullYear() + 1}$`));
    await sql`DELETE FROM orders WHERE order_id = ${farId}`.execute(t.database.db);
  });

  it('a month shows its orders in the same order, and so does a search in the queue', async () => {
    const month = Number(daysFromToday(38).slice(5, 7));
    const res = await t.app.inject({
      url: `/api/admin/get-orders-list/futureOrder?month=${month}&limit=50`,
      headers: { authorization: token },
    });
    const dates = res.json().data.rows.map((r: { processing_date: string }) => r.processing_date);
    expect(dates).toEqual([...dates].sort());
    const search = await t.search(token, { start: 0, end: 50, searchVal: 'futurist', folderName: 'futureOrder' });
    expect(orderIds(search.rows)).toEqual([ids.early, ids.middle, ids.sameDayOlder, ids.late]);
  });
});
