// The master key wraps the data keys (envelope encryption): it never encrypts personal data itself, so rotating it
// re-wraps a few rows and re-encrypts nothing. DATA_KEY holds it today; a KMS would be another MasterKey (its wrap
// and unwrap calls are the KMS's Encrypt and Decrypt), with nothing else changed.
import { createHmac, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { open, seal, SealedValueError } from './aes-gcm.js';

export interface MasterKey {
  /** Names the key without revealing it; recorded beside every data key it wraps, so start-up can say which is missing. */
  readonly fingerprint: string;
  wrap(dataKey: Buffer, context: string): Promise<Buffer>;
  /** Rejects with a SealedValueError when this key did not wrap `wrapped` for `context`. */
  unwrap(wrapped: Buffer, context: string): Promise<Buffer>;
}

export const MASTER_KEY_BYTES = 32;

/** A master key held in this process (DATA_KEY, or the generated file of a trial desk). */
export class LocalMasterKey implements MasterKey {
  readonly fingerprint: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== MASTER_KEY_BYTES) throw new Error(`a master key is ${MASTER_KEY_BYTES} bytes`);
    this.fingerprint = masterKeyFingerprint(key);
  }

  async wrap(dataKey: Buffer, context: string): Promise<Buffer> {
    return seal(this.key, 0, dataKey, Buffer.from(context));
  }

  async unwrap(wrapped: Buffer, context: string): Promise<Buffer> {
    return open(this.key, wrapped, Buffer.from(context));
  }
}

/** 16 hex digits of an HMAC under the key: the same key always gives the same fingerprint, which reveals nothing of it. */
export const masterKeyFingerprint = (key: Buffer): string =>
  createHmac('sha256', key).update('eta-desk master key fingerprint').digest('hex').slice(0, 16);

/**
 * A master key as DATA_KEY gives it: 32 bytes in base64 (44 characters) or hex (64); null when it is neither, so the
 * caller names the variable in its error.
 */
export function parseMasterKey(raw: string): Buffer | null {
  const text = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === MASTER_KEY_BYTES) return key;
  }
  return null;
}

/** A new master key as DATA_KEY takes it (base64). */
export const newMasterKeyText = (): string => randomBytes(MASTER_KEY_BYTES).toString('base64');

/**
 * The master key of a desk started without DATA_KEY (the zero-setup trial): made once in DATA_DIR/secrets/data-key
 * (mode 0600), beside the data it protects, which is why production must set DATA_KEY
 * (modules/personal-data/README.md). Two processes starting at once on one DATA_DIR keep the first one written.
 */
export async function loadOrCreateMasterKey(dataDir: string): Promise<Buffer> {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, 'data-key');
  const read = async () => {
    const key = parseMasterKey(await readFile(file, 'utf8'));
    if (!key) throw new Error(`${file} does not hold a 32-byte key in base64 or hex`);
    return key;
  };
  try {
    return await read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Written whole under a name of its own, then linked into place, which fails if another process got there first:
  // a reader never sees a half-written key, and every process ends up with the same one.
  const temporary = `${file}.${randomBytes(6).toString('hex')}`;
  await writeFile(temporary, `${newMasterKeyText()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(temporary);
  }
  return read();
}

export { SealedValueError };
