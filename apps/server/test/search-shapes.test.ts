// Search on the shapes that broke it (issue 31): each step finds exactly the queue's matches in queue order, in every
// queue; and a search answers right on whole values, a fragment, nothing, a word only the oldest orders have, a word
// in every order, a burst of new orders sharing a word below and above the count's cap, one and two characters. The
// limits are scaled down (the steps are the product's, their sizes a test's) so each shape takes a few hundred orders.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES, type QueueName } from '@eta/contracts';
import type { NewOrder, Staff } from '../src/db/schema.js';
import { OrderQueriesService, type SearchLimits } from '../src/modules/orders/order-queries.service.js';
import {
  inOrderOfPurchase,
  matchSearch,
  matchSearchByWeek,
  selectExactMatches,
  walkQueue,
} from '../src/modules/orders/orders.repository.js';
import { readSearchText } from '../src/modules/orders/search-text.js';
import { NO_STATEMENT_TIMEOUT, withStatementTimeout } from '../src/db/statement-budget.js';
import { buildTestApp, signedInAdmin, type TestApp } from './helpers/test-app.js';
import { daysFromToday, orderValues } from './helpers/orders.js';
import { appKeyring, orderFieldsOf } from './helpers/personal-data.js';
import { testBackend } from './helpers/test-database.js';

// The sample is larger than the table: all of it, so each search takes the same way on every run.
const LIMITS: SearchLimits = {
  countCap: 30,
  headRows: 10,
  walkRows: 40,
  sampleRows: 10_000,
  // Read anew for each search: the tests add orders between searches.
  sampleTtlMs: 0,
  indexWeeks: 1,
  indexBudgetMs: 200,
  wholeIndexBudgetMs: 200,
};
const DAY = 86_400_000;

let t: TestApp;
let alice: Awaited<ReturnType<TestApp['signIn']>>;
let adminToken = '';
let admin: Staff;
let queries: OrderQueriesService;
/** Order ids by what a test looks for. */
const named: Record<string, string[]> = {};

const at = (day: number, minute = 0) => new Date(Date.UTC(2025, 0, 1) + day * DAY + minute * 60_000);
const order = (created: Date, fields: Partial<NewOrder>) => orderValues({ created_at: created, ...fields });

async function insert(label: string, rows: NewOrder[]) {
  await t.database.db.insertInto('orders').values(rows).execute();
  named[label] = [...(named[label] ?? []), ...rows.map((r) => r.order_id)];
}

beforeAll(async () => {
  t = await buildTestApp();
  alice = await t.signIn('Team', 'Alice Ames');
  ({ token: adminToken, staff: admin } = await signedInAdmin(t));
  queries = new OrderQueriesService(t.database.db, orderFieldsOf(await appKeyring(t)), LIMITS);
  // 300 orders over 300 days in every state, a third of them "Wayfarer"; pairs bought at the same instant (the id
  // decides between them).
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
    { process_status: 'Contact Customer' },
    { process_status: 'Refunds', refund_date: at(0) },
    { process_status: 'ChargeBack' },
    { process_status: 'Completed' },
  ];
  const rows: NewOrder[] = [];
  for (let i = 0; i < 300; i += 1) {
    const surname = i % 3 === 0 ? 'Wayfarer' : i % 3 === 1 ? 'Lovelace' : 'Hopper';
    rows.push(order(at(10 + i), { ...states[i % states.length], passport_surname: surname }));
    if (i % 4 === 0) rows.push(order(at(10 + i), { ...states[(i + 1) % states.length], passport_surname: 'Wayfarer' }));
  }
  await insert('background', rows);
  // Only the three oldest orders of all have these: beyond any walk of the newest.
  await insert(
    'oldest',
    [0, 1, 2].map((d) =>
      order(at(d), { passport_surname: 'Oldtimer', email: `traveller${d}@oldhost.test`, process_status: 'Completed' }),
    ),
  );
  await insert('harry', [
    order(at(100), { email: 'Harry_Jones08@Outlook.com', passport_first_name: 'Harry', passport_surname: 'Jones' }),
    order(at(200), { email: 'harry_jones08@outlook.com', passport_first_name: 'Harry', passport_surname: 'Jones' }),
  ]);
  await insert('xharry', [order(at(150), { email: 'xharry_jones08@outlook.com' })]);
  await insert('telephone', [order(at(120), { telephone_number: '612 345 678', country_code: '34' })]);
  await insert('grace', [order(at(130), { passport_first_name: 'Grace', passport_surname: 'Hopperton' })]);
  await insert('garcia', [order(at(140), { passport_first_name: 'María', passport_surname: 'García López' })]);
  await insert('nils', [
    order(at(50), { passport_first_name: 'Nils' }),
    order(at(60), { passport_first_name: 'Nils' }),
  ]);
  await insert('nilsson', [order(at(250), { passport_surname: 'Nilsson' })]);
  await insert(
    'called',
    [1, 2, 3].map((d) =>
      order(at(300 + d), {
        process_status: 'Customer Called',
        passport_first_name: 'Calloway',
        passport_surname: 'Wayfarer',
      }),
    ),
  );
});
afterAll(() => t.close());

