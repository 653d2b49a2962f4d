// Documents are encrypted before they reach the store (issue 24), local directory or S3 alike: the store only ever
// holds ciphertext (lib/crypto/document-cipher.ts). What callers see is unchanged: put answers the size and sha256 of
// the document itself (the evidence the database records), and files stored before encryption are read as they are
// until `npm run personal-data:encrypt` encrypts them. `get` decrypts the whole file and verifies its tag before it
// hands out the first byte (documents are at most MAX_UPLOAD_MB): a streaming decryption would send most of an
// altered file before finding out.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { decryptDocument, encryptDocument } from '../crypto/document-cipher.js';
import type { Keyring } from '../crypto/keyring.js';
import type { DocumentStore, StoredDocument } from './document-store.js';

export class EncryptedDocumentStore implements DocumentStore {
  constructor(
    /** The store that keeps the ciphertext. */
    readonly inner: DocumentStore,
    private readonly keyring: Keyring,
  ) {}

  async put(content: Buffer, options: { extension?: string } = {}): Promise<StoredDocument> {
    const sha256 = createHash('sha256').update(content).digest('hex');
    const { key } = await this.inner.put(encryptDocument(this.keyring, content), { ...options, sha256 });
    return { key, size: content.length, sha256 };
  }

  async get(key: string): Promise<Readable> {
    return Readable.from([await this.read(key)]);
  }

  async read(key: string): Promise<Buffer> {
    return decryptDocument(this.keyring, await this.inner.read(key));
  }

  exists(key: string): Promise<boolean> {
    return this.inner.exists(key);
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
}
