// The first Admin: from ADMIN_EMAIL/ADMIN_PASSWORD when set, otherwise with a generated password that is
// printed once on the console (never logged) and must be changed after signing in.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { countAdmins, insertStaff } from '../staff/staff.repository.js';
import { writeAudit } from '../audit/audit.repository.js';
import { hashPassword } from './passwords.js';

export interface BootstrapResult {
  email: string;
  generatedPassword?: string;
}

export async function ensureFirstAdmin(
  db: Kysely<DB>,
  opts: { email?: string | undefined; password?: string | undefined },
): Promise<BootstrapResult | null> {
  if ((await countAdmins(db)) > 0) return null;
  const email = opts.email ?? 'admin@eta-desk.local';
  const generatedPassword = opts.password ? undefined : randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(opts.password ?? generatedPassword!);
  await db.transaction().execute(async (trx) => {
    const admin = await insertStaff(trx, { name: 'Administrator', email, passwordHash, type: 'Admin' });
    await writeAudit(trx, null, [{ action: 'staff.bootstrap-admin', target: `staff:${admin.id}` }]);
  });
  return generatedPassword ? { email, generatedPassword } : { email };
}
