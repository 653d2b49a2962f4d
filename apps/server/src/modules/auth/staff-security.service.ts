// What a member does with their own sign-in (issue 34), and what an Admin does with others': the second factor
// (enrol, remove, new recovery codes), sessions (see, end one, end all others), a member's factors reset, and the
// sign-in policy. Changes that take an account over ask for a recent proof (AuthService.assertRecentProof); every
// change is audited in its transaction, and ended sessions stop in every process at once (AuthService.forgetStaff).
import type { Kysely } from 'kysely';
import { mayManageMember, type MySecurity, type SignInPolicy, type StaffSession, type StaffType } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { GeoLocator } from '../../lib/geo-location.js';
import { describeUserAgent } from '../../lib/user-agent.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { findMember } from '../team/team.repository.js';
import { MEMBER_NOT_FOUND } from '../team/team.service.js';
import { INVALID_CODE, type AuthService, type Session } from './auth.service.js';
import { endSessions, findSession, listSessions } from './sign-in.repository.js';

export class StaffSecurityService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly auth: AuthService,
    private readonly geo: () => Promise<GeoLocator>,
  ) {}

  private get factors() {
    return this.auth.factors;
  }

  async mySecurity(session: Session): Promise<MySecurity> {
    const [summary, mfaRequired] = await Promise.all([
      this.factors.summary(session.staff.id),
      this.factors.requiredFor(session.staff.type),
    ]);
    return { mfaRequired, ...summary };
  }

  /** A new secret for the member's app (a first factor, or a new phone): after a recent proof. */
  async startTotp(session: Session) {
    await this.auth.assertRecentProof(session);
    return this.factors.startEnrolment(session.staff.id, session.staff.email);
  }

  /** The app's first code confirms the new secret; the recovery codes to keep are shown this once. */
  async confirmTotp(session: Session, code: string, actor: Actor): Promise<string[]> {
    const codes = await this.db.transaction().execute(async (trx) => {
      const recoveryCodes = await this.factors.confirmEnrolment(trx, session.staff.id, code);
      if (recoveryCodes) {
        await writeAudit(trx, actor, [{ action: 'staff.totp-enrolled', target: `staff:${session.staff.id}` }]);
      }
      return recoveryCodes;
    });
    // 400, not 401: a wrong code here must not end the member's session in the console.
    if (!codes) throw new AppError('VALIDATION_FAILED', INVALID_CODE, { fields: { code: INVALID_CODE } });
    return codes;
  }

  async removeTotp(session: Session, actor: Actor): Promise<void> {
    await this.auth.assertRecentProof(session);
    if (await this.factors.requiredFor(session.staff.type)) {
      throw new AppError(
        'FACTOR_REQUIRED',
        `The sign-in policy asks every ${session.staff.type} for a second factor: set up a new one instead.`,
      );
    }
    await this.db.transaction().execute(async (trx) => {
      await this.factors.remove(trx, session.staff.id);
      await writeAudit(trx, actor, [{ action: 'staff.totp-removed', target: `staff:${session.staff.id}` }]);
    });
  }

  /** Ten new recovery codes; the old ones stop working. */
  async newRecoveryCodes(session: Session, actor: Actor): Promise<string[]> {
    await this.auth.assertRecentProof(session);
    if (!(await this.factors.enabled(session.staff.id))) {
      throw new AppError('CONFLICT', 'Set up an authenticator app first: recovery codes stand in for it.');
    }
    return this.db.transaction().execute(async (trx) => {
      const codes = await this.factors.replaceRecoveryCodes(trx, session.staff.id);
      await writeAudit(trx, actor, [{ action: 'staff.recovery-codes', target: `staff:${session.staff.id}` }]);
      return codes;
    });
  }

  /** A member's sessions, newest first (at most SESSIONS_KEPT), as their owner or a manager sees them. */
  async sessions(session: Session, staffId = session.staff.id): Promise<StaffSession[]> {
    if (staffId !== session.staff.id) await this.assertManages(session, staffId);
    const [rows, geo] = await Promise.all([listSessions(this.db, staffId), this.geo()]);
    return rows.map((row) => {
      const device = describeUserAgent(row.user_agent || undefined);
      return {
        id: row.id,
        browser: device.browser,
        os: device.os,
        device: device.device,
        ip: row.ip,
        location: geo.locate(row.ip),
        signedInAt: row.created_at.toISOString(),
        lastSeenAt: row.last_seen_at.toISOString(),
        expiresAt: row.expires_at.toISOString(),
        endedAt: row.ended_at?.toISOString() ?? null,
        endedBy: row.ended_by,
        secondFactor: row.second_factor,
        current: row.id === session.token.jti,
      };
    });
  }

  /** Ends one session: the member's own, or one of a member the caller manages. */
  async endSession(session: Session, sessionId: string, actor: Actor): Promise<void> {
    const target = await findSession(this.db, sessionId);
    if (!target) throw new AppError('NOT_FOUND', 'That session was not found.');
    const own = target.staff_id === session.staff.id;
    if (!own) await this.assertManages(session, target.staff_id);
    await this.db.transaction().execute(async (trx) => {
      await endSessions(trx, target.staff_id, own ? 'ended by its owner' : `ended by ${session.staff.name}`, {
        id: sessionId,
      });
      await writeAudit(trx, actor, [{ action: 'staff.session-ended', target: `staff:${target.staff_id}` }]);
    });
    await this.auth.forgetStaff(target.staff_id);
  }

  /** Ends every session of the member but this one. Returns how many ended. */
  async endOtherSessions(session: Session, actor: Actor): Promise<number> {
    const ended = await this.db.transaction().execute(async (trx) => {
      const n = await endSessions(trx, session.staff.id, 'ended by its owner', { except: session.token.jti });
      await writeAudit(trx, actor, [
        { action: 'staff.sessions-ended', target: `staff:${session.staff.id}`, after: { ended: n } },
      ]);
      return n;
    });
    await this.auth.forgetStaff(session.staff.id);
    return ended;
  }

  /**
   * An Admin resets a member's second factor (lost phone): the factor and recovery codes go, every session of the
   * member ends, and their next sign-in asks them to enrol again if the policy wants a factor. Never reads them.
   */
  async resetFactors(session: Session, staffId: number, actor: Actor): Promise<void> {
    await this.auth.assertRecentProof(session);
    const member = await findMember(this.db, staffId);
    if (!member?.active) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
    await this.db.transaction().execute(async (trx) => {
      await this.factors.remove(trx, staffId);
      await endSessions(trx, staffId, `factors reset by ${session.staff.name}`);
      await writeAudit(trx, actor, [{ action: 'staff.factors-reset', target: `staff:${staffId}` }]);
    });
    await this.auth.forgetStaff(staffId);
  }

  policy(): Promise<SignInPolicy> {
    return this.factors.policy();
  }

  async savePolicy(session: Session, mfaRoles: readonly StaffType[], actor: Actor): Promise<SignInPolicy> {
    await this.auth.assertRecentProof(session);
    return this.db.transaction().execute(async (trx) => {
      const before = await this.factors.policy(trx);
      await this.factors.savePolicy(trx, mfaRoles, session.staff.id);
      await writeAudit(trx, actor, [
        {
          action: 'staff.sign-in-policy',
          target: 'sign-in-policy',
          before: { mfaRoles: before.mfaRoles },
          after: { mfaRoles },
        },
      ]);
      return this.factors.policy(trx);
    });
  }

  /** The caller manages the member (manageTeam and the rank rule: a Manager never touches a Manager or an Admin). */
  private async assertManages(session: Session, staffId: number): Promise<void> {
    const member = await findMember(this.db, staffId);
    if (!member) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
    if (!mayManageMember(session.staff.type, member.type)) {
      throw new AppError('FORBIDDEN', `Your role (${session.staff.type}) may not manage a ${member.type}'s sessions.`);
    }
  }
}
