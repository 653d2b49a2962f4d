// `npm run keys:rotate [-- --new-data-keys]` (issue 24): every data key re-wrapped by DATA_KEY, the new master key,
// each unwrapped with DATA_KEY_PREVIOUS (the old one) where that wrapped it. Servers keep running throughout: they
// hold their data keys unwrapped, and start with either wrapping while both keys are configured (docs/DEPLOY.md).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../lib/config.js';
import { prepareDatabase } from '../startup.js';
import { configuredMasterKeys, DataKeyError, openKeyring, rotateDataKeys } from '../modules/personal-data/data-keys.js';

const USAGE =
  'usage: DATA_KEY=<new> DATA_KEY_PREVIOUS=<old> npm run keys:rotate [-- --new-data-keys]\n' +
  '  re-wraps every data key under DATA_KEY (the data itself is not touched)\n' +
  '  --new-data-keys  also make new order and document data keys: new values are sealed with them\n';

async function main(): Promise<number> {
  let newDataKeys: boolean;
  let config;
  try {
    newDataKeys = Boolean(
      parseArgs({ args: process.argv.slice(2), options: { 'new-data-keys': { type: 'boolean' } }, strict: true })
        .values['new-data-keys'],
    );
  } catch (err) {
    process.stderr.write(`keys:rotate: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`keys:rotate: configuration error: ${err.message}\n`);
    return 1;
  }
  if (!config.dataKey) {
    process.stderr.write(`keys:rotate: DATA_KEY is not set: it is the master key to rotate to\n${USAGE}`);
    return 1;
  }
  const database = await prepareDatabase(config);
  try {
    const masters = await configuredMasterKeys(config);
    const summary = await rotateDataKeys(database.db, masters, { newDataKeys });
    // Proof that the new master key alone now opens every data key, as the servers will without DATA_KEY_PREVIOUS.
    await openKeyring(database.db, { current: masters.current });
    process.stdout.write(
      `Data keys re-wrapped under DATA_KEY (fingerprint ${masters.current.fingerprint}): ${summary.rewrapped} ` +
        `re-wrapped, ${summary.alreadyCurrent} already under it` +
        (summary.created.length > 0
          ? `; new data keys ${summary.created.map((k) => `${k.kind} (id ${k.id})`).join(', ')}`
          : '') +
        '.\nEvery data key opens with DATA_KEY alone: restart the servers without DATA_KEY_PREVIOUS.\n',
    );
    return 0;
  } catch (err) {
    if (!(err instanceof DataKeyError)) throw err;
    process.stderr.write(`keys:rotate: nothing was changed: ${err.message}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
