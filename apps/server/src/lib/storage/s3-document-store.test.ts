// The S3 store against a real S3 API on loopback (s3rver) through the real SDK: the same behaviour as the local
// store, large documents in parts, and every object stored encrypted with its content type and sha256. A bucket that
// answers 500 or never answers is given up within a bound, as DOCUMENT_STORE_UNAVAILABLE (issue 32).
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOOPBACK_CREDENTIALS, startLoopbackS3, type LoopbackS3 } from '../../../test/helpers/loopback-s3.js';
import { DocumentStoreUnavailableError } from './document-store.js';
import { S3DocumentStore, type S3DocumentStoreOptions } from './s3-document-store.js';

const MiB = 1024 * 1024;
const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

let s3: LoopbackS3;
const storeWith = (options: Partial<S3DocumentStoreOptions> = {}) =>
  new S3DocumentStore({ ...s3.config, credentials: LOOPBACK_CREDENTIALS, ...options });

beforeAll(async () => {
  s3 = await startLoopbackS3();
});
afterAll(() => s3.close());
beforeEach(() => {
  s3.requests.length = 0;
  s3.fail(null);
});

/** The requests that wrote `key` (a PutObject, or a multipart upload's start, parts and completion). */
const writesOf = (key: string) =>
  s3.requests.filter((r) => r.url.startsWith(`/${s3.bucket}/${key}`) && ['PUT', 'POST'].includes(r.method));

/** What a write request does, by its query string. */
function describeWrite(request: { method: string; url: string }): string {
  const query = new URL(request.url, 'http://s3').searchParams;
  if (query.has('uploads')) return 'start';
  if (query.has('partNumber')) return `part ${query.get('partNumber')}`;
  if (query.has('uploadId')) return request.method === 'POST' ? 'complete' : 'abort';
  return 'put';
}

describe('S3DocumentStore', () => {
  it('stores bytes under a generated key with their size and sha256, and gives them back', async () => {
    const store = storeWith();
    const content = Buffer.from('%PDF-1.7 approved eTA');
    const stored = await store.put(content, { extension: 'pdf' });
    expect(stored).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{2}\/[0-9a-f]{32}\.pdf$/),
      size: content.length,
      sha256: sha256(content),
    });
    expect(await s3.listKeys()).toContain(stored.key);
    expect(await store.read(stored.key)).toEqual(content);
    const chunks: Buffer[] = [];
    for await (const chunk of await store.get(stored.key)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(content);
    expect(await store.exists(stored.key)).toBe(true);

    await store.delete(stored.key);
    expect(await store.exists(stored.key)).toBe(false);
    expect(await s3.listKeys()).not.toContain(stored.key);
    await expect(store.read(stored.key)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.get(stored.key)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.delete(stored.key)).resolves.toBeUndefined();
  });

  it('keeps the content type and sha256 on the object and asks for AES256 encryption by default', async () => {
    const store = storeWith();
    const png = await store.put(Buffer.from('\x89PNG signature'), { extension: 'png' });
    const other = await store.put(Buffer.from('no extension'));
    expect(await store.describe(png.key)).toEqual({ size: png.size, contentType: 'image/png', sha256: png.sha256 });
    expect(await store.describe(other.key)).toMatchObject({ contentType: 'application/octet-stream' });
    for (const key of [png.key, other.key]) {
      const writes = writesOf(key);
      expect(writes.map(describeWrite)).toEqual(['put']);
      expect(writes[0]?.headers).toMatchObject({
        'x-amz-server-side-encryption': 'AES256',
        'x-amz-meta-sha256': expect.any(String),
      });
    }
  });

  it('asks for KMS encryption with the configured key when S3_SSE=aws:kms', async () => {
    const store = storeWith({ sse: 'aws:kms', sseKmsKeyId: 'alias/eta-documents' });
    const { key } = await store.put(Buffer.from('%PDF kms'), { extension: 'pdf' });
    expect(writesOf(key)[0]?.headers).toMatchObject({
      'x-amz-server-side-encryption': 'aws:kms',
      'x-amz-server-side-encryption-aws-kms-key-id': 'alias/eta-documents',
    });
    const plain = storeWith({ sse: 'none' });
    const { key: unencrypted } = await plain.put(Buffer.from('%PDF plain'), { extension: 'pdf' });
    expect(writesOf(unencrypted)[0]?.headers).not.toHaveProperty('x-amz-server-side-encryption');
  });

  it('sends a document larger than the part size in parts, encrypted, and reads it back whole', async () => {
    const store = storeWith({ partSize: 5 * MiB });
    const content = randomBytes(12 * MiB);
    const stored = await store.put(content, { extension: 'pdf' });
    const writes = writesOf(stored.key);
    // Start, three parts (5 + 5 + 2 MiB), completion.
    expect(writes.map(describeWrite)).toEqual(['start', 'part 1', 'part 2', 'part 3', 'complete']);
    expect(writes[0]?.headers).toMatchObject({
      'x-amz-server-side-encryption': 'AES256',
      'content-type': 'application/pdf',
      'x-amz-meta-sha256': sha256(content),
    });
    expect(await store.describe(stored.key)).toEqual({
      size: content.length,
      contentType: 'application/pdf',
      sha256: sha256(content),
    });
    expect(sha256(await store.read(stored.key))).toBe(sha256(content));
  });

  it('finds nothing under a key it would never generate', async () => {
    const store = storeWith();
    for (const key of ['../secrets/jwt-secret', '/etc/passwd', 'ab/../../x', '']) {
      expect(await store.exists(key), key).toBe(false);
      await expect(store.read(key), key).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('reports a missing bucket as the store failing, saying so in its detail, not as a missing document', async () => {
    const store = storeWith({ bucket: 'no-such-bucket' });
    const err = await store.read('ab/0123456789abcdef0123456789abcdef.pdf').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocumentStoreUnavailableError);
    expect(err).toMatchObject({ code: 'DOCUMENT_STORE_UNAVAILABLE', detail: expect.stringMatching(/^NoSuchBucket/) });
  });
});

