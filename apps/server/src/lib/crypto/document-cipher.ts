// Stored documents encrypted under the 'document' data key: a 21-byte header (magic "ETAE", format 1, the data key's
// id, the IV), the AES-256-GCM ciphertext, and the 16-byte tag last. The header is the AAD. A document is decrypted
// whole and its tag checked before any of it is used (EncryptedDocumentStore.get). A file without the magic is a document stored before encryption and is read as it is.
import { createCipheriv, createDecipheriv, type DecipherGCM } from 'node:crypto';
import { fillIv, IV_BYTES, SealedValueError, TAG_BYTES } from './aes-gcm.js';
import type { Keyring } from './keyring.js';

const MAGIC = Buffer.from('ETAE', 'latin1');
const FORMAT = 1;
const HEADER_BYTES = MAGIC.length + 1 + 4 + IV_BYTES;

/** Whether stored bytes begin like an encrypted document (a PDF or an image never does). */
export const isEncryptedDocument = (stored: Buffer): boolean =>
  stored.length >= HEADER_BYTES + TAG_BYTES && stored.subarray(0, MAGIC.length).equals(MAGIC) && stored[4] === FORMAT;

export function encryptDocument(keyring: Keyring, content: Buffer): Buffer {
  const key = keyring.current('document');
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header[4] = FORMAT;
  header.writeUInt32BE(key.id, 5);
  fillIv(header, 9);
  const cipher = createCipheriv('aes-256-gcm', key.key, header.subarray(9));
  cipher.setAAD(header);
  return Buffer.concat([header, cipher.update(content), cipher.final(), cipher.getAuthTag()]);
}

function decipherFor(keyring: Keyring, header: Buffer): DecipherGCM {
  const key = keyring.key(header.readUInt32BE(5), 'document');
  const decipher = createDecipheriv('aes-256-gcm', key.key, header.subarray(9, HEADER_BYTES));
  decipher.setAAD(header.subarray(0, HEADER_BYTES));
  return decipher;
}

/** The document's own bytes: decrypted and verified, or a document stored before encryption as it is. */
export function decryptDocument(keyring: Keyring, stored: Buffer): Promise<Buffer> {
  return keyring.withNewerKeys(() => decryptWhole(keyring, stored));
}

function decryptWhole(keyring: Keyring, stored: Buffer): Buffer {
  if (!isEncryptedDocument(stored)) return stored;
  const decipher = decipherFor(keyring, stored);
  decipher.setAuthTag(stored.subarray(stored.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(stored.subarray(HEADER_BYTES, stored.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SealedValueError('the document does not decrypt with its data key (damaged or altered)');
  }
}
