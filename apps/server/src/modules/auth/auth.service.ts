// Sign-in, session checks, logout and password changes for staff, and the security events an Admin needs
// to see an attack (failed sign-ins, lockouts, refused calls) written to the audit trail.
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { CHALLENGE_MINUTES, RECENT_PROOF_MINUTES, plural, type StaffUser } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { outsideRequest } from '../../db/statement-budget.js';
import { writeAudit, type Actor, type AuditEntry } from '../audit/audit.repository.js';
import {
  findSessionStaff,
  findStaffByEmail,
  findStaffById,
  insertStaff,
  updatePassword,
} from '../staff/staff.repository.js';
import type { Attempt, LoginThrottle, Refusal } from './login-throttle.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';
import type { TokenService, VerifiedToken } from './tokens.js';
import { LocalEventBus, type EventBus } from '../events/event-bus.js';
import type { CodeProof, SecondFactorService } from './second-factor.service.js';
import { challengeKey, signedChallenge, type PasskeyService, type WebAuthnAnswer } from './passkey.service.js';
import {
  endSessions,
  findChallenge,
  findChallengeStaff,
  findSession,
  insertChallenge,
  insertSession,
  markSessionProved,
  setWebauthnChallenge,
  touchSession,
  useChallenge,
} from './sign-in.repository.js';

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

/** Who is signing in, as the request shows them. */
export interface Client {
  ip: string;
  userAgent: string;
}

/** A sign-in that ended with a session. */
export interface SignedIn {
  token: string;
  user: StaffUser;
}

/** A right password that needs a second step ('code', or 'enrol' when the policy asks for a factor not yet there). */
export interface Challenged {
  challenge: string;
  next: 'code' | 'enrol';
  /** For 'code': the member's factors. */
  methods?: ('totp' | 'passkey')[];
}

/** Who a single sign-on provider says is signing in (its e-mail verified by the provider). */
export interface SsoIdentity {
  email: string;
  name: string;
}

export const INVALID_CODE = 'That code is not right. Check the time on your phone and try again.';
export const CHALLENGE_EXPIRED = 'This sign-in has expired. Please sign in again.';
export const RECENT_PROOF_REQUIRED = 'For this change, confirm it is you: enter your current password or a code.';
/** How often a session's "last seen" is written, at most, per process. */
const LAST_SEEN_EVERY_MS = 60_000;
const RECENT_PROOF_MS = RECENT_PROOF_MINUTES * 60_000;

/** A challenge is kept as its hash: the database never holds what would complete a sign-in. */
const challengeId = challengeKey;
export const PASSKEY_REJECTED = 'That passkey was not accepted. Try again, or use a code.';

const REFUSAL_TEXT: Record<Refusal['scope'], string> = {
  address: 'Too many failed sign-in attempts from your network.',
  pair: 'Too many failed sign-in attempts for this account.',
  account: 'This account is temporarily locked after many failed sign-in attempts.',
};

const waitText = (refusal: Refusal) =>
  `${REFUSAL_TEXT[refusal.scope]} Please wait ${plural(Math.max(1, Math.ceil(refusal.retryAfterMs / 60_000)), 'minute')} and try again.`;