describe('S3DocumentStore with a bucket that fails (issue 32)', () => {
  const TIMEOUT_MS = 300;
  const key = 'ab/0123456789abcdef0123456789abcdef.pdf';
  /** Each call the store makes, its outcome and how long it took. */
  async function timed(call: () => Promise<unknown>): Promise<{ err: unknown; ms: number }> {
    const started = Date.now();
    const err = await call().then(
      () => null,
      (e: unknown) => e,
    );
    return { err, ms: Date.now() - started };
  }

  it('gives up a bucket answering 500 after its second try, as a 503 whose detail is what S3 said', async () => {
    const store = storeWith({ timeoutMs: TIMEOUT_MS });
    const { key: stored } = await store.put(Buffer.from('%PDF before'), { extension: 'pdf' });
    s3.fail({ answer: 'error' });
    s3.requests.length = 0;
    for (const call of [
      () => store.put(Buffer.from('%PDF during'), { extension: 'pdf' }),
      () => store.read(stored),
      () => store.exists(stored),
      () => store.delete(stored),
    ]) {
      const { err } = await timed(call);
      expect(err).toBeInstanceOf(DocumentStoreUnavailableError);
      expect(err).toMatchObject({
        code: 'DOCUMENT_STORE_UNAVAILABLE',
        httpStatus: 503,
        retryAfterSeconds: 30,
        message: expect.stringMatching(/^The document store is not answering\. Please try again in a minute/),
      });
      // A HEAD's 500 has no body to name the error by.
      expect((err as DocumentStoreUnavailableError).detail).toMatch(/\(HTTP 500\)/);
    }
    // Two tries each.
    expect(s3.requests.map((r) => r.method)).toEqual(['PUT', 'PUT', 'GET', 'GET', 'HEAD', 'HEAD', 'DELETE', 'DELETE']);
    s3.fail(null);
    expect(await store.read(stored)).toEqual(Buffer.from('%PDF before'));
  });

  it('gives up a bucket that never answers after two silences of S3_TIMEOUT_MS, reads and writes alike', async () => {
    const store = storeWith({ timeoutMs: TIMEOUT_MS });
    const { key: stored } = await store.put(Buffer.from('%PDF before'), { extension: 'pdf' });
    s3.fail({ answer: 'hang' });
    for (const call of [
      () => store.put(Buffer.from('%PDF during'), { extension: 'pdf' }),
      () => store.read(stored),
      () => store.exists(key),
    ]) {
      const { err, ms } = await timed(call);
      expect(err).toMatchObject({ code: 'DOCUMENT_STORE_UNAVAILABLE', detail: expect.stringMatching(/TimeoutError/) });
      expect(ms).toBeGreaterThanOrEqual(2 * TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(2 * TIMEOUT_MS + 1_500);
    }
  });

  it('names the key of a write whose answer never came, which may have landed', async () => {
    const store = storeWith({ timeoutMs: TIMEOUT_MS });
    s3.fail({ answer: 'hang-after-storing', methods: ['PUT'] });
    const { err } = await timed(() => store.put(Buffer.from('%PDF landed'), { extension: 'pdf' }));
    expect(err).toMatchObject({ code: 'DOCUMENT_STORE_UNAVAILABLE', key: expect.stringMatching(/\.pdf$/) });
    const { key: landed } = err as DocumentStoreUnavailableError;
    expect(await s3.listKeys()).toContain(landed);
    await store.delete(landed!);
    expect(await s3.listKeys()).not.toContain(landed);
  });

  it('gives up a document whose bytes stop coming mid-way after S3_TIMEOUT_MS of silence', async () => {
    const store = storeWith({ timeoutMs: TIMEOUT_MS });
    const { key: stored } = await store.put(randomBytes(2 * MiB), { extension: 'pdf' });
    s3.fail({ answer: 'stall' });
    const { err, ms } = await timed(() => store.read(stored));
    expect(err).toMatchObject({ code: 'DOCUMENT_STORE_UNAVAILABLE', detail: expect.stringMatching(/TimeoutError/) });
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS + 1_500);
  });
});
