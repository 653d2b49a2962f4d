// Search: any substring of order id, first name, surname, e-mail or telephone, only inside the queue asked; a whole
// order id, e-mail address or telephone number exactly (search-shapes.test has the shapes of data).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { SEARCH_COUNT_CAP } from '../src/modules/orders/order-queries.service.js';

let t: TestApp;
let token: string;
let newOne: string;
let completed: string;

beforeAll(async () => {
  t = await buildTestApp();
  token = (await t.signIn('Team')).token;
  newOne = await insertOrder(t.database.db, {
    passport_first_name: 'Giulia',
    passport_surname: 'Bernasconi',
    email: 'g.bern@example.it',
    telephone_number: '3471234567',
  });
  completed = await insertOrder(t.database.db, {
    process_status: 'Completed',
    passport_first_name: 'Giulio',
    passport_surname: 'Bernardi',
    email: 'giulio@example.it',
    telephone_number: '3479876543',
  });
  await insertOrder(t.database.db, {
    passport_first_name: 'Percy',
    passport_surname: '100%_sure',
    email: 'percy@example.com',
  });
});
afterAll(() => t.close());

const search = (searchVal: string, folderName: string, start = 0, end = 10) =>
  t.search(token, { start, end, searchVal, folderName });
const ids = (d: { rows: { order_id: string }[] }) => d.rows.map((r) => r.order_id).sort();

describe('search-order', () => {
  it.each([
    ['order id fragment', () => newOne.slice(-5)],
    ['first name, any case', () => 'GIULIA'],
    ['surname fragment', () => 'nasco'],
    ['e-mail fragment', () => 'g.bern@'],
    ['telephone fragment', () => '1234567'],
  ])('finds by %s', async (_label, value) => {
    expect(ids(await search(value(), 'newOrder'))).toEqual([newOne]);
  });

  it('stays inside the queue asked for', async () => {
    expect(ids(await search('bern', 'newOrder'))).toEqual([newOne]);
    expect(ids(await search('bern', 'completedOrder'))).toEqual([completed]);
    expect(ids(await search('bern', 'orderHistory'))).toEqual([newOne, completed].sort());
    expect((await search('bern', 'deletedOrder')).total).toBe(0);
  });

  it('treats % and _ as plain characters', async () => {
    expect((await search('%', 'newOrder')).total).toBe(1);
    expect((await search('0%_s', 'newOrder')).total).toBe(1);
    expect((await search('_', 'orderHistory')).total).toBe(1);
  });

  it('pages with start/end and reports the total', async () => {
    const first = await search('example', 'orderHistory', 0, 2);
    const second = await search('example', 'orderHistory', 2, 4);
    expect(first.total).toBe(3);
    expect(first.rows).toHaveLength(2);
    expect(second.rows).toHaveLength(1);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(3);
  });

  it('counts a very common fragment only as far as the page, newest first, and says 1,000+ at the cap', async () => {
    const base = Date.UTC(2024, 0, 1);
    await t.database.db
      .insertInto('orders')
      .values(
        Array.from({ length: SEARCH_COUNT_CAP + 5 }, (_, i) => ({
          order_id: `ETA-7${String(i).padStart(8, '0')}`,
          email: `common${i}@mail.test`,
          landing_site: 'default',
          payment_status: 'Success' as const,
          passport_surname: 'Commonname',
          created_at: new Date(base + i * 60_000),
        })),
      )
      .execute();
    const page = (start: number, end: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/search-order',
        headers: { authorization: token },
        payload: { start, end, searchVal: 'commonNAME', folderName: 'newOrder' },
      });
    // The page's end and one more are read: 20 shown, "21+" known.
    const data = (await page(10, 20)).json().data;
    expect(data).toMatchObject({ total: 21, totalCapped: true });
    // Newest first: the 11th newest of the 1,005 is number 994.
    expect(data.rows.map((r: { order_id: string }) => r.order_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `ETA-7${String(SEARCH_COUNT_CAP + 4 - 10 - i).padStart(8, '0')}`),
    );
    // The last page a search shows: the count stops at the cap.
    const last = (await page(SEARCH_COUNT_CAP - 10, SEARCH_COUNT_CAP)).json().data;
    expect(last).toMatchObject({ total: SEARCH_COUNT_CAP, totalCapped: true });
    expect(last.rows.at(-1).order_id).toBe('ETA-700000005');
  });

  it('counts a rare fragment exactly in a queue whose newest orders all match a common one', async () => {
    // After the test before, New's newest orders are all "Commonname": that fragment is paged from them, this one found
    // exactly, whole.
    const rare = await search('ETA-700000007', 'newOrder');
    expect(rare).toMatchObject({ total: 1, totalCapped: false, exactMatch: true });
    expect(ids(rare)).toEqual(['ETA-700000007']);
    expect(await search('700000007', 'newOrder')).toMatchObject({ total: 1, totalCapped: false });
    expect(await search('commonname', 'newOrder')).toMatchObject({ total: 11, totalCapped: true });
  });

  it('refuses a bad window or an unknown queue', async () => {
    for (const payload of [
      { start: 5, end: 5, searchVal: 'x', folderName: 'newOrder' },
      { start: -1, end: 5, searchVal: 'x', folderName: 'newOrder' },
      { start: 0, end: 5, searchVal: 'x', folderName: 'secret' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/search-order',
        headers: { authorization: token },
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
  });
});
