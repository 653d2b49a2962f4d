// A landing site's intake API key: `etak_<id>_<secret>`, where the id (16 hex characters) is public (it finds the
// key's row and names the key on the Landing Sites page) and the secret is 32 random bytes (base64url). Only the
// SHA-256 of the secret is stored; a presented secret is compared with it in constant time. SHA-256, not argon2:
// the secret is random, not a password, so nothing can be guessed from its hash.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY = /^etak_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewIntakeKey {
  id: string;
  /** The whole key, shown once. */
  key: string;
  secretSha256: Buffer;
}

const sha256 = (secret: string): Buffer => createHash('sha256').update(secret).digest();

export function generateIntakeKey(): NewIntakeKey {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { id, key: `etak_${id}_${secret}`, secretSha256: sha256(secret) };
}

/** The key's id and its secret's hash, or null when the text is not shaped like a key. */
export function parseIntakeKey(presented: string): { id: string; secretSha256: Buffer } | null {
  const m = KEY.exec(presented);
  return m ? { id: m[1]!, secretSha256: sha256(m[2]!) } : null;
}

export function secretMatches(stored: Uint8Array, presented: Buffer): boolean {
  return stored.length === presented.length && timingSafeEqual(Buffer.from(stored), presented);
}
