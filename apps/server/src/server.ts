// Entry point: check configuration, prepare the database, listen; close cleanly on SIGINT/SIGTERM.
import type { Socket } from 'node:net';
import { plural } from '@eta/contracts';
import { ConfigError, configWarnings, loadConfig, type Config } from './lib/config.js';
import { loadOrCreateSecret } from './lib/secrets.js';
import { prepareDatabase } from './startup.js';
import { ensureFirstAdmin } from './modules/auth/bootstrap-admin.js';
import { buildApp } from './app.js';
import { openDocumentStore } from './lib/storage/open-document-store.js';
import { EncryptedDocumentStore } from './lib/storage/encrypted-document-store.js';
import { configuredMasterKeys, DataKeyError, openKeyring } from './modules/personal-data/data-keys.js';
import { ShutdownDeadline } from './lib/shutdown-deadline.js';
import { workerPoolActivity } from './lib/workers/worker-pool.js';
import { INTERACTIVE_STATEMENT_TIMEOUT_MS, NO_STATEMENT_TIMEOUT, withStatementTimeout } from './db/statement-budget.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

const config = readConfig();
// Requests' statements run under the interactive budget unless they say otherwise (docs/decisions/database.md).
const database = await prepareDatabase(config, { statementTimeoutMs: INTERACTIVE_STATEMENT_TIMEOUT_MS });
// Every data key of personal data is unwrapped now: with a wrong DATA_KEY the server never starts (issue 24).
const keyring = await openKeyring(database.db, await configuredMasterKeys(config)).catch(async (err: unknown) => {
  if (!(err instanceof DataKeyError)) throw err;
  process.stderr.write(`Personal data keys: ${err.message}\n`);
  await database.close();
  process.exit(1);
});
const jwtSecret = config.jwtSecret ?? (await loadOrCreateSecret(config.dataDir, 'jwt-secret'));

const admin = await ensureFirstAdmin(database.db, { email: config.adminEmail, password: config.adminPassword });
if (admin?.generatedPassword) {
  // Printed once, on the console only (not the log stream): the operator must change it after signing in.
  process.stdout.write(
    `\n  First Admin created.\n    e-mail:   ${admin.email}\n    password: ${admin.generatedPassword}\n` +
      `  Shown only this once; sign in and change it under Change Password.\n\n`,
  );
}
if (config.demoData) {
  // Loaded only when asked for: the generator and its catalogue are not part of a production start.
  const { seedDemoDataIfEmpty } = await import('./demo/demo-data.js');
  const store = new EncryptedDocumentStore(await openDocumentStore(config), keyring);
  // No budget: a large DEMO_ORDERS loads for a while, and a second server waits for the first one's seeding lock.
  const seeded = await withStatementTimeout(NO_STATEMENT_TIMEOUT, () =>
    seedDemoDataIfEmpty(database.db, { orders: config.demoOrders, store, keyring }),
  );
  if (seeded) {
    process.stdout.write(
      `  Demo data: ${seeded.orders} orders and ${seeded.staff.length} staff (password "${seeded.staffPassword}"): ` +
        `${seeded.staff.map((s) => `${s.email} (${s.type})`).join(', ')}\n\n`,
    );
  }
}

const app = await buildApp({ config, database, jwtSecret, keyring });
for (const warning of configWarnings(config)) app.log.warn(warning);

let closing = false;
let httpConnections = 0;
app.server.on('connection', (socket: Socket) => {
  httpConnections += 1;
  socket.once('close', () => (httpConnections -= 1));
});
/** What the server holds besides its handles, in words, for the shutdown deadline's line (only what is open). */
function holding(): Record<string, string> {
  const held: Record<string, string> = {};
  const jobs = workerPoolActivity().flatMap((pool) => [
    ...pool.running.map((job) => `${job.job} running ${job.seconds} s`),
    ...(pool.waiting > 0 ? [`${pool.waiting} waiting`] : []),
  ]);
  if (jobs.length > 0) held['worker pool'] = jobs.join(', ');
  if (httpConnections > 0) held['HTTP connections'] = String(httpConnections);
  const pool = database.poolStats?.();
  if (pool && pool.total > 0) {
    held['database pool'] =
      `${plural(pool.total, 'connection')}, ${pool.idle} idle, ${plural(pool.waiting, 'query', 'queries')} waiting`;
  }
  return held;
}
/**
 * app.close() runs the whole order (docs/DEPLOY.md): /api/ready answers 503 and the live desk's streams end with a
 * retry hint (preClose); the listener closes and the requests in flight are answered, for at most
 * SHUTDOWN_TIMEOUT_MS (lib/draining-server.ts); the outbox worker hands back the mails it still holds and the event
 * bus closes (onClose). Only then does the pool close: a request still running keeps its database. Whatever holds the
 * process past SHUTDOWN_TIMEOUT_MS and a few seconds, it exits non-zero, saying what held it (lib/shutdown-deadline.ts).
 */
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: finishing requests in flight');
  const deadline = new ShutdownDeadline({ signal, timeoutMs: config.shutdownTimeoutMs, holding });
  deadline.step('draining the requests in flight');
  app.server.once('close', () => deadline.step("closing the app's workers (outbox, event bus, worker pool, log)"));
  try {
    await app.close();
    deadline.step('closing the database pool');
    await database.close();
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    deadline.exit(1);
  }
  app.log.info('shut down');
  deadline.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
