// AES-256-GCM through node:crypto, for small values (an order's fields, data keys). A sealed value names the data
// key that sealed it, so values sealed before a rotation still open; the additional data (AAD) binds it to where it
// belongs (an order and a field), so a value copied to another row or field fails to open.
import { createCipheriv, createDecipheriv, randomFillSync } from 'node:crypto';

/** Format byte, data key id (uint32), IV, tag; then the ciphertext. */
const FORMAT = 1;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
const HEADER_BYTES = 1 + 4 + IV_BYTES + TAG_BYTES;

/** A value that is not one this code sealed, or whose key, data or AAD does not match: never opened. */
export class SealedValueError extends Error {}

// IVs come from a pool filled a few kilobytes at a time: one randomFillSync per 340 values instead of one per value
// (the demo loader seals millions). GCM only needs them unique under a key; 96 random bits are.
const pool = Buffer.alloc(IV_BYTES * 340);
let used = pool.length;

/** Fills `target` at `offset` with a fresh random IV. */
export function fillIv(target: Buffer, offset: number): void {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  pool.copy(target, offset, used, used + IV_BYTES);
  used += IV_BYTES;
}

export function seal(key: Buffer, keyId: number, plaintext: Buffer, aad: Buffer): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + plaintext.length);
  out[0] = FORMAT;
  out.writeUInt32BE(keyId, 1);
  fillIv(out, 5);
  const cipher = createCipheriv('aes-256-gcm', key, out.subarray(5, 5 + IV_BYTES));
  cipher.setAAD(aad);
  const written = cipher.update(plaintext);
  written.copy(out, HEADER_BYTES);
  const rest = cipher.final();
  rest.copy(out, HEADER_BYTES + written.length);
  cipher.getAuthTag().copy(out, 5 + IV_BYTES);
  return out;
}

/** The id of the data key a sealed value needs. */
export function sealedKeyId(sealed: Buffer): number {
  if (sealed.length < HEADER_BYTES || sealed[0] !== FORMAT) throw new SealedValueError('not a sealed value');
  return sealed.readUInt32BE(1);
}

export function open(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  sealedKeyId(sealed);
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(5, 5 + IV_BYTES));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(5 + IV_BYTES, HEADER_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]);
  } catch {
    throw new SealedValueError('the value does not open with its data key (wrong key, or not where it was sealed)');
  }
}
