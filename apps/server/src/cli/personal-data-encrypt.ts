// `npm run personal-data:encrypt [-- --batch-size N]` (issue 24): encrypts the orders and documents stored in clear
// before encryption (modules/personal-data/encrypt-stored.ts). Safe to stop at any moment and to run again; the
// servers may keep running meanwhile.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../lib/config.js';
import { prepareDatabase } from '../startup.js';
import { openDocumentStore } from '../lib/storage/open-document-store.js';
import { configuredMasterKeys, DataKeyError, openKeyring } from '../modules/personal-data/data-keys.js';
import {
  encryptStoredDocuments,
  encryptStoredOrders,
  VerificationError,
  type ReplaceableStore,
} from '../modules/personal-data/encrypt-stored.js';

const USAGE =
  'usage: npm run personal-data:encrypt [-- --batch-size N]\n' +
  '  --batch-size  orders per transaction, 1 to 10000 (default 500)\n';

async function main(): Promise<number> {
  let batchSize = 500;
  let config;
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: { 'batch-size': { type: 'string' } },
      strict: true,
    });
    if (values['batch-size'] !== undefined) {
      batchSize = Number(values['batch-size']);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
        throw new Error(`--batch-size must be a whole number from 1 to 10000, got "${values['batch-size']}"`);
      }
    }
  } catch (err) {
    process.stderr.write(`personal-data:encrypt: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`personal-data:encrypt: configuration error: ${err.message}\n`);
    return 1;
  }
  const database = await prepareDatabase(config);
  const abort = new AbortController();
  process.on('SIGINT', () => {
    if (abort.signal.aborted) process.exit(130);
    process.stderr.write('\nStopping after the current batch (run again to go on)…\n');
    abort.abort();
  });
  try {
    const keyring = await openKeyring(database.db, await configuredMasterKeys(config));
    const orders = await encryptStoredOrders(database.db, keyring, {
      batchSize,
      signal: abort.signal,
      onBatch: (p) => process.stdout.write(`  ${p.encrypted} orders encrypted (through id ${p.lastId})\n`),
    });
    process.stdout.write(`Orders: ${orders} encrypted and verified; none is left in clear.\n`);
    const store = (await openDocumentStore(config)) as ReplaceableStore;
    const documents = await encryptStoredDocuments(database.db, keyring, store);
    process.stdout.write(
      `Documents: ${documents.encrypted} encrypted and verified, ${documents.alreadyEncrypted} already encrypted, ` +
        `${documents.missing.length} not in the store.\n`,
    );
    return 0;
  } catch (err) {
    if (abort.signal.aborted) {
      process.stderr.write('personal-data:encrypt: stopped; what was encrypted is kept, run again to go on.\n');
      return 130;
    }
    if (err instanceof DataKeyError || err instanceof VerificationError) {
      process.stderr.write(`personal-data:encrypt: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
