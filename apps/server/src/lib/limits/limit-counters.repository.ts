// The statements of the shared counters (postgres-counters.ts), each a row lock in key order so two processes
// checking overlapping keys wait for each other instead of deadlocking.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CounterKey, WindowCounter } from './window-counters.js';

/**
 * The counters' transaction does not wait for its commit to reach the disk: the table is UNLOGGED (a crash empties
 * it anyway), and without this every attempt waited for a WAL flush of its commit record (8 ms p50 on a busy machine).
 */
export async function skipCommitFlush(trx: Transaction<DB>): Promise<void> {
  await sql`SET LOCAL synchronous_commit = off`.execute(trx);
}

/**
 * Locks the keys' rows (creating fresh ones) and returns their counters in the order given, a passed window read as a
 * fresh counter. Keys must be distinct.
 */
export async function lockCounters(
  trx: Transaction<DB>,
  keys: readonly CounterKey[],
  now: number,
): Promise<WindowCounter[]> {
  const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const { rows } = await sql<{ key: string; count: number; reset_at: number; not_before: number }>`
    INSERT INTO limit_counters AS c (key, count, reset_at, not_before)
    SELECT k, 0, ${now}::bigint + w, 0
      FROM unnest(${sorted.map((k) => k.key)}::text[], ${sorted.map((k) => k.windowMs)}::bigint[]) WITH ORDINALITY AS t(k, w, i)
     ORDER BY i
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN c.reset_at <= ${now}::bigint THEN 0 ELSE c.count END,
      not_before = CASE WHEN c.reset_at <= ${now}::bigint THEN 0 ELSE c.not_before END,
      reset_at = CASE WHEN c.reset_at <= ${now}::bigint THEN excluded.reset_at ELSE c.reset_at END
    RETURNING key, count, reset_at, not_before`.execute(trx);
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return keys.map((k) => {
    const row = byKey.get(k.key)!;
    return { count: row.count, resetAt: row.reset_at, notBefore: row.not_before };
  });
}

/** Stores the counters a change set; one at zero with no lock is deleted (no row kept for a key that holds nothing). */
export async function saveCounters(
  trx: Transaction<DB>,
  changed: readonly { key: string; counter: WindowCounter }[],
): Promise<void> {
  if (changed.length === 0) return;
  await sql`
    WITH v AS (
      SELECT * FROM unnest(${changed.map((c) => c.key)}::text[], ${changed.map((c) => c.counter.count)}::int[],
                           ${changed.map((c) => c.counter.notBefore)}::bigint[]) AS t(key, count, not_before)
    ), kept AS (
      UPDATE limit_counters c SET count = v.count, not_before = v.not_before
        FROM v WHERE c.key = v.key AND (v.count > 0 OR v.not_before > 0)
    )
    DELETE FROM limit_counters c USING v WHERE c.key = v.key AND v.count <= 0 AND v.not_before <= 0`.execute(trx);
}

const asCounter = (row: { count: number; reset_at: number; not_before: number }): WindowCounter => ({
  count: row.count,
  resetAt: row.reset_at,
  notBefore: row.not_before,
});

/** A key's counter while its window lasts; undefined when there is none. Index: limit_counters' primary key. */
export async function readCounter(db: Kysely<DB>, key: string, now: number): Promise<WindowCounter | undefined> {
  const row = await db
    .selectFrom('limit_counters')
    .select(['count', 'reset_at', 'not_before'])
    .where('key', '=', key)
    .where('reset_at', '>', now)
    .executeTakeFirst();
  return row && asCounter(row);
}

/**
 * The statement that adds one to a key's counter (a fresh window when it has passed), returning it: one statement, so
 * the row is locked only while it runs, and without waiting for the commit's WAL flush (as skipCommitFlush;
 * set_config's `true` makes the setting last for this statement's own transaction only).
 */
const addition = (key: CounterKey, now: number) => sql`
  INSERT INTO limit_counters AS c (key, count, reset_at, not_before)
  SELECT ${key.key}, 1, ${now}::bigint + ${key.windowMs}::bigint, 0
    FROM (SELECT set_config('synchronous_commit', 'off', true)) AS s
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN c.reset_at <= ${now}::bigint THEN 1 ELSE c.count + 1 END,
    not_before = CASE WHEN c.reset_at <= ${now}::bigint THEN 0 ELSE c.not_before END,
    reset_at = CASE WHEN c.reset_at <= ${now}::bigint THEN excluded.reset_at ELSE c.reset_at END
  RETURNING count, reset_at, not_before`;

/** Adds one to a key's counter in its current window (addition) and returns it. */
export async function addToCounter(db: Kysely<DB>, key: CounterKey, now: number): Promise<WindowCounter> {
  const { rows } = await sql<{ count: number; reset_at: number; not_before: number }>`${addition(key, now)}`.execute(
    db,
  );
  return asCounter(rows[0]!);
}

/**
 * addToCounter for `key`, and another key's counter while its window lasts (undefined when there is none) read in
 * the same statement: one round trip where a rate and a limit beside it are checked together. `readKey` is not
 * `key` (the read sees the counters as they were before this statement). Index: limit_counters' primary key.
 */
export async function addToCounterReading(
  db: Kysely<DB>,
  key: CounterKey,
  readKey: string,
  now: number,
): Promise<[WindowCounter, WindowCounter | undefined]> {
  const { rows } = await sql<{
    count: number;
    reset_at: number;
    not_before: number;
    read_count: number | null;
    read_reset_at: number | null;
    read_not_before: number | null;
  }>`
    WITH added AS (${addition(key, now)})
    SELECT a.count, a.reset_at, a.not_before,
           r.count AS read_count, r.reset_at AS read_reset_at, r.not_before AS read_not_before
      FROM added a LEFT JOIN limit_counters r ON r.key = ${readKey} AND r.reset_at > ${now}::bigint`.execute(db);
  const row = rows[0]!;
  const read =
    row.read_count === null
      ? undefined
      : asCounter({ count: row.read_count, reset_at: row.read_reset_at!, not_before: row.read_not_before! });
  return [asCounter(row), read];
}

/** Forgets counters whose window and lock have both passed; returns how many. */
export async function deletePassedCounters(db: Kysely<DB>, now: number): Promise<number> {
  const result = await db
    .deleteFrom('limit_counters')
    .where('reset_at', '<=', now)
    .where('not_before', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
