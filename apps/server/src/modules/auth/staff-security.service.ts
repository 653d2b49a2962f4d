// What a member does with their own sign-in (issue 34), and what an Admin does with others': the second factor
// (enrol, remove, new recovery codes), sessions (see, end one, end all others), a member's factors reset, and the
// sign-in policy. Changes that take an account over ask for a recent proof (AuthService.assertRecentProof); every
// change is audited in its transaction, and ended sessions stop in every process at once (AuthService.forgetStaff).
import type { Kysely, Transaction } from 'kysely';
import {
  mayManageMember,
  type MySecurity,
  type Passkey,
  type SignInPolicy,
  type SignInPolicyBody,
  type StaffSession,
} from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { GeoLocator } from '../../lib/geo-location.js';
import { describeUserAgent } from '../../lib/user-agent.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { findMember } from '../team/team.repository.js';
import { MEMBER_NOT_FOUND } from '../team/team.service.js';
import { INVALID_CODE, type AuthService, type Session } from './auth.service.js';
import type { WebAuthnAnswer } from './passkey.service.js';
import {
  countUnusedRecoveryCodes,
  deletePasskey,
  endSessions,
  findSession,
  listSessions,
} from './sign-in.repository.js';

export class StaffSecurityService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly auth: AuthService,
    private readonly geo: () => Promise<GeoLocator>,
  ) {}

  private get factors() {
    return this.auth.factors;
  }

  private get passkeys() {
    return this.auth.passkeys;
  }

  async mySecurity(session: Session): Promise<MySecurity> {
    const [summary, policy, passkeys] = await Promise.all([
      this.factors.summary(session.staff.id),
      this.factors.policy(),
      this.passkeys.list(session.staff.id),
    ]);
    return {
      mfaRequired: policy.mfaRoles.includes(session.staff.type),
      ssoRequired: policy.ssoRoles.includes(session.staff.type),
      passwordlessPasskeys: policy.passwordlessPasskeys,
      passkeys,
      ...summary,
    };
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
    await this.db.transaction().execute(async (trx) => {
      await this.factors.removeTotp(trx, session.staff.id);
      await this.assertFactorLeft(session, trx);
      await writeAudit(trx, actor, [{ action: 'staff.totp-removed', target: `staff:${session.staff.id}` }]);
    });
  }

  /** Inside a removal's transaction: the policy's second factor is not the one just removed (else it rolls back). */
  private async assertFactorLeft(session: Session, trx: Transaction<DB>) {
    if (
      (await this.factors.requiredFor(session.staff.type, trx)) &&
      !(await this.factors.enabled(session.staff.id, trx))
    ) {
      throw new AppError(
        'FACTOR_REQUIRED',
        `The sign-in policy asks every ${session.staff.type} for a second factor: add another one first.`,
      );
    }
  }

  /** Options for the browser to make a new passkey: after a recent proof. */
  async passkeyOptions(session: Session) {
    await this.auth.assertRecentProof(session);
    return this.passkeys.registrationOptions(session.staff);
  }

  /**
   * Keeps a new passkey from the browser's answer. A member's first factor also gets ten recovery codes (shown this
   * once); later ones keep the codes they have.
   */
  async addPasskey(
    session: Session,
    challenge: string,
    name: string,
    answer: WebAuthnAnswer,
    actor: Actor,
  ): Promise<{ passkey: Passkey; recoveryCodes: string[] | null }> {
    return this.db.transaction().execute(async (trx) => {
      const staffId = session.staff.id;
      const passkey = await this.passkeys.register(trx, staffId, challenge, name, answer);
      const recoveryCodes =
        (await countUnusedRecoveryCodes(trx, staffId)) === 0
          ? await this.factors.replaceRecoveryCodes(trx, staffId)
          : null;
      await writeAudit(trx, actor, [
        { action: 'staff.passkey-added', target: `staff:${staffId}`, after: { name: passkey.name } },
      ]);
      return { passkey, recoveryCodes };
    });
  }

  async removePasskey(session: Session, passkeyId: string, actor: Actor): Promise<void> {
    await this.auth.assertRecentProof(session);
    await this.db.transaction().execute(async (trx) => {
      if (!(await deletePasskey(trx, session.staff.id, passkeyId))) {
        throw new AppError('NOT_FOUND', 'That passkey was not found.');
      }
      await this.assertFactorLeft(session, trx);
      await writeAudit(trx, actor, [{ action: 'staff.passkey-removed', target: `staff:${session.staff.id}` }]);
    });
  }

  /** Ten new recovery codes; the old ones stop working. */
  async newRecoveryCodes(session: Session, actor: Actor): Promise<string[]> {
    await this.auth.assertRecentProof(session);
    if (!(await this.factors.enabled(session.staff.id))) {
      throw new AppError('CONFLICT', 'Set up an authenticator app or a passkey first: recovery codes stand in for it.');
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
      await this.factors.removeAll(trx, staffId);
      await endSessions(trx, staffId, `factors reset by ${session.staff.name}`);
      await writeAudit(trx, actor, [{ action: 'staff.factors-reset', target: `staff:${staffId}` }]);
    });
    await this.auth.forgetStaff(staffId);
  }

  policy(): Promise<SignInPolicy> {
    return this.factors.policy();
  }

  /**
   * Saves the policy (fields left out keep their value). Single sign-on can be required only when it is set up, and
   * for Admins only by an Admin signed in through it in this session: so the desk knows an Admin gets in that way
   * before their passwords stop working. When the provider fails later, `npm run staff:reset-factors` frees the role.
   */
  async savePolicy(session: Session, body: SignInPolicyBody, actor: Actor): Promise<SignInPolicy> {
    await this.auth.assertRecentProof(session);
    return this.db.transaction().execute(async (trx) => {
      const before = await this.factors.policy(trx);
      const next = {
        mfaRoles: body.mfaRoles,
        passwordlessPasskeys: body.passwordlessPasskeys ?? before.passwordlessPasskeys,
        ssoRoles: body.ssoRoles ?? before.ssoRoles,
        ssoCreateDomain:
          body.ssoCreateDomain === undefined
            ? before.ssoCreateDomain
            : body.ssoCreateDomain?.trim().toLowerCase() || null,
      };
      if ((next.ssoRoles.length > 0 || next.ssoCreateDomain) && !before.sso.configured) {
        throw new AppError(
          'VALIDATION_FAILED',
          'Single sign-on is not set up on this server (SSO_ISSUER, SSO_CLIENT_ID, SSO_CLIENT_SECRET).',
        );
      }
      if (next.ssoRoles.includes('Admin') && !before.ssoRoles.includes('Admin')) {
        const current = await findSession(trx, session.token.jti);
        if (current?.second_factor !== 'sso') {
          throw new AppError(
            'LAST_ADMIN',
            `Sign in with ${before.sso.name} first, then require it for Admins: so at least one Admin is known to get in that way.`,
          );
        }
      }
      await this.factors.savePolicy(trx, next, session.staff.id);
      const { sso: _sso, source: _source, updatedAt: _updatedAt, ...was } = before;
      await writeAudit(trx, actor, [
        { action: 'staff.sign-in-policy', target: 'sign-in-policy', before: was, after: next },
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