export class AuthService {
  private readonly staffCache = new Map<number, { staff: Staff; open: Set<string>; until: number }>();
  /** When this process last wrote each session's last_seen_at (at most VERIFIED_CACHE_SIZE-like; cleared when big). */
  private readonly lastSeenWritten = new Map<string, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly tokens: TokenService,
    private readonly throttle: LoginThrottle,
    readonly factors: SecondFactorService,
    readonly passkeys: PasskeyService,
    private readonly bus: EventBus = new LocalEventBus(),
  ) {
    bus.subscribe('eta_staff', (id) => this.staffCache.delete(Number(id)));
    bus.onResume(() => this.staffCache.clear());
  }

  /**
   * The staff row and open sessions behind a token. A cached row that does not know the token's session is read
   * again: the session may have opened since (a sign-in a moment ago, perhaps on another server).
   */
  private async currentStaff(id: number, jti: string) {
    const hit = this.staffCache.get(id);
    if (hit && hit.until > Date.now() && this.bus.listening && hit.open.has(jti)) return hit;
    const row = await findSessionStaff(this.db, id);
    if (!row) {
      this.staffCache.delete(id);
      return undefined;
    }
    const { open, ...staff } = row;
    const entry = { staff, open: new Set(open), until: Date.now() + STAFF_CACHE_MS };
    this.staffCache.set(id, entry);
    return entry;
  }

  /**
   * Drops the cached row here and in every other process, so the next request anywhere sees the staff member's new
   * password, role, status, factors or ended sessions. Called after the change has committed.
   */
  async forgetStaff(id: number): Promise<void> {
    this.staffCache.delete(id);
    await this.bus.publish('eta_staff', String(id));
  }

  /** Takes one place in the sign-in limits for `account`, or refuses with how long to wait. */
  private async beginAttempt(account: string, ip: string): Promise<Attempt> {
    const reserved = await this.throttle.begin(account, ip);
    if ('refused' in reserved) {
      throw new AppError('TOO_MANY_ATTEMPTS', waitText(reserved.refused), {
        retryAfterSeconds: Math.ceil(reserved.refused.retryAfterMs / 1000),
      });
    }
    return reserved.attempt;
  }

  /** A wrong password or code: counted and audited whether or not its client waits for the answer. */
  private recordFailure(
    attempt: Attempt,
    account: string,
    actor: Actor,
    action: 'security.login-failed' | 'security.code-failed' | 'security.proof-failed',
  ): Promise<void> {
    // Once the secret was checked, the attempt counts and is audited whether or not its client waits for the
    // answer (db/statement-budget.ts): leaving early must not take a guess off the limits or out of the trail.
    return outsideRequest(async () => {
      const lock = await attempt.failed();
      const entries: AuditEntry[] = [{ action, target: account }];
      if (lock) entries.push({ action: 'security.lockout', target: account, after: lock });
      await writeAudit(this.db, actor, entries);
    });
  }

  /**
   * Wrong e-mail and wrong password get the same answer and take the same time. The attempt is counted
   * before the password is verified (login-throttle.ts), so bursts cannot get past the limits. A right password
   * ends in a session, or in a challenge when the member has a second factor or the policy asks for one.
   */
  async login(email: string, password: string, client: Client): Promise<SignedIn | Challenged> {
    const account = email.trim().toLowerCase();
    const attempt = await this.beginAttempt(account, client.ip);
    try {
      const staff = await findStaffByEmail(this.db, account);
      const ok = await verifyPassword(staff?.password_hash ?? (await decoyHash()), password);
      if (!staff || !ok || !staff.active) {
        await this.recordFailure(attempt, account, { id: null, name: null, ip: client.ip }, 'security.login-failed');
        throw new AppError('INVALID_CREDENTIALS', INVALID_LOGIN);
      }
      const policy = await this.factors.policy();
      if (policy.ssoRoles.includes(staff.type)) {
        // Said only after the right password: the place is given back (finally) without counting either way.
        throw new AppError(
          'SSO_REQUIRED',
          `Your role signs in with ${policy.sso.name}: use the "Sign in with ${policy.sso.name}" button.`,
        );
      }
      const methods = await this.factors.methods(staff.id);
      const next = methods.length > 0 ? 'code' : policy.mfaRoles.includes(staff.type) ? 'enrol' : null;
      // The attempt's place is given back (finally) without counting as a sign-in: the code step takes its own.
      if (next === 'code') return { challenge: await this.openChallenge(staff.id, next), next, methods };
      if (next) return { challenge: await this.openChallenge(staff.id, next), next };
      // Once the password was checked, the sign-in and its audit complete whether or not the client waits.
      const signedIn = await outsideRequest(() => this.openSignedIn(this.db, staff, client, null, attempt));
      await outsideRequest(() => attempt.succeeded());
      return signedIn;
    } finally {
      await attempt.abandoned(); // no-op once the attempt succeeded or failed; gives the place back after an error
    }
  }

  private async openChallenge(staffId: number, next: 'code' | 'enrol'): Promise<string> {
    const challenge = randomBytes(32).toString('base64url');
    await insertChallenge(this.db, {
      id: challengeId(challenge),
      staffId,
      purpose: next === 'code' ? 'second-factor' : 'enrol',
      expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
    });
    return challenge;
  }

  /** Signs a token and opens its session (in `db`, the caller's transaction when there is one). */
  async openSession(
    db: Kysely<DB> | Transaction<DB>,
    staff: Staff,
    client: Client,
    secondFactor: string | null,
  ): Promise<string> {
    const { token, jti, expiresAt } = await this.tokens.sign({
      id: staff.id,
      name: staff.name,
      type: staff.type,
      passwordChangedAt: staff.password_changed_at,
    });
    await insertSession(db, {
      id: jti,
      staffId: staff.id,
      expiresAt,
      ip: client.ip,
      userAgent: client.userAgent,
      secondFactor,
    });
    return token;
  }

  /**
   * Opens the session of a finished sign-in and audits it, in `db` (the code steps' transaction). The attempt is
   * marked a success by the caller once that has committed.
   */
  private async openSignedIn(
    db: Kysely<DB> | Transaction<DB>,
    staff: Staff,
    client: Client,
    secondFactor: string | null,
    attempt: Attempt | null,
  ): Promise<SignedIn> {
    const token = await this.openSession(db, staff, client, secondFactor);
    const entries: AuditEntry[] = [
      { action: 'staff.login', target: `staff:${staff.id}`, after: secondFactor ? { secondFactor } : undefined },
    ];
    // The account was locked by failures elsewhere; this address had none (login-throttle.ts).
    if (attempt?.duringLock) entries.push({ action: 'security.login-during-lock', target: staff.email.toLowerCase() });
    await writeAudit(db, actorOfStaff(staff, client.ip), entries);
    return { token, user: toStaffUser(staff) };
  }

  /** The member behind an open challenge of `purpose`; an unknown, used or expired one asks to sign in again. */
  private async challengeStaff(challenge: string, purpose: 'second-factor' | 'enrol') {
    const row = await findChallengeStaff(this.db, challengeId(challenge));
    if (!row || row.purpose !== purpose || !row.active) throw new AppError('CHALLENGE_EXPIRED', CHALLENGE_EXPIRED);
    const { purpose: _purpose, webauthn_challenge: webauthnChallenge, ...staff } = row;
    return { staff, webauthnChallenge };
  }

  /**
   * The second step of a sign-in, for an open challenge of `purpose`: `check` tries the member's code in a
   * transaction and, when it is right, opens the session there; the challenge is used in the same transaction (a
   * second use, or a parallel one, finds it used). A wrong code counts towards the same limits as a wrong password
   * and is audited.
   */
  private async secondStep<T extends SignedIn>(
    challenge: string,
    purpose: 'second-factor' | 'enrol',
    client: Client,
    check: (
      trx: Transaction<DB>,
      staff: Staff,
      attempt: Attempt,
      webauthnChallenge: string | null,
    ) => Promise<T | null>,
    failure = INVALID_CODE,
  ): Promise<T> {
    const { staff, webauthnChallenge } = await this.challengeStaff(challenge, purpose);
    const account = staff.email.toLowerCase();
    const attempt = await this.beginAttempt(account, client.ip);
    try {
      const done = await this.db.transaction().execute(async (trx) => {
        const result = await check(trx, staff, attempt, webauthnChallenge);
        if (result && !(await useChallenge(trx, challengeId(challenge)))) {
          throw new AppError('CHALLENGE_EXPIRED', CHALLENGE_EXPIRED);
        }
        return result;
      });
      if (!done) {
        await this.recordFailure(attempt, account, actorOfStaff(staff, client.ip), 'security.code-failed');
        throw new AppError('INVALID_CODE', failure);
      }
      await outsideRequest(() => attempt.succeeded());
      return done;
    } finally {
      await attempt.abandoned();
    }
  }

  /** The second step of a sign-in: a code from the member's app or one of their recovery codes, each used once. */
  signInWithCode(challenge: string, proof: CodeProof, client: Client): Promise<SignedIn> {
    return this.secondStep(challenge, 'second-factor', client, async (trx, staff, attempt) => {
      const factor = await this.factors.verify(trx, staff.id, proof);
      return factor ? this.openSignedIn(trx, staff, client, factor, attempt) : null;
    });
  }

  /** Options for the browser to answer the second step with one of the member's passkeys. */
  async passkeyOptionsAtSignIn(challenge: string) {
    const { staff } = await this.challengeStaff(challenge, 'second-factor');
    const options = await this.passkeys.secondFactorOptions(staff.id);
    await setWebauthnChallenge(this.db, challengeId(challenge), options.challenge);
    return options;
  }

  /** The second step of a sign-in with a passkey of the member's, signed over the challenge its options gave. */
  signInWithPasskey(challenge: string, answer: WebAuthnAnswer, client: Client): Promise<SignedIn> {
    return this.secondStep(
      challenge,
      'second-factor',
      client,
      async (trx, staff, attempt, webauthnChallenge) => {
        if (!webauthnChallenge) return null;
        const ok = await this.passkeys.verify(trx, staff.id, answer, webauthnChallenge, false);
        return ok ? this.openSignedIn(trx, staff, client, 'passkey', attempt) : null;
      },
      PASSKEY_REJECTED,
    );
  }

  /** Options for a sign-in with a passkey alone, where the policy allows it. */
  async passwordlessOptions() {
    await this.passwordlessPolicy();
    return this.passkeys.passwordlessOptions();
  }

  private async passwordlessPolicy() {
    const policy = await this.factors.policy();
    if (!policy.passwordlessPasskeys) {
      // 404, as for single sign-on when it is not set up: the way is not offered here.
      throw new AppError('NOT_FOUND', 'Signing in with a passkey alone is not turned on here: use your password.');
    }
    return policy;
  }

  /**
   * A sign-in with a passkey alone, where the Admin's policy allows it: the device checked its owner (PIN or
   * biometric, `userVerification: required`), which stands in for the password. The member is the passkey's owner;
   * the answer must sign a challenge this server gave (single use). Counted in the sign-in limits like a password.
   */
  async signInWithPasskeyAlone(answer: WebAuthnAnswer, client: Client): Promise<SignedIn> {
    const policy = await this.passwordlessPolicy();
    const row = await findChallenge(this.db, challengeKey(signedChallenge(answer)), 'passkey');
    if (!row?.webauthn_challenge) throw new AppError('CHALLENGE_EXPIRED', CHALLENGE_EXPIRED);
    const ownerId = await this.passkeys.ownerOf(answer.id);
    const owner = ownerId === undefined ? undefined : await findStaffById(this.db, ownerId);
    // An unknown passkey counts against the address like an unknown e-mail.
    const account = owner?.email.toLowerCase() ?? `passkey:${answer.id.slice(0, 64)}`;
    const attempt = await this.beginAttempt(account, client.ip);
    try {
      const signedIn =
        owner?.active && !policy.ssoRoles.includes(owner.type)
          ? await this.db.transaction().execute(async (trx) => {
              const ok =
                (await this.passkeys.verify(trx, owner.id, answer, row.webauthn_challenge!, true)) &&
                (await useChallenge(trx, row.id));
              return ok ? this.openSignedIn(trx, owner, client, 'passkey', attempt) : null;
            })
          : null;
      if (!signedIn) {
        const actor = owner ? actorOfStaff(owner, client.ip) : { id: null, name: null, ip: client.ip };
        await this.recordFailure(attempt, account, actor, 'security.code-failed');
        throw new AppError('INVALID_CODE', PASSKEY_REJECTED);
      }
      await outsideRequest(() => attempt.succeeded());
      return signedIn;
    } finally {
      await attempt.abandoned();
    }
  }

  /**
   * A sign-in through single sign-on, once the provider's answer was checked (SsoService): the member whose e-mail it
   * is keeps their role. Nobody new is let in unless the policy names their e-mail's domain, and then as Team.
   */
  async signInWithSso(identity: SsoIdentity, client: Client): Promise<SignedIn> {
    const email = identity.email.trim().toLowerCase();
    const refused = async (err: unknown): Promise<never> => {
      // A refusal rolls its transaction back; its record is written apart, as the provider's refusals are.
      if (err instanceof AppError && err.code === 'SIGN_IN_REFUSED') {
        await outsideRequest(() =>
          writeAudit(this.db, { id: null, name: null, ip: client.ip }, [
            { action: 'security.sso-refused', target: email, after: { reason: err.message } },
          ]),
        );
      }
      throw err;
    };
    return outsideRequest(() =>
      this.db.transaction().execute(async (trx) => {
        let staff = await findStaffByEmail(trx, email);
        if (!staff) {
          const { ssoCreateDomain } = await this.factors.policy(trx);
          if (!ssoCreateDomain || email.split('@')[1] !== ssoCreateDomain.toLowerCase()) {
            throw new AppError(
              'SIGN_IN_REFUSED',
              `There is no eTA Desk account for ${email}. Ask an Admin to add you.`,
            );
          }
          // The password is never known to anyone: such a member signs in through SSO (or gets one from an Admin).
          const created = await insertStaff(trx, {
            name: identity.name.trim().slice(0, 100) || email,
            email,
            passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
            type: 'Team',
          });
          await writeAudit(trx, { id: null, name: null, ip: client.ip }, [
            { action: 'staff.created-by-sso', target: `staff:${created.id}`, after: { email, type: 'Team' } },
          ]);
          staff = await findStaffByEmail(trx, email);
        }
        if (!staff?.active) {
          throw new AppError('SIGN_IN_REFUSED', `The eTA Desk account for ${email} is turned off. Ask an Admin.`);
        }
        return this.openSignedIn(trx, staff, client, 'sso', null);
      }),
    ).catch(refused);
  }

  /** Enrolment at sign-in (the policy asks for a factor): a new secret for the member's app. */
  async startEnrolmentAtSignIn(challenge: string) {
    const { staff } = await this.challengeStaff(challenge, 'enrol');
    return this.factors.startEnrolment(staff.id, staff.email);
  }

  /** Enrolment at sign-in, confirmed by the app's first code: the session, and the recovery codes to keep. */
  confirmEnrolmentAtSignIn(
    challenge: string,
    code: string,
    client: Client,
  ): Promise<SignedIn & { recoveryCodes: string[] }> {
    return this.secondStep(challenge, 'enrol', client, async (trx, staff, attempt) => {
      const recoveryCodes = await this.factors.confirmEnrolment(trx, staff.id, code);
      if (!recoveryCodes) return null;
      await writeAudit(trx, actorOfStaff(staff, client.ip), [
        { action: 'staff.totp-enrolled', target: `staff:${staff.id}` },
      ]);
      return { recoveryCodes, ...(await this.openSignedIn(trx, staff, client, 'totp', attempt)) };
    });
  }

  /** The session behind a token, re-read (at most STAFF_CACHE_MS old) so a disabled account, a new role or an ended session counts. */
  async authenticate(rawHeader: string | undefined): Promise<Session> {
    const raw = rawHeader?.replace(/^Bearer\s+/i, '').trim();
    if (!raw) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
    const token = await this.tokens.verify(raw);
    const current = token ? await this.currentStaff(token.staffId, token.jti) : undefined;
    if (
      !token ||
      !current ||
      !current.staff.active ||
      current.staff.password_changed_at.getTime() !== token.pwv ||
      !current.open.has(token.jti)
    ) {
      throw new AppError('SESSION_EXPIRED', SESSION_EXPIRED);
    }
    this.noteSeen(token.jti);
    return { staff: current.staff, token };
  }

  /** Writes a session's last use, at most once a minute per process, never holding up the request. */
  private noteSeen(jti: string): void {
    const now = Date.now();
    if (now - (this.lastSeenWritten.get(jti) ?? 0) < LAST_SEEN_EVERY_MS) return;
    if (this.lastSeenWritten.size >= 10_000) this.lastSeenWritten.clear();
    this.lastSeenWritten.set(jti, now);
    // "Last seen" is a convenience: a failed write is tried again a minute later, and must not fail the request.
    void outsideRequest(() => touchSession(this.db, jti)).catch(() => this.lastSeenWritten.delete(jti));
  }

  /** Ends this session on the server: the token is refused from now on, though it has not expired. */
  async logout(session: Session, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await endSessions(trx, session.staff.id, 'signed out', { id: session.token.jti });
      await writeAudit(trx, actor, [{ action: 'staff.logout', target: `staff:${session.staff.id}` }]);
    });
    await this.forgetStaff(session.staff.id);
  }

  /**
   * Proof that the person at the keyboard is the member (their password, a code or a recovery code), for the calls
   * that take an account over. Counted and audited like a sign-in; good for RECENT_PROOF_MINUTES in this session.
   */
  async confirmIdentity(
    session: Session,
    proof: { password?: string | undefined } & CodeProof,
    ip: string,
  ): Promise<void> {
    const { staff } = session;
    const account = staff.email.toLowerCase();
    const attempt = await this.beginAttempt(account, ip);
    try {
      // The password is hashed outside any transaction; a code is used in the one that records the proof.
      let ok: boolean;
      if (proof.password) {
        ok = await verifyPassword(staff.password_hash, proof.password);
        if (ok) await markSessionProved(this.db, session.token.jti);
      } else {
        ok = await this.db.transaction().execute(async (trx) => {
          if ((await this.factors.verify(trx, staff.id, proof)) === null) return false;
          await markSessionProved(trx, session.token.jti);
          return true;
        });
      }
      if (!ok) {
        await this.recordFailure(attempt, account, actorOfStaff(staff, ip), 'security.proof-failed');
        throw new AppError('PROOF_REJECTED', 'That password or code is not right.');
      }
      await outsideRequest(() => attempt.succeeded());
    } finally {
      await attempt.abandoned();
    }
  }

  /** Refuses a call that takes an account over unless this session proved who it is within the last few minutes. */
  async assertRecentProof(session: Session, db: Kysely<DB> | Transaction<DB> = this.db): Promise<void> {
    const row = await findSession(db, session.token.jti);
    if (!row || Date.now() - row.proved_at.getTime() > RECENT_PROOF_MS) {
      throw new AppError('RECENT_PROOF_REQUIRED', RECENT_PROOF_REQUIRED);
    }
  }

  /** A new password for the member themself: after a recent proof; every session of theirs ends (spec §4: sign in again). */
  async changePassword(session: Session, newPassword: string, actor: Actor): Promise<void> {
    await this.assertRecentProof(session);
    const { staff } = session;
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction().execute(async (trx) => {
      await updatePassword(trx, staff.id, passwordHash);
      await endSessions(trx, staff.id, 'password changed');
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

const actorOfStaff = (staff: Pick<Staff, 'id' | 'name'>, ip: string): Actor => ({ id: staff.id, name: staff.name, ip });
