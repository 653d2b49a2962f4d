// The limits' counters in PostgreSQL (the UNLOGGED table limit_counters, migration 020), so sign-in, tracking and
// intake limits hold across every server process on one database (issue 23). Each update is one short transaction:
// lock the keys' rows, run the caller's change, write back what it changed. Cost per check: one round trip to lock
// and read, one to write when something changed, BEGIN and COMMIT (docs/PERFORMANCE.md). A read and an addition,
// which need no decision in between, are one statement each (or one for both) and hold no lock across round trips.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import {
  addToCounter,
  addToCounterReading,
  deletePassedCounters,
  lockCounters,
  readCounter,
  saveCounters,
  skipCommitFlush,
} from './limit-counters.repository.js';
import { WindowCounters, type CounterKey, type ExpiringCounters, type WindowCounter } from './window-counters.js';

export class PostgresCounters implements ExpiringCounters {
  /** @param namespace keeps one limit's keys apart from another's in the one table ('login', 'track', …) */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly namespace: string,
  ) {}

  update<T>(keys: readonly CounterKey[], now: number, change: (counters: WindowCounter[]) => T): Promise<T> {
    const stored = keys.map((k) => ({ key: `${this.namespace}:${k.key}`, windowMs: k.windowMs }));
    return this.db.transaction().execute(async (trx) => {
      await skipCommitFlush(trx);
      const counters = await lockCounters(trx, stored, now);
      const before = counters.map((c) => ({ ...c }));
      const result = change(counters);
      const changed = stored.flatMap((k, i) => {
        const counter = counters[i]!;
        const was = before[i]!;
        // A fresh row the change left at zero is changed too: it must not stay (saveCounters deletes it).
        const fresh = was.count === 0 && was.notBefore === 0;
        return fresh || counter.count !== was.count || counter.notBefore !== was.notBefore
          ? [{ key: k.key, counter }]
          : [];
      });
      await saveCounters(trx, changed);
      return result;
    });
  }

  async read(key: CounterKey, now: number): Promise<WindowCounter> {
    const counter = await readCounter(this.db, `${this.namespace}:${key.key}`, now);
    return counter ?? { count: 0, resetAt: now + key.windowMs, notBefore: 0 };
  }

  add(key: CounterKey, now: number): Promise<WindowCounter> {
    return addToCounter(this.db, { key: `${this.namespace}:${key.key}`, windowMs: key.windowMs }, now);
  }

  async addAndRead(added: CounterKey, read: CounterKey, now: number): Promise<[WindowCounter, WindowCounter]> {
    const [counted, other] = await addToCounterReading(
      this.db,
      { key: `${this.namespace}:${added.key}`, windowMs: added.windowMs },
      `${this.namespace}:${read.key}`,
      now,
    );
    return [counted, other ?? { count: 0, resetAt: now + read.windowMs, notBefore: 0 }];
  }
}

/** Housekeeping: forgets the shared counters whose window and lock have passed; returns how many. */
export const purgePassedCounters = (db: Kysely<DB>, now = Date.now()): Promise<number> => deletePassedCounters(db, now);

/**
 * The counters of one limit for the configured database: shared in PostgreSQL, where several processes may serve
 * the desk; in this process's memory on the embedded database, which only one process can open.
 */
export function openCounters(
  database: { db: Kysely<DB>; kind: 'postgres' | 'pglite' },
  namespace: string,
): ExpiringCounters {
  return database.kind === 'postgres' ? new PostgresCounters(database.db, namespace) : new WindowCounters();
}
