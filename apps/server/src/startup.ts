// What happens before the server takes requests: open the database, migrate, create the first Admin,
// seed demo data into an empty database. Shared by server.ts and the CLI.
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { Config } from './lib/config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { NO_STATEMENT_TIMEOUT, withStatementTimeout } from './db/statement-budget.js';
import type { Kysely } from 'kysely';

export interface DatabaseOptions {
  /**
   * Each statement's budget (db/statement-budget.ts): none unless given, as the CLI tools need (bulk loads, VACUUM);
   * the server gives the interactive one.
   */
  statementTimeoutMs?: number;
}

export async function openConfiguredDatabase(config: Config, opts: DatabaseOptions = {}): Promise<DatabaseHandle> {
  const statementTimeoutMs = opts.statementTimeoutMs ?? NO_STATEMENT_TIMEOUT;
  if (config.databaseUrl) return openDatabase({ url: config.databaseUrl, statementTimeoutMs });
  const dir = path.join(config.dataDir, 'db');
  await mkdir(dir, { recursive: true });
  return openDatabase({ dataDir: dir });
}

export async function prepareDatabase(config: Config, opts: DatabaseOptions = {}): Promise<DatabaseHandle> {
  const handle = await openConfiguredDatabase(config, opts);
  // Migrations have no budget: an index built over a million orders takes minutes, and a second server starting
  // at the same time waits for the first one's migration lock.
  await withStatementTimeout(NO_STATEMENT_TIMEOUT, () => migrateToLatest(handle.db as Kysely<unknown>));
  return handle;
}
