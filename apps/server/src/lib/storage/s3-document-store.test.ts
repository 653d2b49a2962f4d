// The S3 store against a real S3 API on loopback (s3rver) through the real SDK: the same behaviour as the local
// store, large documents in parts, and every object stored encrypted with its content type and sha256.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOOPBACK_CREDENTIALS, startLoopbackS3, type LoopbackS3 } from '../../../test/helpers/loopback-s3.js';
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

  it('reports a missing bucket as the configuration error it is, not as a missing document', async () => {
    const store = storeWith({ bucket: 'no-such-bucket' });
    const err = await store.read('ab/0123456789abcdef0123456789abcdef.pdf').catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'NoSuchBucket' });
  });
});
