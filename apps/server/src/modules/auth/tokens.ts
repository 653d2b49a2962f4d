// Staff session tokens (HS256 JWT via jose). `pwv` ties a token to the password it was issued under:
// changing the password changes pwv, so every older token stops working. `jti` names the session, so a
// logout can end exactly that token.
import { randomUUID } from 'node:crypto';
import { webcrypto } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify, errors } from 'jose';
import type { StaffType } from '@eta/contracts';

export interface TokenSubject {
  id: number;
  name: string;
  type: StaffType;
  passwordChangedAt: Date;
}

export interface VerifiedToken {
  staffId: number;
  pwv: number;
  jti: string;
  /** When the token expires on its own. */
  expiresAt: Date;
}

/** Verified tokens remembered at most; beyond it the oldest is forgotten (and simply verified again when seen). */
const VERIFIED_CACHE_SIZE = 10_000;

export class TokenService {
  /** Imported once: jose would otherwise import the raw secret on every signature and verification. */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /**
   * A token's signature is checked once: the same bytes verify the same way until the token expires. Whether the
   * session still counts (logout, password change, deactivation, role) is decided per request by the caller from
   * the staff row, never from this cache.
   */
  private readonly verified = new Map<string, VerifiedToken>();
  constructor(
    secret: string,
    private readonly expiresIn: string,
  ) {
    this.key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  /** A new token, its jti (the session's id) and when it expires. */
  async sign(s: TokenSubject): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = randomUUID();
    const token = await new SignJWT({ name: s.name, type: s.type, pwv: s.passwordChangedAt.getTime() })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(s.id))
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(this.expiresIn)
      .sign(await this.key);
    const { exp } = decodeJwt(token);
    return { token, jti, expiresAt: new Date(exp! * 1000) };
  }

  /** Returns null for any token that is malformed, forged or expired. */
  async verify(token: string): Promise<VerifiedToken | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt.getTime() > Date.now()) return known;
      this.verified.delete(token);
      return null;
    }
    const verified = await this.verifySignature(token);
    if (verified) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, verified);
    }
    return verified;
  }

  private async verifySignature(token: string): Promise<VerifiedToken | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'] });
      const staffId = Number(payload.sub);
      const { pwv, jti, exp } = payload;
      if (!Number.isInteger(staffId) || typeof pwv !== 'number' || typeof jti !== 'string' || exp === undefined) {
        return null;
      }
      return { staffId, pwv, jti, expiresAt: new Date(exp * 1000) };
    } catch (err) {
      if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}
