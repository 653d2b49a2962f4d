// `npm run staff:reset-factors -- <e-mail>` (issue 34): the way back in when every Admin has lost their second factor
// (phone and recovery codes). Run on the server, with its configuration (DATABASE_URL or DATA_DIR): removes the
// member's authenticator app, passkeys and recovery codes and ends their sessions, audited as done from the command
// line. Their next sign-in asks them to set up a new app when the sign-in policy wants one for their role. When the
// policy has their role sign in through single sign-on only (a provider that is down, say), that role may use its
// password again, until an Admin saves the policy once more.
import { ConfigError, loadConfig } from '../lib/config.js';
import { prepareDatabase } from '../startup.js';
import { writeAudit } from '../modules/audit/audit.repository.js';
import { deleteFactors, endSessions, findSignInPolicy, saveSignInPolicy } from '../modules/auth/sign-in.repository.js';
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
    const freed = await database.db.transaction().execute(async (trx) => {
      const actor = { id: null, name: 'Command line', ip: 'local' };
      await deleteFactors(trx, staff.id);
      await endSessions(trx, staff.id, 'factors reset from the command line');
      await writeAudit(trx, actor, [{ action: 'staff.factors-reset', target: `staff:${staff.id}` }]);
      const policy = await findSignInPolicy(trx);
      if (!policy?.sso_roles.includes(staff.type)) return false;
      const ssoRoles = policy.sso_roles.filter((role) => role !== staff.type);
      const saved = {
        mfaRoles: policy.mfa_roles,
        passwordlessPasskeys: policy.passwordless_passkeys,
        ssoRoles,
        ssoCreateDomain: policy.sso_create_domain,
      };
      await saveSignInPolicy(trx, saved, policy.updated_by ?? staff.id);
      await writeAudit(trx, actor, [
        {
          action: 'staff.sign-in-policy',
          target: 'sign-in-policy',
          before: { ssoRoles: policy.sso_roles },
          after: { ssoRoles },
        },
      ]);
      return true;
    });
    process.stdout.write(
      `${staff.name} (${staff.type}) has no second factor now and was signed out everywhere; at the next sign-in ` +
        'the desk asks for a new authenticator app if the sign-in policy wants one for this role.\n' +
        (freed ? `The ${staff.type} role may sign in with its password again (it had to use single sign-on).\n` : ''),
    );
    return 0;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
