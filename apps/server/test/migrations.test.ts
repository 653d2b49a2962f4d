// Migrations on data made before them (PostgreSQL). Migration 037 stores each order's search text, which rewrites the
// orders table; the orders already there get their text, and the table is vacuumed once the migration has committed,
// so the queues' index-only walks do not read the table for every entry until autovacuum comes. Migration 040 gives
// search_quads a faster body and keeps the index built with the old one: the orders indexed before it must still be
// found through that index by the pieces the new body computes.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { migrateTo, migrateToLatest } from '../src/db/migrate.js';
import { orderValues } from './helpers/orders.js';
import { adminQuery, testBackend } from './helpers/test-database.js';

const admin = (text: string) => adminQuery(process.env.DATABASE_URL!, text);

/** A database of the describe's own, migrated up to `step` before its tests (and dropped after them). */
function databaseMigratedTo(step: string): { db: Kysely<DB> } {
  const name = `eta_test_${randomBytes(6).toString('hex')}`;
  let handle: DatabaseHandle | undefined;
  const opened = {} as { db: Kysely<DB> };
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    handle = await openDatabase({ url: url.toString(), poolSize: 2 });
    opened.db = handle.db as Kysely<DB>;
    await migrateTo(handle.db as Kysely<unknown>, step);
  });
  afterAll(async () => {
    await handle?.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
  return opened;
}

describe.runIf(testBackend() === 'postgres')('migration 037 on orders made before it', () => {
  const opened = databaseMigratedTo('036-due-future-marked');

  it('gives every order its search text and leaves the rewritten table vacuumed', async () => {
    const { db } = opened;
    const orders = Array.from({ length: 3_000 }, (_, i) =>
      orderValues({ passport_first_name: 'Grace', passport_surname: i === 0 ? 'Hopper' : `Traveller${i}` }),
    );
    // Without the column (036 has none), as an older desk wrote them.
    for (let i = 0; i < orders.length; i += 500) {
      await db
        .insertInto('orders')
        .values(orders.slice(i, i + 500))
        .execute();
    }
    await sql`VACUUM orders`.execute(db);

    await migrateToLatest(db as Kysely<unknown>);

    const first = orders[0]!;
    const row = await sql<{ search_text: string }>`
      SELECT search_text FROM orders WHERE order_id = ${first.order_id}`.execute(db);
    expect(row.rows[0]!.search_text).toBe(
      `${first.order_id} grace hopper ${first.email} ${first.telephone_number}`.toLowerCase(),
    );
    const missing = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM orders WHERE search_text NOT LIKE '% grace traveller%' AND order_id <> ${first.order_id}`.execute(
      db,
    );
    expect(missing.rows[0]!.n).toBe(0);

    // Every page marked all-visible again: a rewrite leaves none, and only a VACUUM marks them.
    await sql`CREATE EXTENSION IF NOT EXISTS pg_visibility`.execute(db);
    const pages = await sql<{ all: number; visible: number }>`
      SELECT count(*)::int AS all, count(*) FILTER (WHERE all_visible)::int AS visible
      FROM pg_visibility_map('orders')`.execute(db);
    expect(pages.rows[0]!.all).toBeGreaterThan(10);
    expect(pages.rows[0]!.visible).toBe(pages.rows[0]!.all);
  });
});

describe.runIf(testBackend() === 'postgres')('migration 040 on orders indexed before it', () => {
  const opened = databaseMigratedTo('039-chargeback-names');

  it('finds every order indexed by the old body through the index, by any fragment of its words', async () => {
    const { db } = opened;
    // Names with what splits words and what does not: accents, a ß, apostrophes, hyphens, non-Latin letters.
    const names: [string, string][] = [
      ['Zoë', "O'Brien-Smythe"],
      ['Jürgen', 'Großmann'],
      ['Ñandú', 'Peña Nieto'],
      ['Αλέξανδρος', 'Παπαδόπουλος'],
      ['Юлия', 'Кузнецова'],
      ['Mary-Kate', 'Olsen'],
    ];
    const orders = names.map(([first, surname]) =>
      orderValues({ passport_first_name: first, passport_surname: surname, telephone_number: '+1 (555) 010-9999' }),
    );
    await db.insertInto('orders').values(orders).execute();
    const piecesBefore = await sql<{ order_id: string; pieces: number[] }>`
      SELECT order_id, search_quads(search_text) AS pieces FROM orders ORDER BY order_id`.execute(db);

    await migrateToLatest(db as Kysely<unknown>);

    const piecesAfter = await sql<{ order_id: string; pieces: number[] }>`
      SELECT order_id, search_quads(search_text) AS pieces FROM orders ORDER BY order_id`.execute(db);
    expect(piecesAfter.rows).toEqual(piecesBefore.rows);
    expect(piecesAfter.rows.every((r) => r.pieces.length > 0)).toBe(true);

    const fragments = orders.flatMap((o) =>
      `${o.order_id} ${o.passport_first_name} ${o.passport_surname} ${o.email} ${o.telephone_number}`
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => [...w].length >= 4)
        .map((w) => ({ order: o.order_id, fragment: [...w].slice(1, 5).join('') || w })),
    );
    expect(fragments.length).toBeGreaterThan(20);
    await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      for (const { order, fragment } of fragments.filter((f) => [...f.fragment].length === 4)) {
        const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT order_id FROM orders
          WHERE search_quads(search_text) @> (SELECT search_quads(${fragment}::text))`.execute(trx);
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('orders_search_quads_idx');
        const found = await sql<{ order_id: string }>`SELECT order_id FROM orders
          WHERE search_quads(search_text) @> (SELECT search_quads(${fragment}::text))`.execute(trx);
        expect(
          found.rows.map((r) => r.order_id),
          fragment,
        ).toContain(order);
      }
    });
  });
});