/** A queue's orders in its own order (the list endpoint, no search), those whose search fields hold `needle`. */
async function reference(queue: QueueName, needle: string, token = adminToken): Promise<string[]> {
  const found: string[] = [];
  for (let page = 1; ; page += 1) {
    const res = await t.app.inject({
      url: `/api/admin/get-orders-list/${queue}?page=${page}&limit=100`,
      headers: { authorization: token },
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

async function orderIds(ids: number[], app: TestApp = t): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await app.database.db.selectFrom('orders').select(['id', 'order_id']).where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r.order_id]));
  return ids.map((id) => byId.get(id)!);
}

const search = (text: string, queue: QueueName = 'orderHistory', start = 0, end = 10) =>
  queries.searchQueue(admin, queue, text, start, end);
const rowIds = (page: { rows: { order_id: string }[] }) => page.rows.map((r) => r.order_id);

describe('each step of a search, in every queue', () => {
  it.each(QUEUE_NAMES)(
    '%s: the walk, the index and the exact lookup each find the matches in queue order',
    async (queue) => {
      const staffId = queue === 'myOrder' ? alice.id : admin.id;
      const token = queue === 'myOrder' ? alice.token : adminToken;
      const scope = { queue, staffId };
      const expected = await reference(queue, 'wayfarer', token);
      expect(expected.length).toBeGreaterThanOrEqual(3);
      expect(await orderIds((await walkQueue(t.database.db, scope, 'ayfare', 10_000, 10_000)).ids)).toEqual(expected);
      // The first few only: the walk stops there with the newest ones.
      expect(await orderIds((await walkQueue(t.database.db, scope, 'ayfare', 10_000, 2)).ids)).toEqual(
        expected.slice(0, 2),
      );
      expect(await orderIds(await matchSearch(t.database.db, scope, 'ayfare', 10_000))).toEqual(expected);
      // Week by week from the queue's newest week: all of them, or the first few; Future and ChargeBack are not in
      // order of purchase.
      if (inOrderOfPurchase(queue)) {
        const { newest } = await walkQueue(t.database.db, scope, 'ayfare', 1, 1);
        const byWeek = (count: number, limit: number) =>
          matchSearchByWeek(t.database.db, scope, 'ayfare', { from: newest!, count }, limit, 10_000).then(orderIds);
        expect(await byWeek(60, 10_000)).toEqual(expected);
        expect(await byWeek(60, 2)).toEqual(expected.slice(0, 2));
        const newestWeek = await byWeek(1, 10_000);
        expect(expected.slice(0, newestWeek.length)).toEqual(newestWeek);
      } else {
        const week = { from: new Date(), count: 1 };
        await expect(matchSearchByWeek(t.database.db, scope, 'ayfare', week, 10, 10_000)).rejects.toThrow(
          /order of purchase/,
        );
      }
      // Every Wayfarer is one by surname: the name's index, status by status where a queue has several, merged.
      const exact = await selectExactMatches(t.database.db, scope, readSearchText('WAYFARER'), null, 10_000);
      expect(await orderIds(exact.ids)).toEqual(expected);
      const firstFew = await selectExactMatches(t.database.db, scope, readSearchText('wayfarer'), null, 3);
      expect(await orderIds(firstFew.ids)).toEqual(expected.slice(0, 3));
    },
  );
});

