// A member's second factor (issue 34): the sign-in policy (which roles must have one), the TOTP secret sealed under
// the 'staff' data key, its enrolment (a pending secret confirmed by a first code), the check of a code (each 30 s
// step accepted once) and the ten single-use recovery codes. Never returns a secret once it is confirmed.
import type { Kysely, Transaction } from 'kysely';
import type { SignInPolicy, StaffType } from '@eta/contracts';
import type { SsoConfig } from '../../lib/config.js';
import type { DB } from '../../db/schema.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import {
  confirmTotp,
  countUnusedRecoveryCodes,
  deleteFactors,
  deleteRecoveryCodes,
  deleteTotp,
  listPasskeys,
  findSignInPolicy,
  findTotp,
  replaceRecoveryCodes,
  saveSignInPolicy,
  type SavedPolicy,
  savePendingTotp,
  takeTotpStep,
  useRecoveryCode,
} from './sign-in.repository.js';
import { describeTotpSecret, hashRecoveryCode, newRecoveryCodes, newTotpSecret, stepOfCode } from './totp.js';

type Db = Kysely<DB> | Transaction<DB>;

/** What a member gave as a second factor. */
export interface CodeProof {
  code?: string | undefined;
  recoveryCode?: string | undefined;
}

/** A secret is bound to its member: moved to another row, it does not open. */
const secretContext = (staffId: number) => Buffer.from(`eta-desk staff totp ${staffId}`);

export class SecondFactorService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly keyring: Keyring,
    /** STAFF_MFA_ROLES: the policy until an Admin first saves one. */
    private readonly defaultMfaRoles: readonly StaffType[],
    /** Single sign-on as configured (SSO_ISSUER …), for the policy's account of it. */
    private readonly sso: SsoConfig | undefined,
  ) {}

  async policy(db: Db = this.db): Promise<SignInPolicy> {
    const row = await findSignInPolicy(db);
    const sso = { configured: this.sso !== undefined, name: this.sso?.name ?? '' };
    return row
      ? {
          mfaRoles: row.mfa_roles,
          passwordlessPasskeys: row.passwordless_passkeys,
          ssoRoles: row.sso_roles,
          ssoCreateDomain: row.sso_create_domain,
          sso,
          source: 'admin',
          updatedAt: row.updated_at.toISOString(),
        }
      : {
          mfaRoles: [...this.defaultMfaRoles],
          passwordlessPasskeys: false,
          ssoRoles: [],
          ssoCreateDomain: null,
          sso,
          source: 'environment',
          updatedAt: null,
        };
  }

  savePolicy(db: Db, policy: SavedPolicy, staffId: number): Promise<void> {
    return saveSignInPolicy(db, policy, staffId);
  }

  async requiredFor(type: StaffType, db: Db = this.db): Promise<boolean> {
    return (await this.policy(db)).mfaRoles.includes(type);
  }

  /** The member's confirmed factors: an authenticator app, passkeys. */
  async methods(staffId: number, db: Db = this.db): Promise<('totp' | 'passkey')[]> {
    const [totp, passkeys] = await Promise.all([findTotp(db, staffId), listPasskeys(db, staffId)]);
    const methods: ('totp' | 'passkey')[] = [];
    if (totp?.secret && totp.confirmed_at) methods.push('totp');
    if (passkeys.length > 0) methods.push('passkey');
    return methods;
  }

  /** Whether the member has a second factor (an app or a passkey). */
  async enabled(staffId: number, db: Db = this.db): Promise<boolean> {
    return (await this.methods(staffId, db)).length > 0;
  }

  async summary(staffId: number) {
    const [totp, recoveryCodesLeft] = await Promise.all([
      findTotp(this.db, staffId),
      countUnusedRecoveryCodes(this.db, staffId),
    ]);
    const confirmedAt = totp?.secret ? totp.confirmed_at : null;
    return { totpEnabled: confirmedAt !== null, totpEnrolledAt: confirmedAt?.toISOString() ?? null, recoveryCodesLeft };
  }

  private open(staffId: number, sealed: Uint8Array): Promise<Buffer> {
    // bytea arrives as a Buffer from pg and as a Uint8Array from PGlite.
    const bytes = Buffer.from(sealed);
    return this.keyring.withNewerKeys(() => this.keyring.open('staff', bytes, secretContext(staffId)));
  }

  /**
   * Checks a code of the member's confirmed factor, or a recovery code, and uses it (in `db`, the caller's
   * transaction): a code's step or a recovery code counts once. Returns which factor it was, or null.
   */
  async verify(db: Db, staffId: number, proof: CodeProof): Promise<'totp' | 'recovery' | null> {
    if (proof.recoveryCode) {
      return (await useRecoveryCode(db, staffId, hashRecoveryCode(proof.recoveryCode))) ? 'recovery' : null;
    }
    if (!proof.code) return null;
    const totp = await findTotp(db, staffId);
    if (!totp?.secret || !totp.confirmed_at) return null;
    const step = stepOfCode(await this.open(staffId, totp.secret), proof.code);
    return step !== null && (await takeTotpStep(db, staffId, step)) ? 'totp' : null;
  }

  /** A new pending secret for the member's app; the confirmed one (if any) stays in use until a code confirms this. */
  async startEnrolment(staffId: number, account: string) {
    const secret = newTotpSecret();
    await savePendingTotp(this.db, staffId, this.keyring.seal('staff', secret, secretContext(staffId)));
    return describeTotpSecret(secret, account);
  }

  /**
   * Confirms the pending secret with its first code (in the caller's transaction): it becomes the factor, and ten new
   * recovery codes replace any earlier ones. Returns the codes to show once, or null for a wrong code.
   */
  async confirmEnrolment(db: Db, staffId: number, code: string): Promise<string[] | null> {
    const totp = await findTotp(db, staffId);
    if (!totp?.pending_secret) return null;
    const step = stepOfCode(await this.open(staffId, totp.pending_secret), code);
    if (step === null) return null;
    await confirmTotp(db, staffId, step);
    return this.replaceRecoveryCodes(db, staffId);
  }

  async replaceRecoveryCodes(db: Db, staffId: number): Promise<string[]> {
    const codes = newRecoveryCodes();
    await replaceRecoveryCodes(db, staffId, codes.map(hashRecoveryCode));
    return codes;
  }

  /** Removes the member's authenticator app; the recovery codes go too when no passkey is left for them to back. */
  async removeTotp(db: Db, staffId: number): Promise<void> {
    await deleteTotp(db, staffId);
    if (!(await this.enabled(staffId, db))) await deleteRecoveryCodes(db, staffId);
  }

  /** Removes every factor of the member and their recovery codes (an Admin's reset). */
  removeAll(db: Db, staffId: number): Promise<void> {
    return deleteFactors(db, staffId);
  }
}
