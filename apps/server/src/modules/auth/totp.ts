// Two-factor codes (TOTP, RFC 6238) with otpauth: 6 digits, 30-second steps, SHA-1 (what every authenticator app
// reads from a QR code), a code accepted in its own step or the one before or after it; and single-use recovery
// codes, 80 random bits each, kept only as SHA-256 hashes.
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

const ISSUER = 'eTA Desk';
/** Steps either side of the current one in which a code is still accepted (a phone's clock a little off). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const totpOf = (secret: Buffer, label = '') =>
  new TOTP({
    issuer: ISSUER,
    label,
    secret: new Secret({ buffer: new Uint8Array(secret).buffer }),
    digits: 6,
    period: 30,
  });

/** A new secret: 160 bits, as RFC 4226 recommends. */
export const newTotpSecret = (): Buffer => randomBytes(20);

/** What the member's authenticator app needs: the secret in text, the otpauth:// address and its QR code (SVG). */
export async function describeTotpSecret(secret: Buffer, account: string) {
  const totp = totpOf(secret, account);
  const uri = totp.toString();
  return { secret: totp.secret.base32, uri, qrSvg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
}

/** The 30-second step a code belongs to, or null when it is not a code of this secret near `now`. */
export function stepOfCode(secret: Buffer, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpOf(secret);
  const delta = totp.validate({ token, timestamp: now, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/** Recovery codes as the member reads them: four groups of four letters and digits. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    new Secret({ buffer: new Uint8Array(randomBytes(10)).buffer }).base32.toLowerCase().match(/.{4}/g)!.join('-'),
  );
}

/** The hash a recovery code is kept as; spaces, dashes and case do not matter. */
export const hashRecoveryCode = (code: string): Buffer =>
  createHash('sha256')
    .update(code.replace(/[\s-]+/g, '').toLowerCase())
    .digest();
