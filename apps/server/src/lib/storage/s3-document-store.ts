// Documents in an S3 bucket (DOCUMENTS_STORE=s3, issue 23), so that every server of the desk reads what any of them
// stored. Each object carries its content type and sha256, and every write asks for server-side encryption. A bucket
// that fails or hangs is given up within a bound (issue 32): every call has connection, silence and request timeouts
// and two tries, and whatever the bucket or the network did becomes one DocumentStoreUnavailableError (a 503 saying
// what to do), never a stack; a missing object stays a NOT_FOUND.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  type PutObjectCommandInput,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { AppError } from '../errors.js';
import type { S3Config } from '../config.js';
import {
  DocumentStoreUnavailableError,
  isDocumentKey,
  newDocumentKey,
  type DocumentStore,
  type StoredDocument,
} from './document-store.js';

export interface S3DocumentStoreOptions extends S3Config {
  /** Bytes per part of a multipart upload (at least S3's 5 MiB); a smaller document goes up in one request. */
  partSize?: number;
  /** Fixed credentials (tests); by default the SDK's provider chain (environment, profile, instance role). */
  credentials?: S3ClientConfig['credentials'];
}

/** What the bucket holds under a key, read without its bytes. */
export interface S3ObjectInfo {
  size: number;
  contentType: string | undefined;
  /** The sha256 recorded when it was stored; undefined for an object written by something else. */
  sha256: string | undefined;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/** Tries per call: one retry rides out a single 500 or a lost connection; more would only lengthen a real outage. */
const MAX_ATTEMPTS = 2;
/** A call's whole exchange, up to the answer's first byte, may take this many times S3_TIMEOUT_MS (a large write). */
const REQUEST_TIMEOUT_FACTOR = 3;

/** Keys end in the extension of what the content really is (judged by the callers), so the type follows from it. */
const CONTENT_TYPES: Record<string, string> = { pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg' };
const contentTypeOf = (key: string): string =>
  CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** A missing object; a missing bucket is an operator's error and stays one (HEAD cannot tell them apart). */
const isMissing = (err: unknown): boolean => {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
};

const notFound = () => new AppError('NOT_FOUND', 'The document was not found.');

/** What the bucket or the network answered, in one line for the log: `InternalError (HTTP 500): We encountered…`. */
function describeFailure(err: unknown): string {
  const { name, message, $metadata } = (err ?? {}) as {
    name?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = $metadata?.httpStatusCode ? ` (HTTP ${$metadata.httpStatusCode})` : '';
  return `${name ?? 'Error'}${status}: ${message ?? String(err)}`;
}

/** Any failure but a missing object: the store is unavailable for this call. */
const unavailable = (err: unknown, key?: string): Error =>
  err instanceof AppError || err instanceof DocumentStoreUnavailableError
    ? err
    : new DocumentStoreUnavailableError(describeFailure(err), key);

export class S3DocumentStore implements DocumentStore {
  private readonly client: S3Client;
  private readonly partSize: number;

  constructor(private readonly options: S3DocumentStoreOptions) {
    this.partSize = options.partSize ?? DEFAULT_PART_SIZE;
    this.client = new S3Client({
      ...(options.region ? { region: options.region } : {}),
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle,
      requestChecksumCalculation: options.requestChecksumCalculation,
      responseChecksumValidation: options.responseChecksumValidation,
      maxAttempts: MAX_ATTEMPTS,
      requestHandler: {
        // A bucket that does not accept the connection, goes silent mid-call, or takes too long to answer at all: each
        // attempt ends, and the call with it after the last (about 2 × S3_TIMEOUT_MS for a bucket that hangs).
        connectionTimeout: options.timeoutMs,
        socketTimeout: options.timeoutMs,
        requestTimeout: REQUEST_TIMEOUT_FACTOR * options.timeoutMs,
        throwOnRequestTimeout: true,
        // A portal download holds its connection while the customer reads it: the SDK's 50 would queue every other
        // call behind 50 slow phones.
        httpsAgent: { keepAlive: true, maxSockets: 256 },
        httpAgent: { keepAlive: true, maxSockets: 256 },
      },
    });
  }

  put(content: Buffer, options: { extension?: string; sha256?: string } = {}): Promise<StoredDocument> {
    return this.putAt(newDocumentKey(options.extension), content, options.sha256);
  }

  /** Stores bytes under a key the caller chose: `documents:migrate` keeps the keys the database already names. */
  async putAt(key: string, content: Buffer, documentSha256?: string): Promise<StoredDocument> {
    if (!isDocumentKey(key)) throw new Error(`not a document key: "${key}"`);
    const sha256 = documentSha256 ?? createHash('sha256').update(content).digest('hex');
    const { sse, sseKmsKeyId } = this.options;
    const params: PutObjectCommandInput = {
      Bucket: this.options.bucket,
      Key: key,
      Body: content,
      ContentType: contentTypeOf(key),
      Metadata: { sha256 },
      ...(sse === 'none' ? {} : { ServerSideEncryption: sse }),
      ...(sseKmsKeyId ? { SSEKMSKeyId: sseKmsKeyId } : {}),
    };
    // One PutObject below the part size, a multipart upload (parts sent 4 at a time) above it; a multipart upload
    // that fails is aborted by the library (its parts removed, if the bucket answers).
    try {
      await new Upload({ client: this.client, params, partSize: this.partSize, queueSize: 4 }).done();
    } catch (err) {
      // The write may have landed even so (its answer lost): the key goes with the error, for the caller to remove.
      throw unavailable(err, key);
    }
    return { key, size: content.length, sha256 };
  }

  /**
   * The object as it arrives. The silence timeout holds while it is read: a stream left unread for S3_TIMEOUT_MS
   * ends with an error, so it must be read at once (read() does; EncryptedDocumentStore reads every document whole),
   * never piped to a slow client.
   */
  async get(key: string): Promise<Readable> {
    if (!isDocumentKey(key)) throw notFound();
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return object.Body as Readable;
    } catch (err) {
      throw isMissing(err) ? notFound() : unavailable(err);
    }
  }

  async read(key: string): Promise<Buffer> {
    const body = await this.get(key);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of body) chunks.push(chunk as Buffer);
    } catch (err) {
      // The bucket went silent or away mid-document (the silence timeout ends the stream).
      throw unavailable(err);
    }
    return Buffer.concat(chunks);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.describe(key)) !== null;
  }

  /** The object's size, type and recorded sha256, or null when the bucket holds nothing under the key. */
  async describe(key: string): Promise<S3ObjectInfo | null> {
    if (!isDocumentKey(key)) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType, sha256: head.Metadata?.sha256 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw unavailable(err);
    }
  }

  async delete(key: string): Promise<void> {
    if (!isDocumentKey(key)) return;
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
    } catch (err) {
      throw unavailable(err, key);
    }
  }

  /** Ends the client's kept-alive connections (a CLI exits without waiting for them). */
  close(): void {
    this.client.destroy();
  }
}