describe('a search on every shape', () => {
  it('finds an order by its whole order id, and only in the queues that hold it', async () => {
    const [oldest] = named.oldest!;
    for (const typed of [oldest!, oldest!.toLowerCase(), oldest!.slice(4)]) {
      expect(await search(typed)).toMatchObject({ total: 1, totalCapped: false, exactMatch: true });
    }
    expect(await search(oldest!, 'newOrder')).toMatchObject({ rows: [], total: 0, exactMatch: true });
  });

  it('finds the orders of a whole e-mail address in any case, not the addresses that contain it', async () => {
    const page = await search('HARRY_JONES08@outlook.com');
    expect(rowIds(page)).toEqual([...named.harry!].reverse());
    expect(page).toMatchObject({ total: 2, totalCapped: false, exactMatch: true });
    // Part of the address finds every address that holds it, newest first.
    const fragment = await search('harry_jones08@');
    expect(rowIds(fragment)).toEqual(await reference('orderHistory', 'harry_jones08@'));
    expect(fragment.total).toBe(3);
  });

  it('finds a telephone number however it is written', async () => {
    for (const typed of ['612 345 678', '612345678', '+34 612-345-678', '0034 612 345 678', '(+34) 612.345.678']) {
      expect(rowIds(await search(typed)), typed).toEqual(named.telephone);
    }
  });

  it('finds a full name in either order, a surname of two words, and a name within others', async () => {
    expect(rowIds(await search('Harry Jones'))).toEqual([...named.harry!].reverse());
    expect(rowIds(await search('jones harry'))).toEqual([...named.harry!].reverse());
    // A page the exact matches fill is still an exact answer, with more to come.
    expect(await search('Harry Jones', 'orderHistory', 0, 1)).toMatchObject({
      total: 2,
      totalCapped: true,
      exactMatch: true,
    });
    expect(rowIds(await search('García López'))).toEqual(named.garcia);
    expect(rowIds(await search('maría garcía lópez'))).toEqual(named.garcia);
    // Part of a name of two words is a fragment of the full name.
    expect(rowIds(await search('María García'))).toEqual(named.garcia);
    // "Grace Hopperton" is not "Grace Hopper": no exact match, so the fragment finds it.
    expect(rowIds(await search('Grace Hopper'))).toEqual(named.grace);
  });

  it('lists the exact name first, then the names and addresses that contain it', async () => {
    const page = await search('nils');
    expect(rowIds(page)).toEqual([...[...named.nils!].reverse(), ...named.nilsson!]);
    expect(page).toMatchObject({ total: 3, totalCapped: false });
    expect(page.exactMatch).toBeUndefined();
  });

  it('answers a text no order has with an exact none', async () => {
    for (const text of ['zzqqx', 'nobody@nowhere.test', 'ETA-999999999']) {
      expect(await search(text)).toMatchObject({ rows: [], total: 0, totalCapped: false });
    }
  });

  it('finds what only the oldest orders have, beyond the newest orders walked', async () => {
    // "oldhost" is in no name: the walk of the newest finds none, the trigram index all three.
    expect(rowIds(await search('oldhost'))).toEqual([...named.oldest!].reverse());
    expect(await search('oldhost')).toMatchObject({ total: 3, totalCapped: false });
    expect(rowIds(await search('OLDTIMER'))).toEqual([...named.oldest!].reverse());
  });

  it('pages a fragment in every order newest first up to the cap, and says there are more', async () => {
    const all = await reference('orderHistory', 'mail.test');
    expect(all.length).toBeGreaterThan(LIMITS.countCap);
    const first = await search('mail.test');
    expect(rowIds(first)).toEqual(all.slice(0, 10));
    expect(first).toMatchObject({ total: 11, totalCapped: true });
    const last = await search('mail.test', 'orderHistory', 20, 30);
    expect(rowIds(last)).toEqual(all.slice(20, 30));
    expect(last).toMatchObject({ total: LIMITS.countCap, totalCapped: true });
    // Beyond the cap a search shows nothing more.
    expect(await search('mail.test', 'orderHistory', 30, 40)).toMatchObject({ rows: [], totalCapped: true });
  });

  it('pages a burst of new orders sharing a word, below the cap and above it', async () => {
    const now = Date.UTC(2027, 5, 1);
    const burst = (word: string, n: number) =>
      Array.from({ length: n }, (_, i) => order(new Date(now + i * 1000), { email: `${word}${i}@${word}.test` }));
    // 25 newest share "burstly" (below the cap): found by the walk, then the index says there are no others.
    await insert('burstly', burst('burstly', 25));
    const below = await search('burstly', 'newOrder', 20, 30);
    expect(rowIds(below)).toEqual(await reference('newOrder', 'burstly').then((ids) => ids.slice(20, 30)));
    expect(below).toMatchObject({ total: 25, totalCapped: false });
    // 35 newer share "crowdly" (above the cap of 30): the walk has them, newest first, and says 30+.
    await insert('crowdly', burst('crowdly', 35));
    const above = await search('crowdly', 'newOrder', 20, 30);
    expect(rowIds(above)).toEqual(await reference('newOrder', 'crowdly').then((ids) => ids.slice(20, 30)));
    expect(above).toMatchObject({ total: LIMITS.countCap, totalCapped: true });
    expect(await search('crowdly', 'orderHistory')).toMatchObject({ total: 11, totalCapped: true });
  });

  it('answers one or two characters from the newest orders of a large queue, and says so', async () => {
    const rare = await search('zq');
    expect(rare).toMatchObject({ rows: [], totalCapped: true, searchedNewest: LIMITS.headRows });
    // One character in most orders fills its page from the newest.
    const common = await search('e');
    expect(rowIds(common)).toEqual((await reference('orderHistory', 'e')).slice(0, 10));
    expect(common.searchedNewest).toBeUndefined();
    // A queue no larger than the walk is searched whole.
    const small = await search('ca', 'customerCalled');
    expect(rowIds(small)).toEqual([...named.called!].reverse());
    expect(small).toMatchObject({ total: 3, totalCapped: false });
    expect(small.searchedNewest).toBeUndefined();
  });

  it('shows the answer of the HTTP call the console makes, with its notes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/search-order',
      headers: { authorization: adminToken },
      payload: { start: 0, end: 10, searchVal: 'harry_jones08@outlook.com', folderName: 'orderHistory' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ total: 2, totalCapped: false, exactMatch: true });
  });
});

