// The event bus between processes on PostgreSQL (LISTEN/NOTIFY): what one process publishes every process hears,
// and a broken listening connection is noticed, re-made, and reported so caches can drop what they may have missed.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.js';
import type { EventBus } from '../src/modules/events/event-bus.js';
import { openEventBus } from '../src/modules/events/open-event-bus.js';
import { createTestDatabase } from './helpers/test-database.js';

let database: DatabaseHandle;
const buses: EventBus[] = [];

const open = async () => {
  const bus = await openEventBus(database, () => {});
  buses.push(bus);
  return bus;
};

async function until(what: string, check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const bus of buses) await bus.close();
  await database.close();
});

describe('the event bus on PostgreSQL', () => {
  it('delivers a payload published by one process to the subscribers of every process, itself included', async () => {
    const [a, b] = [await open(), await open()];
    const heard: string[] = [];
    a.subscribe('eta_staff', (p) => heard.push(`a:${p}`));
    b.subscribe('eta_staff', (p) => heard.push(`b:${p}`));
    await a.publish('eta_staff', '42');
    await until('both processes', () => heard.length === 2);
    expect(heard.sort()).toEqual(['a:42', 'b:42']);
  });

  it('a killed listening connection reads as not listening, is re-made, and says so', async () => {
    const bus = await open();
    const publisher = await open();
    let resumed = 0;
    bus.onResume(() => (resumed += 1));
    const heard: string[] = [];
    bus.subscribe('eta_staff', (p) => heard.push(p));
    expect(bus.listening).toBe(true);

    const admin = new pg.Client({ connectionString: database.connectionString });
    await admin.connect();
    try {
      // Every backend that listens on this database, the publisher's too: the bus must survive it.
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`,
      );
    } finally {
      await admin.end();
    }
    await until('the break to be noticed', () => !bus.listening);
    await until('listening again', () => bus.listening && publisher.listening);
    expect(resumed).toBe(1);
    await publisher.publish('eta_staff', 'after the break');
    await until('the event after the break', () => heard.includes('after the break'));
  });
});
