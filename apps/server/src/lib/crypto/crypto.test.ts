// The ciphers of personal data (issue 24): values open only with their key and where they were sealed, documents
// decrypt whole, and an altered byte is refused rather than returned: the store hands out no byte of an altered file.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { open, seal, SealedValueError } from './aes-gcm.js';
import { decryptDocument, encryptDocument } from './document-cipher.js';
import { Keyring } from './keyring.js';
import { loadOrCreateMasterKey, LocalMasterKey, parseMasterKey } from './master-key.js';
import { EncryptedDocumentStore } from '../storage/encrypted-document-store.js';
import { LocalDocumentStore } from '../storage/local-document-store.js';

const keyring = () =>
  new Keyring([
    { id: 1, kind: 'order', key: randomBytes(32) },
    { id: 2, kind: 'document', key: randomBytes(32) },
    { id: 3, kind: 'search', key: randomBytes(32) },
    { id: 4, kind: 'staff', key: randomBytes(32) },
  ]);

describe('sealed values', () => {
  it('open with their key and AAD only', () => {
    const key = randomBytes(32);
    const sealed = seal(key, 7, Buffer.from('PAA123456'), Buffer.from('order A passport_number'));
    expect(sealed.includes(Buffer.from('PAA123456'))).toBe(false);
    expect(open(key, sealed, Buffer.from('order A passport_number')).toString()).toBe('PAA123456');
    expect(() => open(key, sealed, Buffer.from('order B passport_number'))).toThrow(SealedValueError);
    expect(() => open(randomBytes(32), sealed, Buffer.from('order A passport_number'))).toThrow(SealedValueError);
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(() => open(key, altered, Buffer.from('order A passport_number'))).toThrow(SealedValueError);
  });

  it('give the same keyed hash for the same text only', () => {
    const ring = keyring();
    expect(ring.keyedHash('x').equals(ring.keyedHash('x'))).toBe(true);
    expect(ring.keyedHash('x').equals(ring.keyedHash('y'))).toBe(false);
    expect(ring.keyedHash('x').equals(keyring().keyedHash('x'))).toBe(false);
  });
});

describe('master keys', () => {
  it('take 32 bytes in base64 or hex, and wrap only for their own context', async () => {
    const raw = randomBytes(32);
    expect(parseMasterKey(raw.toString('base64'))).toEqual(raw);
    expect(parseMasterKey(raw.toString('hex'))).toEqual(raw);
    expect(parseMasterKey('too short')).toBeNull();
    expect(parseMasterKey(randomBytes(24).toString('base64'))).toBeNull();
    const master = new LocalMasterKey(raw);
    expect(master.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(master.fingerprint).toBe(new LocalMasterKey(Buffer.from(raw)).fingerprint);
    const wrapped = await master.wrap(Buffer.from('a data key'), 'data key 1 order');
    expect((await master.unwrap(wrapped, 'data key 1 order')).toString()).toBe('a data key');
    await expect(master.unwrap(wrapped, 'data key 2 order')).rejects.toThrow(SealedValueError);
  });
});

describe('the key of a desk started without DATA_KEY', () => {
  it('is made once in DATA_DIR/secrets, readable by its owner only, the same for processes starting together', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-master-key-'));
    try {
      const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateMasterKey(dataDir)));
      expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(1);
      expect(keys[0]).toHaveLength(32);
      expect((await loadOrCreateMasterKey(dataDir)).equals(keys[0]!)).toBe(true);
      expect(await readdir(path.join(dataDir, 'secrets'))).toEqual(['data-key']);
      expect((await stat(path.join(dataDir, 'secrets', 'data-key'))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('documents', () => {
  const ring = keyring();
  const content = randomBytes(70_000);
  const stored = encryptDocument(ring, content);

  it('are stored with a header and no clear byte run, and decrypt whole', async () => {
    expect(stored.subarray(0, 4).toString('latin1')).toBe('ETAE');
    expect(stored.includes(content.subarray(1000, 1032))).toBe(false);
    expect((await decryptDocument(ring, stored)).equals(content)).toBe(true);
    const empty = encryptDocument(ring, Buffer.alloc(0));
    expect((await decryptDocument(ring, empty)).length).toBe(0);
  });

  it('refuse an altered byte', async () => {
    const altered = Buffer.from(stored);
    altered[50_000]! ^= 1;
    await expect(decryptDocument(ring, altered)).rejects.toThrow(SealedValueError);
  });

  it('stored before encryption are read as they are', async () => {
    const pdf = Buffer.from('%PDF-1.4 a plain approval stored before encryption');
    expect((await decryptDocument(ring, pdf)).equals(pdf)).toBe(true);
    expect((await decryptDocument(ring, Buffer.from('tiny'))).toString()).toBe('tiny');
  });

  it('are handed out as a stream only once the whole file is verified: an altered one gives no byte', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'eta-encrypted-store-'));
    try {
      const inner = new LocalDocumentStore(dir);
      const store = new EncryptedDocumentStore(inner, ring);
      const { key } = await store.put(content, { extension: 'pdf' });
      expect((await buffer(await store.get(key))).equals(content)).toBe(true);
      const altered = await inner.read(key);
      altered[altered.length - 100]! ^= 1; // near the end: a streaming decryption would have sent most of the file
      await inner.delete(key);
      const { key: alteredKey } = await inner.put(altered, { extension: 'pdf' });
      await expect(store.get(alteredKey)).rejects.toThrow(SealedValueError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
