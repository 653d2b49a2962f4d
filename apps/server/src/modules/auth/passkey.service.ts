// Passkeys (WebAuthn, issue 34 item 2) with @simplewebauthn/server: a member registers one or more (named), and uses
// one as the second factor after the password, or alone where the Admin allows it (the device's own check, a PIN or
// a fingerprint, then stands in for the password). The relying party is PUBLIC_URL: its host name is the RP id, its
// origin the only origin accepted, so a passkey made for the desk signs nothing for another site.
//
// Each ceremony's WebAuthn challenge is a `sign_in_challenges` row (single use, CHALLENGE_MINUTES): on the sign-in's
// own row for a second factor, or a row keyed by the SHA-256 of the WebAuthn challenge for a registration and for a
// sign-in with a passkey alone (whose member is known only from the credential the device answers with).
import { createHash } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Kysely, Transaction } from 'kysely';
import { CHALLENGE_MINUTES, type Passkey } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import {
  MAX_PASSKEYS,
  findChallenge,
  findPasskey,
  insertChallenge,
  insertPasskey,
  listPasskeys,
  useChallenge,
  usePasskey,
} from './sign-in.repository.js';

type Db = Kysely<DB> | Transaction<DB>;
type PasskeyRow = Awaited<ReturnType<typeof listPasskeys>>[number];

/** What a browser's WebAuthn call answers; checked in full by @simplewebauthn/server. */
export type WebAuthnAnswer = { id: string; rawId: string; type: 'public-key'; response: object };

/** How long the browser's WebAuthn prompt waits for the member. */
const CEREMONY_MS = 120_000;

export const challengeKey = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

const expiry = () => new Date(Date.now() + CHALLENGE_MINUTES * 60_000);

export const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

/** The WebAuthn challenge a browser's answer signed (base64url, from its clientDataJSON); '' when unreadable. */
export function signedChallenge(answer: WebAuthnAnswer): string {
  try {
    const clientData = (answer.response as { clientDataJSON?: unknown }).clientDataJSON;
    if (typeof clientData !== 'string') return '';
    const parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : '';
  } catch {
    return '';
  }
}

export class PasskeyService {
  readonly rpID: string;
  readonly origin: string;

  constructor(
    private readonly db: Kysely<DB>,
    publicUrl: string,
  ) {
    const url = new URL(publicUrl);
    this.rpID = url.hostname;
    this.origin = url.origin;
  }

  async list(staffId: number, db: Db = this.db): Promise<Passkey[]> {
    return (await listPasskeys(db, staffId)).map(toPasskey);
  }

  /** Options for the browser to make a new passkey for `staff`; its challenge waits in a row of its own. */
  async registrationOptions(staff: Pick<Staff, 'id' | 'name' | 'email'>) {
    const existing = await listPasskeys(this.db, staff.id);
    if (existing.length >= MAX_PASSKEYS) {
      throw new AppError(
        'CONFLICT',
        `You have ${MAX_PASSKEYS} passkeys, the most a member may keep: remove one first.`,
      );
    }
    const options = await generateRegistrationOptions({
      rpName: 'eTA Desk',
      rpID: this.rpID,
      userName: staff.email,
      userDisplayName: staff.name,
      // The same handle for every passkey of a member, so a device keeps one passkey per member for the desk.
      userID: new TextEncoder().encode(`eta-desk-staff-${staff.id}`),
      timeout: CEREMONY_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p) })),
      // Discoverable where the device can, so a passkey can also sign in alone if the Admin allows it.
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    await insertChallenge(this.db, {
      id: challengeKey(options.challenge),
      staffId: staff.id,
      purpose: 'passkey-register',
      expiresAt: expiry(),
      webauthnChallenge: options.challenge,
    });
    return options;
  }

  /**
   * Checks the browser's answer to `registrationOptions` and keeps the new passkey (in the caller's transaction), its
   * challenge used there. Answers the passkey, or a validation error saying what to do.
   */
  async register(trx: Db, staffId: number, challenge: string, name: string, answer: WebAuthnAnswer): Promise<Passkey> {
    const row = await findChallenge(trx, challengeKey(challenge), 'passkey-register');
    if (!row || row.staff_id !== staffId || !row.webauthn_challenge) {
      throw new AppError('VALIDATION_FAILED', 'This passkey set-up has expired. Please start again.');
    }
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: answer as RegistrationResponseJSON,
        expectedChallenge: row.webauthn_challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        requireUserVerification: false,
      });
    } catch {
      verified = { verified: false as const };
    }
    if (!verified.verified || !(await useChallenge(trx, row.id))) {
      throw new AppError(
        'VALIDATION_FAILED',
        'Your device did not make a passkey the desk can accept. Please try again.',
      );
    }
    const { credential } = verified.registrationInfo;
    if (await findPasskey(trx, credential.id)) {
      throw new AppError('CONFLICT', 'This passkey is already registered.');
    }
    await insertPasskey(trx, {
      id: credential.id,
      staffId,
      name: name.trim(),
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
    });
    const saved = await findPasskey(trx, credential.id);
    return toPasskey(saved!);
  }

  /** Options for the second step of `staffId`'s sign-in: one of their passkeys. */
  async secondFactorOptions(staffId: number) {
    const passkeys = await listPasskeys(this.db, staffId);
    if (passkeys.length === 0) throw new AppError('CONFLICT', 'You have no passkey: use a code instead.');
    return generateAuthenticationOptions({
      rpID: this.rpID,
      timeout: CEREMONY_MS,
      allowCredentials: passkeys.map((p) => ({ id: p.id, transports: transportsOf(p) })),
      userVerification: 'preferred',
    });
  }

  /** Options for a sign-in with a passkey alone: any passkey of the desk, with the device's own check of its owner. */
  async passwordlessOptions() {
    const options = await generateAuthenticationOptions({
      rpID: this.rpID,
      timeout: CEREMONY_MS,
      userVerification: 'required',
    });
    await insertChallenge(this.db, {
      id: challengeKey(options.challenge),
      staffId: null,
      purpose: 'passkey',
      expiresAt: expiry(),
      webauthnChallenge: options.challenge,
    });
    return options;
  }

  /**
   * Checks an answer signed by one of `staffId`'s passkeys against `expectedChallenge`, and records its use (in `db`,
   * the caller's transaction). With `requireUserVerification` the device must have checked its owner (PIN, biometric).
   */
  async verify(
    db: Db,
    staffId: number,
    answer: WebAuthnAnswer,
    expectedChallenge: string,
    requireUserVerification: boolean,
  ): Promise<boolean> {
    const passkey = await findPasskey(db, answer.id);
    if (!passkey || passkey.staff_id !== staffId) return false;
    try {
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response: answer as AuthenticationResponseJSON,
        expectedChallenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(passkey.public_key),
          counter: Number(passkey.counter),
          transports: transportsOf(passkey),
        },
        requireUserVerification,
      });
      if (!verified) return false;
      await usePasskey(db, passkey.id, authenticationInfo.newCounter);
      return true;
    } catch {
      // A wrong origin or challenge, a bad signature, a counter that went back (a cloned key): not accepted.
      return false;
    }
  }

  /** The member a passkey belongs to, for a sign-in with a passkey alone. */
  async ownerOf(credentialId: string): Promise<number | undefined> {
    return (await findPasskey(this.db, credentialId))?.staff_id;
  }
}

const transportsOf = (p: PasskeyRow) => p.transports as AuthenticatorTransportFuture[];
