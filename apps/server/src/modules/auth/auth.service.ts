// Sign-in, session checks, logout and password changes for staff, and the security events an Admin needs
// to see an attack (failed sign-ins, lockouts, refused calls) written to the audit trail.
import type { Kysely } from 'kysely';
import { plural, type StaffUser } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { outsideRequest } from '../../db/statement-budget.js';
import { writeAudit, type Actor, type AuditEntry } from '../audit/audit.repository.js';
import { findSessionStaff, findStaffByEmail, revokeSession, updatePassword } from '../staff/staff.repository.js';
import type { LoginThrottle, Refusal } from './login-throttle.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';
import type { TokenService, VerifiedToken } from './tokens.js';
import { LocalEventBus, type EventBus } from '../events/event-bus.js';

export const INVALID_LOGIN = 'Invalid email or password.';
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

export const toStaffUser = (s: Pick<Staff, 'id' | 'name' | 'email' | 'type'>): StaffUser => ({
  id: s.id,
  name: s.name,
  email: s.email,
  type: s.type,
});

/**
 * How long a staff row read for a request is reused by later requests of the same process. A password change, role
 * change, logout or deactivation drops the entry at once in every process (an 'eta_staff' event); the time bounds
 * only what an event lost with a broken listening connection could leave, and while the bus is not listening the
 * cache is not used at all.
 */
export const STAFF_CACHE_MS = 5_000;

export interface Session {
  staff: Staff;
  token: VerifiedToken;
}

const REFUSAL_TEXT: Record<Refusal['scope'], string> = {
  address: 'Too many failed sign-in attempts from your network.',
  pair: 'Too many failed sign-in attempts for this account.',
  account: 'This account is temporarily locked after many failed sign-in attempts.',
};

const waitText = (refusal: Refusal) =>
  `${REFUSAL_TEXT[refusal.scope]} Please wait ${plural(Math.max(1, Math.ceil(refusal.retryAfterMs / 60_000)), 'minute')} and try again.`;

export class AuthService {
  private readonly staffCache = new Map<number, { staff: Staff; revoked: Set<string>; until: number }>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly tokens: TokenService,
    private readonly throttle: LoginThrottle,
    private readonly bus: EventBus = new LocalEventBus(),
  ) {
    bus.subscribe('eta_staff', (id) => this.staffCache.delete(Number(id)));
    bus.onResume(() => this.staffCache.clear());
  }

  private async currentStaff(id: number) {
    const hit = this.staffCache.get(id);
    if (hit && hit.until > Date.now() && this.bus.listening) return hit;
    const row = await findSessionStaff(this.db, id);
    if (!row) {
      this.staffCache.delete(id);
      return undefined;
    }
    const { revoked, ...staff } = row;
    const entry = { staff, revoked: new Set(revoked), until: Date.now() + STAFF_CACHE_MS };
    this.staffCache.set(id, entry);
    return entry;
  }

  /**
   * Drops the cached row here and in every other process, so the next request anywhere sees the staff member's new
   * password, role, status or logout. Called after the change has committed.
   */
  async forgetStaff(id: number): Promise<void> {
    this.staffCache.delete(id);
    await this.bus.publish('eta_staff', String(id));
  }

  /**
   * Wrong e-mail and wrong password get the same answer and take the same time. The attempt is counted
   * before the password is verified (login-throttle.ts), so bursts cannot get past the limits.
   */
  async login(email: string, password: string, ip: string): Promise<{ token: string; user: StaffUser }> {
    const account = email.trim().toLowerCase();
    const reserved = await this.throttle.begin(account, ip);
    if ('refused' in reserved) {
      throw new AppError('TOO_MANY_ATTEMPTS', waitText(reserved.refused), {
        retryAfterSeconds: Math.ceil(reserved.refused.retryAfterMs / 1000),
      });
    }
    const { attempt } = reserved;
    try {
      const staff = await findStaffByEmail(this.db, account);
      const ok = await verifyPassword(staff?.password_hash ?? (await decoyHash()), password);
      // Once the password was checked, the attempt counts and is audited whether or not its client waits for the
      // answer (db/statement-budget.ts): leaving early must not take a guess off the limits or out of the trail.
      if (!staff || !ok || !staff.active) {
        await outsideRequest(async () => {
          const lock = await attempt.failed();
          const entries: AuditEntry[] = [{ action: 'security.login-failed', target: account }];
          if (lock) entries.push({ action: 'security.lockout', target: account, after: lock });
          await writeAudit(this.db, { id: null, name: null, ip }, entries);
        });
        throw new AppError('INVALID_CREDENTIALS', INVALID_LOGIN);
      }
      const token = await this.tokens.sign({
        id: staff.id,
        name: staff.name,
        type: staff.type,
        passwordChangedAt: staff.password_changed_at,
      });
      await outsideRequest(async () => {
        const entries: AuditEntry[] = [{ action: 'staff.login', target: `staff:${staff.id}` }];
        // The account was locked by failures elsewhere; this address had none (login-throttle.ts).
        if (attempt.duringLock) entries.push({ action: 'security.login-during-lock', target: account });
        await writeAudit(this.db, { id: staff.id, name: staff.name, ip }, entries);
        await attempt.succeeded();
      });
      return { token, user: toStaffUser(staff) };
    } finally {
      await attempt.abandoned(); // no-op once the attempt succeeded or failed; gives the place back after an error
    }
  }

  /** The session behind a token, re-read (at most STAFF_CACHE_MS old) so a disabled account, a new role or a logout counts. */
  async authenticate(rawHeader: string | undefined): Promise<Session> {
    const raw = rawHeader?.replace(/^Bearer\s+/i, '').trim();
    if (!raw) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
    const token = await this.tokens.verify(raw);
    const current = token ? await this.currentStaff(token.staffId) : undefined;
    if (
      !token ||
      !current ||
      !current.staff.active ||
      current.staff.password_changed_at.getTime() !== token.pwv ||
      current.revoked.has(token.jti)
    ) {
      throw new AppError('SESSION_EXPIRED', SESSION_EXPIRED);
    }
    return { staff: current.staff, token };
  }

  /** Ends this session on the server: the token is refused from now on, though it has not expired. */
  async logout(session: Session, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await revokeSession(trx, {
        jti: session.token.jti,
        staffId: session.staff.id,
        expiresAt: session.token.expiresAt,
      });
      await writeAudit(trx, actor, [{ action: 'staff.logout', target: `staff:${session.staff.id}` }]);
    });
    await this.forgetStaff(session.staff.id);
  }

  async changePassword(staff: Staff, newPassword: string, actor: Actor): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction().execute(async (trx) => {
      await updatePassword(trx, staff.id, passwordHash);
      await writeAudit(trx, actor, [{ action: 'staff.change-password', target: `staff:${staff.id}` }]);
    });
    await this.forgetStaff(staff.id);
  }

  /** A call refused for the caller's role: who, what and from where, so an Admin can see probing. */
  recordRefusal(actor: Actor, what: string, reason: string): Promise<void> {
    // Written whether or not the refused client waits for its 403 (db/statement-budget.ts).
    return outsideRequest(() =>
      writeAudit(this.db, actor, [{ action: 'security.forbidden', target: what, after: { reason } }]),
    );
  }
}
