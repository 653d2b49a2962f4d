// Entry point: check configuration, prepare the database, listen; close cleanly on SIGINT/SIGTERM.
import { ConfigError, configWarnings, loadConfig, type Config } from './lib/config.js';
import { loadOrCreateSecret } from './lib/secrets.js';
import { prepareDatabase } from './startup.js';
import { ensureFirstAdmin } from './modules/auth/bootstrap-admin.js';
import { buildApp } from './app.js';
import { openDocumentStore } from './lib/storage/open-document-store.js';

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
const database = await prepareDatabase(config);
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
  const seeded = await seedDemoDataIfEmpty(database.db, {
    orders: config.demoOrders,
    store: await openDocumentStore(config),
  });
  if (seeded) {
    process.stdout.write(
      `  Demo data: ${seeded.orders} orders and ${seeded.staff.length} staff (password "${seeded.staffPassword}"): ` +
        `${seeded.staff.map((s) => `${s.email} (${s.type})`).join(', ')}\n\n`,
    );
  }
}

const app = await buildApp({ config, database, jwtSecret });
for (const warning of configWarnings(config)) app.log.warn(warning);

let closing = false;
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
