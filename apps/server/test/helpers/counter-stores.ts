// The limits' counter stores a throttle test runs against: in memory always, and the shared PostgreSQL one when the
// tests run on PostgreSQL, so both implementations are held to the same behaviour.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.js';
import { PostgresCounters } from '../../src/lib/limits/postgres-counters.js';
import { WindowCounters, type ExpiringCounters } from '../../src/lib/limits/window-counters.js';
import { createTestDatabase, testBackend } from './test-database.js';

export interface CounterStore {
  name: string;
  /** A store of its own (a fresh namespace), so tests do not see each other's counters. */
  open(): ExpiringCounters;
}

/** Call at the top of a test file (it registers the database's set-up and clean-up). */
export function counterStores(): CounterStore[] {
  const stores: CounterStore[] = [{ name: 'in memory', open: () => new WindowCounters() }];
  if (testBackend() === 'postgres') {
    let handle: DatabaseHandle | undefined;
    beforeAll(async () => {
      handle = await createTestDatabase();
    });
    afterAll(async () => {
      await handle?.close();
    });
    stores.push({ name: 'in PostgreSQL', open: () => new PostgresCounters(handle!.db, randomUUID()) });
  }
  return stores;
}
