// What happens before the server takes requests: open the database, migrate, create the first Admin,
// seed demo data into an empty database. Shared by server.ts and the CLI.
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Config } from './lib/config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { Kysely } from 'kysely';

export async function openConfiguredDatabase(config: Config): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openDatabase({ url: config.databaseUrl });
  const dir = path.join(config.dataDir, 'db');
  await mkdir(dir, { recursive: true });
  return openDatabase({ dataDir: dir });
}

export async function prepareDatabase(config: Config): Promise<DatabaseHandle> {
  const handle = await openConfiguredDatabase(config);
  await migrateToLatest(handle.db as Kysely<unknown>);
  return handle;
}
