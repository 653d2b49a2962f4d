// Where documents live (approved eTAs, signatures, invoices). Nothing outside this folder touches a document
// path: callers hold opaque keys. The local directory is the default; S3 (issue 23) is the other implementation.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { httpStatusOf } from '../errors.js';

export interface StoredDocument {
  /** Opaque, generated key; never derived from a customer's file name. */
  key: string;
  size: number;
  sha256: string;
}

export interface DocumentStore {
  /**
   * Stores the bytes under a new generated key (the extension only helps a person browsing the store). `sha256` is
   * the document's own when `content` is not the document itself but its encrypted form (issue 24): a store that
   * records a hash beside the bytes (S3) records that one, the document's, as the database does.
   */
  put(content: Buffer, options?: { extension?: string; sha256?: string }): Promise<StoredDocument>;
  /** The document as a stream; rejects with a NOT_FOUND AppError when the key holds nothing. */
  get(key: string): Promise<Readable>;
  /** The whole document in memory (PDF assembly, mail attachments). */
  read(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  /** Removes a document; a missing key is not an error (cleanup after a failed transaction). */
  delete(key: string): Promise<void>;
}

/** When to try a call that found the store unavailable again. */
export const STORE_RETRY_AFTER_SECONDS = 30;

/**
 * The store failed or did not answer in time (issue 32): S3 answered 5xx or refused us, a call timed out, the
 * connection was refused. Nothing was read, and nothing was stored but possibly `key` (a write whose answer never came
 * may have landed: the caller removes it once it knows the write is not used). Answered 503 with Retry-After and a
 * message saying what to do (plugins/errors.ts); `detail`, what the store said, is for the log only. A service says
 * it in its own words (`saying`): what was and was not done. Not an AppError: code that takes an AppError from the
 * store for a missing document (the outbox's attachments) must not take a store that is down for one.
 */
export class DocumentStoreUnavailableError extends Error {
  readonly code = 'DOCUMENT_STORE_UNAVAILABLE' as const;
  readonly httpStatus = httpStatusOf('DOCUMENT_STORE_UNAVAILABLE');
  readonly retryAfterSeconds = STORE_RETRY_AFTER_SECONDS;

  constructor(
    readonly detail: string,
    readonly key?: string,
    message = 'The document store is not answering. Please try again in a minute; if it keeps failing, tell your administrator.',
  ) {
    super(message);
    this.name = 'DocumentStoreUnavailableError';
  }

  saying(message: string): DocumentStoreUnavailableError {
    return new DocumentStoreUnavailableError(this.detail, this.key, message);
  }
}

/** The shape of every key a store generates: a two-hex-digit fan-out folder, 32 random hex digits, an extension. */
const KEY = /^[0-9a-f]{2}\/[0-9a-f]{32}(\.[a-z0-9]{1,8})?$/;

export const isDocumentKey = (key: string): boolean => KEY.test(key);

/** A new random key; the extension is kept only when it is a plain short one. */
export function newDocumentKey(extension?: string): string {
  const id = randomBytes(16).toString('hex');
  const suffix = extension && /^[a-z0-9]{1,8}$/.test(extension) ? `.${extension}` : '';
  return `${id.slice(0, 2)}/${id}${suffix}`;
}
