// Prepared statements on PostgreSQL (db/prepared-pool): a queue page is parsed once per connection and keeps its
// plan; so is each step of a search, whose plan does not depend on the pattern; scripts of several statements still
// run. PGlite runs in the server's own process and has no use for them, so
// this file is about the PostgreSQL driver only.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, Staff } from '../src/db/schema.js';
import { openDatabase } from '../src/db/database.js';
import { StatementNames } from '../src/db/prepared-pool.js';
import { NO_STATEMENT_TIMEOUT, withStatementTimeout } from '../src/db/statement-budget.js';
import { OrderQueriesService } from '../src/modules/orders/order-queries.service.js';
import { buildTestApp, signedInAdmin, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { testBackend } from './helpers/test-database.js';
import { appKeyring, orderFieldsOf } from './helpers/personal-data.js';

describe('statement names', () => {
  it('gives each text one name and stops naming at its limit', () => {
    const names = new StatementNames(2);
    const first = names.nameOf('select 1 where $1');
    expect(names.nameOf('select 1 where $1')).toBe(first);
    expect(names.nameOf('select 2 where $1')).not.toBe(first);
    expect(names.nameOf('select 3 where $1')).toBeUndefined();
    expect(names.size).toBe(2);
  });
});

describe.runIf(testBackend() === 'postgres')('prepared statements on PostgreSQL', () => {
  let t: TestApp;
  let staff: Staff;

  beforeAll(async () => {
    t = await buildTestApp();
    ({ staff } = await signedInAdmin(t));
    for (const tree of ['Ash', 'Birch', 'Cedar'])
      await insertOrder(t.database.db, { passport_surname: `Prepared${tree}` });
  });
  afterAll(() => t.close());

  /**
   * Runs `work` on one connection (of `on`, the app's pool unless given) and returns what that connection has prepared,
   * with the plans `work` used (an earlier test may have run a statement on the same connection).
   */
  async function preparedBy(work: (db: Kysely<DB>) => Promise<void>, on: Kysely<DB> = t.database.db) {
    return on.connection().execute(async (db) => {
      const read = async () =>
        (
          await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
            SELECT statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements`.execute(db)
        ).rows;
      const before = new Map((await read()).map((p) => [p.statement, p]));
      await work(db);
      return (await read())
        .map((p) => ({
          ...p,
          generic_plans: p.generic_plans - (before.get(p.statement)?.generic_plans ?? 0),
          custom_plans: p.custom_plans - (before.get(p.statement)?.custom_plans ?? 0),
        }))
        .filter((p) => p.generic_plans + p.custom_plans > 0);
    });
  }

  it('prepares a queue page once per connection and reuses its plan', async () => {
    const pages: unknown[] = [];
    const prepared = await preparedBy(async (db) => {
      const queries = new OrderQueriesService(db, orderFieldsOf(await appKeyring(t)));
      for (let i = 0; i < 7; i += 1) pages.push(await queries.listQueue(staff, 'newOrder', 1, 50));
    });
    expect(new Set(pages.map((p) => JSON.stringify(p))).size).toBe(1);
    const page = prepared.find((p) => p.statement.includes('limit 50') && p.statement.includes('"page"'));
    expect(page, JSON.stringify(prepared.map((p) => p.statement))).toBeDefined();
    expect(page!.generic_plans + page!.custom_plans).toBe(7);
    expect(page!.generic_plans).toBeGreaterThan(0);
  });

  it('prepares each step of a search once and reuses its plan for every pattern', async () => {
    const totals: number[] = [];
    const prepared = await preparedBy(async (db) => {
      // Limits small enough that three orders go through every step: exact names, the walk, the sample, the trigram
      // index by week and whole. A page of one row: a search reads two matches (the page's end and one more).
      const queries = new OrderQueriesService(db, orderFieldsOf(await appKeyring(t)), {
        countCap: 1_000,
        headRows: 1,
        walkRows: 2,
        // The sample is the whole table (three orders).
        sampleRows: 10,
        sampleTtlMs: 0,
        indexWeeks: 2,
        indexBudgetMs: 1_000,
        wholeIndexBudgetMs: 1_000,
      });
      // Only the newest New order holds these: the newest one promises the page within the walk, which finds no other;
      // then the newest weeks and the whole index.
      const newest = ['cedar', 'CEDAR', 'Cedar', 'dcedar', 'edcedar', 'redcedar', 'aredcedar'];
      // Only the oldest holds these: the sample met them too seldom to promise the page within the walk; the newest
      // weeks and the whole index.
      const oldest = ['dash', 'DASH', 'Dash', 'edash', 'redash', 'aredash', 'paredash'];
      // None holds these: the sample never met them; the whole index alone.
      const absent = ['absentee', 'nobodyhere', 'missing', 'vacant', 'hollow', 'empty', 'blank'];
      // Without three letters or digits in a row the index cannot narrow a search: the walk alone answers.
      const unnarrowed = ['zz', 'q.q', 'x-y'];
      for (const search of [...newest, ...oldest, ...absent, ...unnarrowed]) {
        totals.push((await queries.searchQueue(staff, 'newOrder', search, 0, 1)).total);
      }
    });
    expect(totals).toEqual([...Array(14).fill(1), ...Array(10).fill(0)]);
    // The pattern reaches the planner as a parameter of an equality, strpos's argument or a subquery's value, none of
    // which it estimates from: one plan serves every pattern, so PostgreSQL settles on a generic one.
    const statements = JSON.stringify(prepared.map((p) => p.statement));
    const exact = prepared.filter((p) => /passport_number_hmac/.test(p.statement));
    const walks = prepared.filter((p) => /strpos/.test(p.statement) && !/system_rows/i.test(p.statement));
    const head = walks.filter((p) => /limit 1\)\) AS taken/.test(p.statement));
    const walkOn = walks.filter((p) => /limit 2\)\) AS taken/.test(p.statement));
    expect(walks, statements).toHaveLength(2);
    const sample = prepared.filter((p) => /system_rows/i.test(p.statement));
    const byWeek = prepared.filter((p) => /generate_series/.test(p.statement));
    const viaIndex = prepared.filter((p) => /like/i.test(p.statement) && !/generate_series/.test(p.statement));
    for (const [way, runs] of [
      [exact, 21],
      [head, 24],
      [walkOn, 7],
      [sample, 14],
      [byWeek, 14],
      [viaIndex, 21],
    ] as const) {
      expect(way, statements).toHaveLength(1);
      expect(way[0]!.generic_plans + way[0]!.custom_plans).toBe(runs);
      expect(way[0]!.generic_plans).toBeGreaterThan(0);
    }
  });

  it('keeps the plan of a deep page, of Waiting too long, of the walk of a search and of its rows, whatever their offset, value or number of rows', async () => {
    // Enough orders that a plan costed for PostgreSQL's guess of 10 % of a queue (a LIMIT or OFFSET it cannot see
    // before the call) is dearer than one costed for the value given: then it plans every call anew, unless the value
    // is a literal or a subquery's, the same in both plans.
    const { id } = await t.database.db
      .selectFrom('orders')
      .select('id')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const { rows: columns } = await sql<{ name: string }>`
      SELECT column_name AS name FROM information_schema.columns
      WHERE table_name = 'orders' AND column_name NOT IN ('id', 'order_id') AND is_generated = 'NEVER'`.execute(
      t.database.db,
    );
    const list = sql.join(columns.map((c) => sql.ref(c.name)));
    await withStatementTimeout(NO_STATEMENT_TIMEOUT, async () => {
      await sql`INSERT INTO orders (order_id, ${list})
        SELECT 'ETA-' || (400000000 + g)::text, ${list} FROM orders, generate_series(1, 20000) AS g
        WHERE orders.id = ${id}`.execute(t.database.db);
      await sql`ANALYZE orders`.execute(t.database.db);
    });
    // A connection of its own: PostgreSQL weighs a generic plan against the average of every custom plan a statement
    // had on its connection, and those of the tests above were costed for three orders.
    const own = await openDatabase({ url: t.database.connectionString!, poolSize: 1 });
    const prepared = await preparedBy(async (db) => {
      const queries = new OrderQueriesService(db, orderFieldsOf(await appKeyring(t)));
      for (let i = 0; i < 8; i += 1) {
        await queries.listQueue(staff, 'orderHistory', 20 + i, 50);
        await queries.waitingTooLong(staff, 2 + i, 50);
        // Not in the newest 500: the walk of 10,000 follows, each asking for the queue's newest order.
        await queries.searchQueue(staff, 'orderHistory', `zq${i}x`, 0, 50);
        // A whole order id, the commonest search: one order's row. Costed for the ids it was given, that row cost
        // far less than a plan for PostgreSQL's guess of their number, so it was planned anew for every search
        // (1.2-1.6 ms of planning for 0.1 ms of work at a million orders).
        const found = await queries.searchQueue(staff, 'orderHistory', `ETA-${400000001 + i}`, 0, 50);
        expect(found.rows.map((r) => r.order_id)).toEqual([`ETA-${400000001 + i}`]);
      }
    }, own.db).finally(() => own.close());
    const statements = JSON.stringify(prepared.map((p) => p.statement));
    const often = prepared.filter((p) => p.generic_plans + p.custom_plans >= 8);
    expect(often.length, statements).toBeGreaterThanOrEqual(5);
    for (const p of often) expect(p.generic_plans, p.statement).toBeGreaterThan(0);
    const rows = prepared.find((p) => /json_agg\(r /.test(p.statement) && /any\(/i.test(p.statement));
    expect(rows, statements).toBeDefined();
    expect(rows!.generic_plans + rows!.custom_plans).toBeGreaterThanOrEqual(8);
  });

  it('keeps its connections, and the statements they prepared, through a quiet spell', async () => {
    // A desk is quiet for minutes at a time. A connection closed after seconds idle (pg's default is 10 s) made the next
    // search open one and plan each of its statements five times before settling on a plan: 20-40 ms for a name's
    // exact step at a million orders, the first search after each quiet spell three to six times slower.
    const own = await openDatabase({ url: t.database.connectionString!, poolSize: 2 });
    try {
      const fields = orderFieldsOf(await appKeyring(t));
      // Both connections at once (each waits for the other), each with a page read on it.
      const pids = async () => {
        let arrived = 0;
        let bothIn: () => void = () => {};
        const both = new Promise<void>((resolve) => (bothIn = resolve));
        return new Set(
          await Promise.all(
            [0, 1].map(() =>
              own.db.connection().execute(async (db) => {
                if ((arrived += 1) === 2) bothIn();
                await both;
                await new OrderQueriesService(db, fields).listQueue(staff, 'newOrder', 1, 50);
                const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db);
                return rows[0]!.pid;
              }),
            ),
          ),
        );
      };
      const before = await pids();
      expect(before.size).toBe(2);
      // Past pg's default idle timeout.
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      expect(own.poolStats!().total).toBe(2);
      expect(await pids()).toEqual(before);
    } finally {
      await own.close();
    }
  }, 30_000);

  it('runs a script of several statements, which a prepared statement cannot hold', async () => {
    // As a prepared statement this would fail with "cannot insert multiple commands into a prepared statement".
    await expect(sql`SELECT 1 AS n; SELECT 2 AS n`.execute(t.database.db)).resolves.toBeDefined();
  });
});
