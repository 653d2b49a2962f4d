// `npm run db:seed -- --orders N [--seed S] [--staff-password P] [--reference-date D] [--result-file F]`: appends N demo orders
// (and any missing demo staff) to the configured database: DATABASE_URL, or the embedded one under DATA_DIR; the
// demo signature and approved document go to the document store under DATA_DIR (the server's).
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { MIN_PASSWORD_LENGTH } from '@eta/contracts';
import { ConfigError, loadConfig } from '../lib/config.js';
import { prepareDatabase } from '../startup.js';
import { openDocumentStore } from '../lib/storage/open-document-store.js';
import { EncryptedDocumentStore } from '../lib/storage/encrypted-document-store.js';
import { configuredMasterKeys, DataKeyError, openKeyring } from '../modules/personal-data/data-keys.js';
import { MAX_SEED_ORDERS, seedDemoData, type SeedOptions } from '../demo/demo-data.js';

const USAGE =
  'usage: node apps/server/dist/cli/seed.js --orders N [--seed S] [--staff-password P] [--reference-date YYYY-MM-DD|now]\n' +
  '                                         [--result-file FILE]\n' +
  '  --orders          orders to append, 1 to 10000000\n' +
  '  --seed            random seed, a whole number (default 1); the same seed gives the same data\n' +
  '  --staff-password  password of demo staff created now (default demo1234)\n' +
  '  --reference-date  "now" of the demo data (default 2026-11-20T12:00:00Z); orders span the two years before it\n' +
  '  --result-file     also write what was loaded and the seconds of each phase to FILE as JSON\n';

class UsageError extends Error {}

function wholeNumber(name: string, raw: string, min: number, max: number): number {
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        orders: { type: 'string' },
        seed: { type: 'string' },
        'staff-password': { type: 'string' },
        'reference-date': { type: 'string' },
        'result-file': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

type Args = Omit<SeedOptions, 'store' | 'keyring'> & { resultFile?: string };

function readArgs(argv: string[]): Args {
  const values = parse(argv);
  if (values.orders === undefined) throw new UsageError('--orders is required');
  const opts: Args = {
    orders: wholeNumber('orders', values.orders, 1, MAX_SEED_ORDERS),
  };
  if (values['result-file'] !== undefined) opts.resultFile = values['result-file'];
  if (values.seed !== undefined) opts.seed = wholeNumber('seed', values.seed, 0, 0xffff_ffff);
  const password = values['staff-password'];
  if (password !== undefined) {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new UsageError(`--staff-password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    opts.staffPassword = password;
  }
  const reference = values['reference-date'];
  if (reference !== undefined) {
    const at = reference === 'now' ? new Date() : new Date(reference);
    if (Number.isNaN(at.getTime())) throw new UsageError(`--reference-date is not a date: "${reference}"`);
    opts.reference = at;
  }
  return opts;
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const s = (n: number) => `${n.toFixed(1)} s`;

async function main(): Promise<number> {
  let args: Args;
  let config;
  try {
    args = readArgs(process.argv.slice(2));
    config = loadConfig();
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`seed: ${err.message}\n${USAGE}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`seed: configuration error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }

  const { resultFile, ...opts } = args;
  const started = performance.now();
  const target = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded database in ${config.dataDir}/db`;
  process.stdout.write(`Seeding ${opts.orders} demo orders into the ${target}\n`);
  let database;
  try {
    database = await prepareDatabase(config);
  } catch (err) {
    process.stderr.write(`seed: cannot open the database: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  // Orders are sealed with the server's own data keys (DATA_KEY, or the trial key in DATA_DIR/secrets).
  let keyring;
  try {
    keyring = await openKeyring(database.db, await configuredMasterKeys(config));
  } catch (err) {
    if (!(err instanceof DataKeyError)) throw err;
    process.stderr.write(`seed: ${err.message}\n`);
    await database.close();
    return 1;
  }
  // Ctrl-C stops after the current batch so the dropped indexes and the counters are restored; twice quits at once.
  const abort = new AbortController();
  process.on('SIGINT', () => {
    if (abort.signal.aborted) process.exit(130);
    process.stderr.write(
      '\nStopping after the current batch (Ctrl-C again to quit now, leaving indexes and foreign keys dropped)…\n',
    );
    abort.abort();
  });
  try {
    const result = await seedDemoData(database.db, {
      ...opts,
      store: new EncryptedDocumentStore(await openDocumentStore(config), keyring),
      keyring,
      signal: abort.signal,
      // On PostgreSQL the rows stream in with COPY on connections of the loader's own.
      ...(database.connectionString ? { connectionString: database.connectionString } : {}),
      onProgress: (p) => {
        if (p.phase === 'orders') process.stdout.write(`  ${p.inserted} / ${p.total} orders  (${seconds(started)})\n`);
        if (p.phase === 'indexes') process.stdout.write(`  building indexes…  (${seconds(started)})\n`);
      },
    });
    process.stdout.write(
      `Done in ${seconds(started)}: ${result.orders} orders ${result.firstOrderId} … ${result.lastOrderId}, ` +
        `${result.remarks} remarks, ${result.mails} mails, ${result.downloads} downloads, ${result.disputes} disputes, ` +
        `${result.auditRows} audit rows.\n` +
        `  rows ${s(result.seconds.rows)}, then ${s(result.seconds.finish)} for indexes, foreign keys, counters and ` +
        `VACUUM ANALYZE (partly side by side: indexes ${s(result.seconds.indexes)}, foreign keys ` +
        `${s(result.seconds.keys)}, counters ${s(result.seconds.counters)}, VACUUM ANALYZE ${s(result.seconds.vacuum)})\n`,
    );
    if (resultFile) {
      const { staffPassword: _password, ...loaded } = result;
      const phases = Object.fromEntries(Object.entries(result.seconds).map(([k, v]) => [k, Number(v.toFixed(1))]));
      const total = Number(((performance.now() - started) / 1000).toFixed(1));
      await writeFile(resultFile, JSON.stringify({ ...loaded, seconds: { ...phases, total } }, null, 2) + '\n');
    }
    if (result.staff.length > 0) {
      process.stdout.write(
        `Demo staff created (password "${result.staffPassword}"): ` +
          `${result.staff.map((s) => `${s.email} (${s.type})`).join(', ')}\n`,
      );
    }
    return 0;
  } catch (err) {
    if (abort.signal.aborted) {
      process.stderr.write(`seed: stopped after ${seconds(started)}; the orders loaded so far are kept.\n`);
      return 130;
    }
    process.stderr.write(`seed: failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
