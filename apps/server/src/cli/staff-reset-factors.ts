// `npm run staff:reset-factors -- <e-mail>` (issue 34): the way back in when every Admin has lost their second factor
// (phone and recovery codes). Run on the server, with its configuration (DATABASE_URL or DATA_DIR): removes the
// member's authenticator app and recovery codes and ends their sessions, audited as done from the command line. Their
// next sign-in asks them to set up a new app when the sign-in policy wants one for their role.
import { ConfigError, loadConfig } from '../lib/config.js';
import { prepareDatabase } from '../startup.js';
import { writeAudit } from '../modules/audit/audit.repository.js';
import { deleteFactors, endSessions } from '../modules/auth/sign-in.repository.js';
import { findStaffByEmail } from '../modules/staff/staff.repository.js';

const USAGE = 'usage: npm run staff:reset-factors -- <e-mail of the staff member>\n';

async function main(): Promise<number> {
  const email = process.argv[2]?.trim();
  if (!email || process.argv.length > 3) {
    process.stderr.write(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`staff:reset-factors: configuration error: ${err.message}\n`);
    return 1;
  }
  const database = await prepareDatabase(config);
  try {
    const staff = await findStaffByEmail(database.db, email);
    if (!staff?.active) {
      process.stderr.write(`staff:reset-factors: no active staff member has the e-mail ${email}\n`);
      return 1;
    }
    await database.db.transaction().execute(async (trx) => {
      await deleteFactors(trx, staff.id);
      await endSessions(trx, staff.id, 'factors reset from the command line');
      await writeAudit(trx, { id: null, name: 'Command line', ip: 'local' }, [
        { action: 'staff.factors-reset', target: `staff:${staff.id}` },
      ]);
    });
    process.stdout.write(
      `${staff.name} (${staff.type}) has no second factor now and was signed out everywhere; at the next sign-in ` +
        'the desk asks for a new authenticator app if the sign-in policy wants one for this role.\n',
    );
    return 0;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
