// Sign-in, session checks and password changes for staff.
import type { Kysely } from 'kysely';
import type { StaffUser } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { findStaffByEmail, findStaffById, updatePassword } from '../staff/staff.repository.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';
import type { TokenService } from './tokens.js';

export const INVALID_LOGIN = 'Invalid email or password.';
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

export const toStaffUser = (s: Pick<Staff, 'id' | 'name' | 'email' | 'type'>): StaffUser => ({
  id: s.id,
  name: s.name,
  email: s.email,
  type: s.type,
});

export class AuthService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly tokens: TokenService,
  ) {}

  /** Wrong e-mail and wrong password get the same answer and take the same time. */
  async login(email: string, password: string, ip: string): Promise<{ token: string; user: StaffUser }> {
    const staff = await findStaffByEmail(this.db, email);
    const ok = await verifyPassword(staff?.password_hash ?? (await decoyHash()), password);
    if (!staff || !ok || !staff.active) {
      throw new AppError('UNAUTHORIZED', INVALID_LOGIN);
    }
    const token = await this.tokens.sign({
      id: staff.id,
      name: staff.name,
      type: staff.type,
      passwordChangedAt: staff.password_changed_at,
    });
    await writeAudit(this.db, { id: staff.id, name: staff.name, ip }, [{ action: 'staff.login', target: `staff:${staff.id}` }]);
    return { token, user: toStaffUser(staff) };
  }

  /** The staff member behind a token, re-read on every request so a disabled account or a new role counts at once. */
  async authenticate(rawHeader: string | undefined): Promise<Staff> {
    const token = rawHeader?.replace(/^Bearer\s+/i, '').trim();
    if (!token) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
    const verified = await this.tokens.verify(token);
    const staff = verified ? await findStaffById(this.db, verified.staffId) : undefined;
    if (!verified || !staff || !staff.active || staff.password_changed_at.getTime() !== verified.pwv) {
      throw new AppError('UNAUTHORIZED', SESSION_EXPIRED);
    }
    return staff;
  }

  async changePassword(staff: Staff, newPassword: string, actor: Actor): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction().execute(async (trx) => {
      await updatePassword(trx, staff.id, passwordHash);
      await writeAudit(trx, actor, [{ action: 'staff.change-password', target: `staff:${staff.id}` }]);
    });
  }
}
