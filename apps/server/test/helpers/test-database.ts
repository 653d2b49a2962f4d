// A fresh, migrated database per test file: in-memory PGlite, or (TEST_DB=postgres) a new database on the
// PostgreSQL server at DATABASE_URL that is dropped again afterwards.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export const testBackend = (): 'pglite' | 'postgres' => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * pg's Pool.end() resolves before its sockets are gone, so a backend may still be closing. DROP ... WITH
 * (FORCE) would kill it mid-goodbye and the client would throw an unhandled "terminating connection", so
 * wait for the backends to leave instead (force only as a last resort).
 */
async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006') throw err; // 55006: still in use
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

export async function createTestDatabase(): Promise<DatabaseHandle> {
  if (testBackend() === 'pglite') {
    const handle = await openDatabase({});
    await migrateToLatest(handle.db as Kysely<unknown>);
    return handle;
  }
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  const name = `eta_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: 4 });
  await migrateToLatest(handle.db as Kysely<unknown>);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await dropDatabase(serverUrl, name);
    },
  };
}