describe('a fragment neither in most orders nor rare', () => {
  it('has its page from the newest week of the index, not the whole index', async () => {
    // The newest week of Order History (from Monday 3 Jan 2028): 80 orders, one in six at "midweek.test", none among
    // the ten newest; the walk finds too few to go on, the week has the page.
    const monday = Date.UTC(2028, 0, 3);
    const rows = Array.from({ length: 80 }, (_, i) =>
      order(new Date(monday + i * 60_000), {
        process_status: 'Completed',
        email: i % 6 === 0 && i < 70 ? `m${i}@midweek.test` : `m${i}@elsewhere.test`,
      }),
    );
    await insert('midweek', rows);
    const matching = rows.filter((r) => r.email.endsWith('@midweek.test')).map((r) => r.order_id);
    expect(matching).toHaveLength(12);
    const page = await search('midweek');
    expect(rowIds(page)).toEqual([...matching].reverse().slice(0, 10));
    // Read as far as the page and one more: the whole index would have counted all 12.
    expect(page).toMatchObject({ total: 11, totalCapped: true });
    expect(await search('midweek', 'orderHistory', 10, 20)).toMatchObject({ total: 12, totalCapped: false });
  });

  it('counts a fragment the sample meets too seldom to promise its page among the newest, instead of walking for it', async () => {
    // Awaiting Govt's newest 60 orders, a day apart from 1 March 2028 (the newest week holds seven): 14 at
    // "seldom.test", two among the ten newest and twelve among the next thirty. The walk of the newest 40 would end on a
    // page of "11+"; the sample (the whole table, some 600 orders) promises no page within 40 orders, so the newest
    // week (one of them) and then the whole index answer, with all 14 counted.
    const first = Date.UTC(2028, 2, 1);
    const seldom = new Set([3, 7, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32]);
    const rows = Array.from({ length: 60 }, (_, i) => {
      const newestFirst = 59 - i;
      return order(new Date(first + i * DAY), {
        process_status: 'AwaitingGovt',
        email: `s${i}@${seldom.has(newestFirst) ? 'seldom' : 'often'}.test`,
      });
    });
    await insert('seldom', rows);
    const matching = await reference('awaitingGovt', 'seldom.test');
    expect(matching).toHaveLength(14);
    const page = await search('seldom.test', 'awaitingGovt');
    expect(rowIds(page)).toEqual(matching.slice(0, 10));
    expect(page).toMatchObject({ total: 14, totalCapped: false });
    expect(page.searchedNewest).toBeUndefined();
    expect(rowIds(await search('seldom.test', 'awaitingGovt', 10, 20))).toEqual(matching.slice(10));
  });
});

