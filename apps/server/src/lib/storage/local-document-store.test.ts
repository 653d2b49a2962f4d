// The local store keeps what it is given under a generated key, durably, and nothing else can be reached through it.
import { createHash } from 'node:crypto';
import type * as FsPromises from 'node:fs/promises';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalDocumentStore } from './local-document-store.js';

/** Every sync the store asks of the file system, in order: [what was synced, how]. */
const syncs = vi.hoisted(() => [] as [string, 'datasync' | 'sync'][]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  return {
    ...fs,
    open: async (...args: Parameters<typeof fs.open>) => {
      const handle = await fs.open(...args);
      const at = String(args[0]);
      const { datasync, sync } = handle;
      handle.datasync = () => datasync.call(handle).then(() => void syncs.push([at, 'datasync']));
      handle.sync = () => sync.call(handle).then(() => void syncs.push([at, 'sync']));
      return handle;
    },
  };
});

let dir: string;
let store: LocalDocumentStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'eta-store-'));
  store = new LocalDocumentStore(dir);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('LocalDocumentStore', () => {
  it('stores bytes under a generated key with their size and sha256, and gives them back', async () => {
    const content = Buffer.from('%PDF-1.7 approved eTA');
    const stored = await store.put(content, { extension: 'pdf' });
    expect(stored).toMatchObject({
      key: expect.stringMatching(/^[0-9a-f]{2}\/[0-9a-f]{32}\.pdf$/),
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
    });
    expect(await store.read(stored.key)).toEqual(content);
    const chunks: Buffer[] = [];
    for await (const chunk of await store.get(stored.key)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(content);
    expect(await store.exists(stored.key)).toBe(true);
    await store.delete(stored.key);
    expect(await store.exists(stored.key)).toBe(false);
    await expect(store.read(stored.key)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses keys it did not generate, so no path can escape the store', async () => {
    for (const key of ['../secrets/jwt-secret', '/etc/passwd', 'ab/../../x', 'ab\\cd', '']) {
      expect(await store.exists(key), key).toBe(false);
      await expect(store.read(key), key).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('has a new document’s bytes and its folder’s entry on disk before put() answers (and a new folder’s)', async () => {
    syncs.length = 0;
    const { key } = await store.put(Buffer.from('signature'), { extension: 'png' });
    const file = path.join(dir, ...key.split('/'));
    // The store is new, so the document's fan-out folder was made for it: the store's own folder holds its entry.
    expect(syncs).toEqual([
      [dir, 'sync'],
      [file, 'datasync'],
      [path.dirname(file), 'sync'],
    ]);
    syncs.length = 0;
    const again = await store.putAt(`${key.slice(0, 3)}${'0'.repeat(32)}.png`, Buffer.from('another'));
    expect(syncs.map(([at, how]) => [path.relative(dir, at).split('.')[0], how])).toEqual([
      [again.key.split('.')[0], 'datasync'],
      [key.slice(0, 2), 'sync'],
    ]);
  });

  it('replaces a document through a synced temporary file, renamed, and syncs the folder after', async () => {
    const { key } = await store.put(Buffer.from('clear'));
    syncs.length = 0;
    await store.putAt(key, Buffer.from('sealed'));
    const file = path.join(dir, ...key.split('/'));
    expect(syncs).toEqual([
      [expect.stringMatching(/\.[0-9a-f]{8}\.part$/), 'datasync'],
      [path.dirname(file), 'sync'],
    ]);
    expect(syncs[0]![0].startsWith(`${file}.`)).toBe(true);
    expect((await store.read(key)).toString()).toBe('sealed');
    expect(await readdir(path.dirname(file))).toEqual([key.slice(3)]);
  });

  it('leaves no temporary files behind', async () => {
    const { key } = await store.put(Buffer.from('x'));
    expect(await readdir(path.join(dir, key.slice(0, 2)))).toEqual([key.slice(3)]);
  });

  it('keeps storing after its folders were removed behind its back', async () => {
    const first = await store.put(Buffer.from('one'));
    await rm(dir, { recursive: true, force: true });
    // Until one lands in the folder made before the removal (1 in 256 each; 5,000 tries miss it ~1 in 10^8).
    const stored: { key: string; text: string }[] = [];
    while (stored.length < 5000 && !stored.some(({ key }) => key.slice(0, 3) === first.key.slice(0, 3))) {
      const text = `doc ${stored.length}`;
      stored.push({ key: (await store.put(Buffer.from(text))).key, text });
    }
    expect(stored.at(-1)!.key.slice(0, 3)).toBe(first.key.slice(0, 3));
    for (const { key, text } of stored) expect((await store.read(key)).toString()).toBe(text);
  });
});
