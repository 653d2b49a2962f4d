// `npm run intake:import -- <applications.jsonl> --site <landing site> [--errors <file>]`: imports a file of
// applications through the intake call's own checks and service (modules/intake/import-file.ts), in the app's
// composition root without listening. This process sends no mail: the server's outbox worker does.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../lib/config.js';
import { loadOrCreateSecret } from '../lib/secrets.js';
import { prepareDatabase } from '../startup.js';
import { buildApp } from '../app.js';
import { DataKeyError } from '../modules/personal-data/data-keys.js';
import { importApplications, type ImportTally } from '../modules/intake/import-file.js';

const USAGE =
  'usage: npm run intake:import -- <applications.jsonl> --site <landing site key> [--errors <file>]\n' +
  '  <applications.jsonl>  one application a line, as the body of POST /api/intake/orders (docs/INTAKE.md)\n' +
  '  --site                the landing site the orders belong to (e.g. default)\n' +
  '  --errors              where refused lines are written (default <file>.errors.jsonl)\n';

function readArgs(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { site: { type: 'string' }, errors: { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new Error('give exactly one file of applications');
  if (!values.site || !/^[a-z0-9-]{1,40}$/.test(values.site)) throw new Error('--site <landing site key> is required');
  const file = positionals[0]!;
  return { file, site: values.site, errorsFile: values.errors ?? `${file}.errors.jsonl` };
}

async function main(): Promise<number> {
  let args: ReturnType<typeof readArgs>;
  let config;
  try {
    args = readArgs(process.argv.slice(2));
    const loaded = loadConfig();
    config = { ...loaded, logLevel: 'warn', mail: { ...loaded.mail, worker: false } };
  } catch (err) {
    const usage = err instanceof ConfigError ? '' : USAGE;
    process.stderr.write(`intake:import: ${err instanceof Error ? err.message : String(err)}\n${usage}`);
    return 2;
  }
  const database = await prepareDatabase(config);
  const jwtSecret = config.jwtSecret ?? (await loadOrCreateSecret(config.dataDir, 'jwt-secret'));
  let app;
  try {
    app = await buildApp({ config, database, jwtSecret, logger: false });
  } catch (err) {
    // The applications are sealed with the server's data keys (issue 24): a wrong DATA_KEY imports nothing.
    if (!(err instanceof DataKeyError)) throw err;
    process.stderr.write(`intake:import: ${err.message}\n`);
    await database.close();
    return 1;
  }
  const started = performance.now();
  const say = (t: ImportTally) =>
    process.stdout.write(
      `  line ${t.lines}: ${t.created} new, ${t.existing} imported before, ${t.refused} refused ` +
        `(${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
    );
  try {
    const sites = (await app.services.landingSites.list()).map((s) => s.key);
    if (!sites.includes(args.site)) {
      process.stderr.write(`intake:import: there is no landing site "${args.site}" (there are: ${sites.join(', ')})\n`);
      return 2;
    }
    const tally = await importApplications(app.services.intake, { ...args, onProgress: say });
    if (tally.refused > 0) process.stdout.write(`Refused lines and their reasons: ${args.errorsFile}\n`);
    return tally.refused > 0 ? 1 : 0;
  } catch (err) {
    process.stderr.write(`intake:import: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await app.close();
    await database.close();
  }
}

process.exitCode = await main();
