// The three ways a search finds its matches (orders.repository: through the index then sorted, walking the queue,
// reading the search index week by week) must give the same orders in the same order, in every queue: which one
// runs is only a question of speed (order-queries.service). The reference is the queue's own list, read page by
// page without any search, filtered here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES, type QueueName } from '@eta/contracts';
import type { NewOrder } from '../src/db/schema.js';
import {
  byPurchase,
  indexNarrows,
  matchSearch,
  walkSearchByWeek,
  walkSearchInQueueOrder,
  type SearchQuery,
} from '../src/modules/orders/orders.repository.js';
import { SEARCH_COUNT_CAP } from '../src/modules/orders/order-queries.service.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { daysFromToday, orderValues } from './helpers/orders.js';

let t: TestApp;
let alice: Awaited<ReturnType<TestApp['signIn']>>;
let adminToken = '';
const DAY = 86_400_000;
// A Monday 00:00 UTC: the search index's weeks start there (migration 012).
const WEEK_START = Date.UTC(2025, 5, 2);

const order = (created: number, fields: Partial<NewOrder>) => orderValues({ created_at: new Date(created), ...fields });

beforeAll(async () => {
  t = await buildTestApp();
  alice = await t.signIn('Team', 'Alice Ames');
  adminToken = (await t.signIn('Admin')).token;
  // Orders over 30 weeks in every state, a third of them "Wayfarer": some exactly at a week's first instant and
  // its last millisecond, and pairs bought at the same instant (the id decides between them).
  const states: Partial<NewOrder>[] = [
    {},
    { processing_type: 'Priority' },
    { processing_type: 'Future', processing_date: daysFromToday(-2) },
    { processing_type: 'Future', processing_date: daysFromToday(30) },
    { process_status: 'Pending', assign_to: alice.id },
    { process_status: 'Completed' },
    { process_status: 'Completed', assign_to: alice.id },
    { process_status: 'Deleted' },
    { payment_status: 'Failed' },
    { process_status: 'Awaiting', assign_to: alice.id },
    { process_status: 'AwaitingGovt' },
    { process_status: 'Customer Called' },
    { process_status: 'Contact Customer' },
    { process_status: 'Refunds', refund_date: new Date(WEEK_START) },
    { process_status: 'ChargeBack' },
  ];
  const rows: NewOrder[] = [];
  for (let i = 0; i < 450; i += 1) {
    const week = WEEK_START + Math.floor(i / 15) * 7 * DAY;
    const created = i % 5 === 0 ? week : i % 5 === 1 ? week + 7 * DAY - 1 : week + (i % 7) * DAY + i * 1000;
    const surname = i % 3 === 0 ? 'Lovelace' : 'Wayfarer';
    rows.push(order(created, { ...states[i % states.length], passport_surname: surname }));
    if (i % 4 === 0) rows.push(order(created, { ...states[(i + 1) % states.length], passport_surname: 'Wayfarer' }));
  }
  await t.database.db.insertInto('orders').values(rows).execute();
});
afterAll(() => t.close());

/** A queue's orders in its own order (the list endpoint, no search), the ones whose fields hold `needle`. */
async function reference(queue: QueueName, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (let page = 1; ; page += 1) {
    const res = await t.app.inject({
      url: `/api/admin/get-orders-list/${queue}?page=${page}&limit=100`,
      headers: { authorization: adminToken },
    });
    const rows = res.json().data.rows as Record<string, string | null>[];
    for (const r of rows) {
      const text = [r.order_id, r.passport_first_name, r.passport_surname, r.email, r.telephone_number];
      if (
        text
          .map((v) => v ?? '')
          .join(' ')
          .toLowerCase()
          .includes(needle)
      )
        found.push(r.order_id!);
    }
    if (rows.length < 100) return found;
  }
}
async function orderIds(ids: number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await t.database.db.selectFrom('orders').select(['id', 'order_id']).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r.order_id]));
  return ids.map((id) => byId.get(id)!);
}

