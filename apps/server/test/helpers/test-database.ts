// A fresh, migrated database per test file: in-memory PGlite, or (TEST_DB=postgres) a new database on the
// PostgreSQL server at DATABASE_URL that is dropped again afterwards.
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { Kysely } from 'kysely';
import pg from 'pg';
import { openDatabase, PGLITE_EXTENSIONS, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export const testBackend = (): 'pglite' | 'postgres' => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');

/** Runs SQL on the PostgreSQL server of `url` outside any database's pool (creating and dropping databases). */
export async function adminQuery(url: string, text: string): Promise<void> {
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

/** What a migrated image is made from: the migrations, their list, and the PGlite that wrote it. */
const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const IMAGE_SOURCES = [
  fileURLToPath(new URL('../../src/db/migrate.ts', import.meta.url)),
  createRequire(import.meta.url).resolve('@electric-sql/pglite'),
];

/**
 * A migrated PGlite database as PGlite's data folder image, made once per set of migrations and kept in the temporary
 * folder for every test file and run: PGlite's initdb takes ~2.8 s of CPU and the migrations ~0.4 s, where starting
 * from the image takes ~0.5 s, and a test run opens well over a hundred PGlite databases. Written under a temporary
 * name and renamed, so workers that make it at once never read half of one.
 */
async function migratedImage(): Promise<Blob> {
  const hash = createHash('sha256');
  const migrations = (await readdir(MIGRATIONS_DIR)).sort().map((name) => path.join(MIGRATIONS_DIR, name));
  for (const source of [...IMAGE_SOURCES, ...migrations]) hash.update(source).update(await readFile(source));
  const file = path.join(os.tmpdir(), `eta-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const fresh = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(fresh) });
  try {
    await migrateToLatest(db);
    const image = await fresh.dumpDataDir('none');
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(temporary, Buffer.from(await image.arrayBuffer()));
    await rename(temporary, file);
    return image;
  } finally {
    await db.destroy();
    if (!fresh.closed) await fresh.close();
  }
}

export async function createTestDatabase(): Promise<DatabaseHandle> {
  if (testBackend() === 'pglite') return openDatabase({ image: await migratedImage() });
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
