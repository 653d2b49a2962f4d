// Where documents live (approved eTAs, signatures, invoices). Nothing outside this folder touches a document
// path: callers hold opaque keys. The local directory is the default; S3 comes behind the same interface.
import type { Readable } from 'node:stream';

export interface StoredDocument {
  /** Opaque, generated key; never derived from a customer's file name. */
  key: string;
  size: number;
  sha256: string;
}

export interface DocumentStore {
  /** Stores the bytes under a new generated key (the extension only helps a person browsing the store). */
  put(content: Buffer, options?: { extension?: string }): Promise<StoredDocument>;
  /** The document as a stream; rejects with a NOT_FOUND AppError when the key holds nothing. */
  get(key: string): Promise<Readable>;
  /** The whole document in memory (PDF assembly, mail attachments). */
  read(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  /** Removes a document; a missing key is not an error (cleanup after a failed transaction). */
  delete(key: string): Promise<void>;
}