describe.runIf(testBackend() === 'postgres')('a fragment too common for the index within its budget', () => {
  /** In 50,000 orders, with some forty trigrams each in all of them. */
  const PLENTIFUL = 'plentiful-abundant-copious-numerous-profuse';
  let big: TestApp;
  let bigAdmin: Staff;

  beforeAll(async () => {
    big = await buildTestApp();
    bigAdmin = (await signedInAdmin(big)).staff;
    // 50,000 old orders with the words in their e-mail, then 50 newer ones without them: the walk of the newest finds
    // none, and the trigram index has 50,000 matches to read, here still in its pending list (the state of a GIN index
    // after a burst of inserts), which a search reads whole: some 2 million entries. A load as the seeder makes one: no
    // budget, the counters rebuilt once.
    await withStatementTimeout(NO_STATEMENT_TIMEOUT, async () => {
      await sql`ALTER INDEX orders_search_idx SET (fastupdate = on, gin_pending_list_limit = 1000000)`.execute(
        big.database.db,
      );
      await sql`ALTER TABLE orders DISABLE TRIGGER orders_count, DISABLE TRIGGER orders_report_count`.execute(
        big.database.db,
      );
      await sql`INSERT INTO orders (order_id, email, landing_site, payment_status, process_status, created_at)
        SELECT 'ETA-' || (300000000 + g), 'traveller' || g || '@plentiful-abundant-copious-numerous-profuse.test', 'default', 'Success', 'Completed',
          timestamptz '2024-01-01' + g * interval '1 minute'
        FROM generate_series(1, 50000) AS g`.execute(big.database.db);
      await sql`INSERT INTO orders (order_id, email, landing_site, payment_status, process_status, created_at)
        SELECT 'ETA-' || (400000000 + g), 'other' || g || '@mail.test', 'default', 'Success', 'Completed',
          timestamptz '2026-01-01' + g * interval '1 minute'
        FROM generate_series(1, 50) AS g`.execute(big.database.db);
      await sql`ALTER TABLE orders ENABLE TRIGGER orders_count, ENABLE TRIGGER orders_report_count`.execute(
        big.database.db,
      );
      await sql`SELECT rebuild_order_counters(), rebuild_report_counters()`.execute(big.database.db);
      await sql`ANALYZE orders`.execute(big.database.db);
    });
  });
  afterAll(() => big.close());

  it('answers from the newest orders and says so, instead of holding the database', async () => {
    const keyring = await appKeyring(big);
    const tight = new OrderQueriesService(big.database.db, orderFieldsOf(keyring), {
      ...LIMITS,
      indexBudgetMs: 1,
      wholeIndexBudgetMs: 1,
    });
    const page = await tight.searchQueue(bigAdmin, 'orderHistory', PLENTIFUL, 0, 10);
    expect(page).toMatchObject({ rows: [], totalCapped: true, searchedNewest: LIMITS.walkRows });
    // With the time it needs, the index finds more than the cap: 1,000+ (here 30+). The newest week has none of them,
    // and the index gives them in the table's order: the page is some of them, newest first, and says it is not the
    // newest (putting 50,000 in date order is what the cap is there to spare).
    const roomy = new OrderQueriesService(big.database.db, orderFieldsOf(keyring), {
      ...LIMITS,
      indexBudgetMs: 10_000,
      wholeIndexBudgetMs: 10_000,
    });
    const full = await roomy.searchQueue(bigAdmin, 'orderHistory', PLENTIFUL, 0, 10);
    expect(full).toMatchObject({ total: LIMITS.countCap, totalCapped: true, someMatches: true });
    expect(full.rows).toHaveLength(10);
    for (const row of full.rows) expect(row.email).toContain(PLENTIFUL);
    const ids = rowIds(full);
    expect(ids).toEqual([...ids].sort().reverse());
  });
});