describe('search plans', () => {
  const queues = QUEUE_NAMES.filter((q) => q !== 'myOrder');

  it.each(queues)('%s: every way finds the same matches in queue order', async (queue) => {
    const q: SearchQuery = { queue, staffId: alice.id, search: ' WAYfarer ' };
    const expected = await reference(queue, 'wayfarer');
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(await orderIds(await matchSearch(t.database.db, q, 10_000))).toEqual(expected);
    expect(await orderIds(await walkSearchInQueueOrder(t.database.db, q, 10_000))).toEqual(expected);
    // The first few only: each way stops there with the newest ones.
    expect(await orderIds(await walkSearchInQueueOrder(t.database.db, q, 7))).toEqual(expected.slice(0, 7));
    // Future (by processing date) and ChargeBack (by evidence due date) are not in order of purchase.
    if (!byPurchase(queue)) {
      await expect(walkSearchByWeek(t.database.db, q, 10)).rejects.toThrow(/not in order of purchase/);
    } else {
      expect(await orderIds(await walkSearchByWeek(t.database.db, q, 10_000))).toEqual(expected);
      expect(await orderIds(await walkSearchByWeek(t.database.db, q, 7))).toEqual(expected.slice(0, 7));
      // The newest three weeks, then the rest: one after the other, the whole list.
      const head = await walkSearchByWeek(t.database.db, q, 10_000, { skip: 0, take: 3 });
      const rest = await walkSearchByWeek(t.database.db, q, 10_000, { skip: 3 });
      expect(head.length).toBeLessThan(expected.length);
      expect(await orderIds([...head, ...rest])).toEqual(expected);
    }
  });

  it('My Orders: the week walk finds only the signed-in holder’s open orders', async () => {
    const q: SearchQuery = { queue: 'myOrder', staffId: alice.id, search: 'wayfarer' };
    const res = await t.app.inject({
      url: '/api/admin/get-orders-list/myOrder?page=1&limit=500',
      headers: { authorization: alice.token },
    });
    const expected = (res.json().data.rows as { order_id: string; passport_surname: string }[])
      .filter((r) => r.passport_surname === 'Wayfarer')
      .map((r) => r.order_id);
    expect(expected.length).toBeGreaterThan(5);
    expect(await orderIds(await walkSearchByWeek(t.database.db, q, 10_000))).toEqual(expected);
    expect(await orderIds(await matchSearch(t.database.db, q, 10_000))).toEqual(expected);
  });

  it('reads the search index week by week only for a fragment with three letters or digits in a row', () => {
    expect(['zz', 'a.b', '1-2', ' x ', '@'].filter(indexNarrows)).toEqual([]);
    expect(['abc', 'müll', '123', 'eta-2005', 'x@yz9'].every(indexNarrows)).toBe(true);
  });

  it('pages a fragment with more matches than the cap that the newest orders do not show', async () => {
    // 1,010 "Farstrider" orders, all older than 250 newer ones that do not match: the probe of the newest rows finds
    // none, the index then finds more than the cap, and the page comes from a walk, newest first.
    const base = Date.UTC(2023, 0, 2);
    const old = Array.from({ length: SEARCH_COUNT_CAP + 10 }, (_, i) =>
      order(base + i * 3_600_000, { passport_surname: 'Farstrider', process_status: 'Completed' }),
    );
    const newer = Array.from({ length: 250 }, (_, i) => order(Date.UTC(2027, 0, 1) + i * 60_000, {}));
    await t.database.db
      .insertInto('orders')
      .values([...old, ...newer])
      .execute();
    const data = await t.search(adminToken, {
      start: 950,
      end: 1000,
      searchVal: 'farSTRIDER',
      folderName: 'orderHistory',
    });
    expect(data).toMatchObject({ total: SEARCH_COUNT_CAP, totalCapped: true, page: 20 });
    // Newest first: rows 951-1,000 are orders 59 down to 10 of the 1,010 (numbered from the oldest, 0).
    expect(data.rows.map((r: { order_id: string }) => r.order_id)).toEqual(
      old
        .slice(10, 60)
        .reverse()
        .map((o) => o.order_id),
    );
  });
});
