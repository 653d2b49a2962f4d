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

/**
 * How long a staff row read for a request is reused by later requests of the same process. A password
 * change or deactivation here takes effect at once (the entry is dropped); in another server process
 * within this many milliseconds.
 */
export const STAFF_CACHE_MS = 5_000;

export class AuthService {
  private readonly staffCache = new Map<number, { staff: Staff; until: number }>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly tokens: TokenService,
  ) {}

  private async currentStaff(id: number): Promise<Staff | undefined> {
    const hit = this.staffCache.get(id);
    if (hit && hit.until > Date.now()) return hit.staff;
    const staff = await findStaffById(this.db, id);
    if (staff) this.staffCache.set(id, { staff, until: Date.now() + STAFF_CACHE_MS });
    else this.staffCache.delete(id);
    return staff;
  }

  /** Drops the cached row so the next request sees the staff member's new password, role or status. */
  forgetStaff(id: number): void {
    this.staffCache.delete(id);
  }

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
    await writeAudit(this.db, { id: staff.id, name: staff.name, ip }, [
      { action: 'staff.login', target: `staff:${staff.id}` },
    ]);
    return { token, user: toStaffUser(staff) };
  }

  /** The staff member behind a token, re-read (at most STAFF_CACHE_MS old) so a disabled account or a new role counts. */
  async authenticate(rawHeader: string | undefined): Promise<Staff> {
    const token = rawHeader?.replace(/^Bearer\s+/i, '').trim();
    if (!token) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
    const verified = await this.tokens.verify(token);
    const staff = verified ? await this.currentStaff(verified.staffId) : undefined;
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
    this.forgetStaff(staff.id);
  }
}