describe.runIf(testBackend() === 'postgres')('a burst of new orders in the trigram indexes', () => {
  let burst: TestApp;

  beforeAll(async () => {
    burst = await buildTestApp();
  });
  afterAll(() => burst.close());

  it('leaves at most 256 kB of them unmerged, which every index step of every search reads whole', async () => {
    const db = burst.database.db;
    await sql`CREATE EXTENSION IF NOT EXISTS pgstattuple`.execute(db);
    // 2,000 new orders, 200 to a statement (about 2.8 MB of pending entries in each index; intake adds one at a time,
    // and the list is merged the same way: by the insert that takes it past its limit).
    for (let k = 0; k < 2_000; k += 200) {
      await sql`INSERT INTO orders (order_id, email, landing_site, payment_status, process_status, processing_type,
          passport_first_name, passport_surname, telephone_number, created_at)
        SELECT 'ETA-' || (500000000 + g), 'traveller' || g || '@burst-' || g % 7 || '.test', 'default', 'Success',
          'New', 'Standard', 'Ava', 'Burstworth', (700000000 + g)::text, now() - interval '1 hour' + g * interval '1 second'
        FROM generate_series(${k + 1}::int, ${k + 200}::int) AS g`.execute(db);
    }
    for (const index of ['orders_search_idx', 'orders_new_search_idx']) {
      const { rows } = await sql<{ pending_pages: number }>`
        SELECT pending_pages FROM pgstatginindex(${index}::regclass)`.execute(db);
      expect(rows[0]!.pending_pages, index).toBeLessThanOrEqual(256 / 8);
    }
    // Merged or pending, each order is found by the index: the oldest of the burst, behind 1,999 newer ones.
    const { staff } = await signedInAdmin(burst);
    const service = new OrderQueriesService(db, orderFieldsOf(await appKeyring(burst)));
    const page = await service.searchQueue(staff, 'newOrder', 'raveller1@burst-1', 0, 50);
    expect(rowIds(page)).toEqual(['ETA-500000001']);
  });

  it('merges what is pending in the background, so that no write has to merge it itself', async () => {
    const db = burst.database.db;
    const pending = async () => {
      const { rows } = await sql<{ pages: number }>`
        SELECT sum((pgstatginindex(i.indexrelid)).pending_pages)::int AS pages
          FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
         WHERE i.indrelid = 'orders'::regclass AND am.amname = 'gin'`.execute(db);
      return rows[0]!.pages;
    };
    await sql`CREATE EXTENSION IF NOT EXISTS pgstattuple`.execute(db);
    // From empty lists, 60 orders: some 70 kB of entries in each index, well below the 256 kB at which an insert would
    // merge them.
    await sql`SELECT gin_clean_pending_list(indexrelid) FROM pg_index
               WHERE indrelid = 'orders'::regclass AND indexrelid::regclass::text LIKE '%search%'`.execute(db);
    await sql`INSERT INTO orders (order_id, email, landing_site, payment_status, process_status, processing_type,
        passport_first_name, passport_surname, telephone_number, created_at)
      SELECT 'ETA-' || (510000000 + g), 'quiet' || g || '@pending.test', 'default', 'Success', 'New', 'Standard',
        'Ida', 'Pendleton', (710000000 + g)::text, now() - g * interval '1 second'
      FROM generate_series(1, 60) AS g`.execute(db);
    // A round every 200 ms when idle; the deadline is only there to end the test if none comes.
    const deadline = Date.now() + 5_000;
    let left = await pending();
    while (left > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      left = await pending();
    }
    expect(left).toBe(0);
  });
});

describe('a fragment behind a burst of new orders that lack it', () => {
  beforeAll(async () => {
    // Newer than every order before it, in the Priority queue: 12 new orders of one group, and behind them 80 orders,
    // every second one at "tidewater.test", the others at "inland.test". The newest ten say nothing of either word.
    const start = Date.UTC(2029, 0, 1);
    const older = Array.from({ length: 80 }, (_, i) =>
      order(new Date(start + i * 60_000), {
        processing_type: 'Priority',
        email: i % 2 === 0 ? `t${i}@tidewater.test` : `t${i}@inland.test`,
      }),
    );
    const group = Array.from({ length: 12 }, (_, i) =>
      order(new Date(start + 86_400_000 + i * 60_000), { processing_type: 'Priority', email: `g${i}@group.test` }),
    );
    await insert('tidewater', [...older, ...group]);
    // "tidewater" is far more common in the whole table than "inland": 340 orders in some 1,000.
    await insert(
      'tidewater-elsewhere',
      Array.from({ length: 300 }, (_, i) =>
        order(at(i), { process_status: 'Completed', email: `e${i}@tidewater.test` }),
      ),
    );
  });

  it('walks on past the burst when the sample says the word is common', async () => {
    const page = await search('tidewater', 'priorityOrder');
    expect(rowIds(page)).toEqual((await reference('priorityOrder', 'tidewater')).slice(0, 10));
    expect(page).toMatchObject({ total: 11, totalCapped: true });
  });

  it('has the page from the newest weeks when the sample misses a word the index then finds more than the cap of', async () => {
    const expected = (await reference('priorityOrder', 'inland')).slice(0, 10);
    expect(expected).toHaveLength(10);
    // A sample of none meets no word: "inland" goes to the whole index first, which has 40 (more than the cap of 30).
    const blind = new OrderQueriesService(t.database.db, orderFieldsOf(await appKeyring(t)), {
      ...LIMITS,
      sampleRows: 0,
    });
    // Both read as far as the page's end and one more (11+); the whole index read as far as the cap (30+).
    for (const [service, total] of [
      [blind, LIMITS.countCap],
      [queries, 11],
    ] as const) {
      const page = await service.searchQueue(admin, 'priorityOrder', 'inland', 0, 10);
      expect(rowIds(page)).toEqual(expected);
      expect(page).toMatchObject({ total, totalCapped: true });
      // The newest weeks held the page: it is the newest, and does not say otherwise.
      expect(page.someMatches).toBeUndefined();
    }
  });

  it('reads its sample once for the searches of its time, and pages them as one reading it each time', async () => {
    const keyring = await appKeyring(t);
    const words = ['tidewater', 'inland', 'tidewater', 'inland'];
    const pages = async (sampleTtlMs: number) => {
      let reads = 0;
      const counting = t.database.db.withPlugin({
        transformQuery: (args) => {
          if (JSON.stringify(args.node).includes('TABLESAMPLE')) reads += 1;
          return args.node;
        },
        transformResult: (args) => Promise.resolve(args.result),
      });
      const service = new OrderQueriesService(counting, orderFieldsOf(keyring), { ...LIMITS, sampleTtlMs });
      const found = [];
      for (const word of words) found.push(rowIds(await service.searchQueue(admin, 'priorityOrder', word, 0, 10)));
      return { found, reads };
    };
    const kept = await pages(3_600_000);
    const fresh = await pages(0);
    expect(kept.reads).toBe(1);
    expect(fresh.reads).toBe(words.length);
    expect(kept.found).toEqual(fresh.found);
    for (const [i, word] of words.entries()) {
      expect(kept.found[i]).toEqual((await reference('priorityOrder', word)).slice(0, 10));
    }
  });
});

describe('the whole index, for a fragment at any place of an order and of any length', () => {
  // One order whose text has accented letters, an underscore, a percent sign and a hyphen: its text is
  // "eta-… zoë ñandú-quist z_q%x9@ünï.test 0044 20 7946 0958". Beside it, texts that LIKE without escapes would take
  // for some of its pieces ("zaq", "z_qax").
  const odd = { passport_first_name: 'Zoë', passport_surname: 'Ñandú-Quist', email: 'z_q%x9@ünï.test' };
  beforeAll(async () => {
    await insert('pieces', [order(at(4), { ...odd, telephone_number: '0044 20 7946 0958' })]);
    await insert('look-alikes', [
      order(at(5), { email: 'zaqax9@unitest.test', passport_surname: 'Nandu-Quist' }),
      order(at(6), { email: 'z_qax9@ünï.test', passport_first_name: 'Zoe' }),
    ]);
  });

  it('finds it by every piece of its text of three to nine characters, wherever the piece starts, as written', async () => {
    const textsOf = async (ids: { column: 'id' | 'order_id'; values: (number | string)[] }) =>
      ids.values.length === 0
        ? []
        : t.database.db
            .selectFrom('orders')
            .select(['order_id', 'search_text'])
            .where(ids.column, 'in', ids.values)
            .execute();
    const mine = await textsOf({ column: 'order_id', values: [...named.pieces!, ...named['look-alikes']!] });
    const chars = [...mine.find((r) => r.order_id === named.pieces![0])!.search_text];
    // Order History reads the index of four-character pieces for four characters and more, New the trigrams.
    for (const queue of ['orderHistory', 'newOrder'] as const) {
      for (let length = 3; length <= 9; length += 1) {
        for (let start = 0; start + length <= chars.length; start += 1) {
          const piece = chars.slice(start, start + length).join('');
          const found = await textsOf({
            column: 'id',
            values: await matchSearch(t.database.db, { queue, staffId: admin.id }, piece, 10_000),
          });
          const expected = mine.filter((r) => r.search_text.includes(piece)).map((r) => r.order_id);
          const ours = found.filter((r) => mine.some((m) => m.order_id === r.order_id)).map((r) => r.order_id);
          expect(ours.sort(), `${queue} "${piece}"`).toEqual(expected.sort());
          // Whatever else it finds holds the piece too.
          for (const r of found) expect(r.search_text, `${queue} "${piece}"`).toContain(piece);
        }
      }
    }
  });
});

describe('a name shared by hundreds of orders in a queue with a date order of its own', () => {
  let own: TestApp;
  let ownAdmin: Staff;

  beforeAll(async () => {
    own = await buildTestApp();
    ownAdmin = (await signedInAdmin(own)).staff;
    // 400 disputed orders of one traveller's name (a fraud ring's cards, say), their evidence due on 40 days or not yet
    // known, among 4,000 disputed orders; and 400 Future orders of another name, to be processed on 60 days. The
    // queues are large enough for the planner's guess of a name's orders there (0.5 % of the queue) to pass a page.
    const rows: NewOrder[] = [];
    for (let i = 0; i < 4_000; i += 1) {
      const dora = i % 10 === 0;
      rows.push(
        order(at(i % 400, i), {
          process_status: 'ChargeBack',
          dispute_due_at: i % 7 === 0 ? null : new Date(Date.UTC(2031, 0, 1) + (i % 40) * DAY),
          passport_first_name: dora ? 'Dora' : `Other${i % 97}`,
          passport_surname: dora ? 'Disputant' : `Otherson${i % 89}`,
        }),
      );
      if (dora)
        rows.push(
          order(at(i % 400, i), {
            processing_type: 'Future',
            processing_date: daysFromToday(1 + (i % 60)),
            passport_first_name: 'Fred',
            passport_surname: 'Forward',
          }),
        );
    }
    for (let k = 0; k < rows.length; k += 500)
      await own.database.db
        .insertInto('orders')
        .values(rows.slice(k, k + 500))
        .execute();
    await sql`ANALYZE orders`.execute(own.database.db);
  });
  afterAll(() => own.close());

  /** The exact lookup's first page and how many order rows it read for it, in a transaction of its own. */
  const firstPage = (queue: QueueName, text: string) =>
    own.database.db.transaction().execute(async (trx) => {
      // This transaction's reads of orders, with those of earlier ones not yet reported to the statistics.
      const read = async () => {
        const { rows } = await sql<{ read: number }>`
          SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read
            FROM pg_stat_xact_user_tables WHERE relid = 'orders'::regclass`.execute(trx);
        return rows[0]?.read ?? 0;
      };
      const before = await read();
      const exact = await selectExactMatches(trx, { queue, staffId: ownAdmin.id }, readSearchText(text), null, 10);
      return { ids: exact.ids, read: (await read()) - before };
    });

  it.each([
    ['chargeBack', 'Disputant'],
    ['chargeBack', 'Dora'],
    ['chargeBack', 'Dora Disputant'],
    ['futureOrder', 'Forward'],
    ['futureOrder', 'Fred'],
    ['futureOrder', 'Fred Forward'],
  ] as const)(
    '%s "%s": its first page in the queue order, reading that page and not every order of the name',
    async (queue, text) => {
      const { ids, read } = await firstPage(queue, text);
      const listed = await new OrderQueriesService(own.database.db, orderFieldsOf(await appKeyring(own))).listQueue(
        ownAdmin,
        queue,
        1,
        5_000,
      );
      const ofName = listed.rows
        .filter((r) => `${r.passport_first_name} ${r.passport_surname}`.toLowerCase().includes(text.toLowerCase()))
        .map((r) => r.order_id);
      expect(ofName.length).toBeGreaterThanOrEqual(400);
      expect(await orderIds(ids, own)).toEqual(ofName.slice(0, 10));
      // The page and the one after it at most: before migrations 028 and 039 the name's 400 orders were read and sorted.
      expect(read).toBeLessThanOrEqual(11);
    },
  );
});
