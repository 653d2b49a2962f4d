// The default DocumentStore: files under DATA_DIR/documents (never inside a served folder), named by a
// random key in two-level fan-out directories. A write is on disk before put() returns (the file's data and its
// directory entry synced), so a document whose key a committed row names survives a crash with it: an intake order
// is acknowledged once its row commits, and its signature must be as durable as the row. A new document is written
// under its own new key (no reader can know the key before put() returns it); replacing a document's bytes
// (putAt) goes through a temporary name and a rename, so a reader never sees half a file.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.js';
import { isDocumentKey, newDocumentKey, type DocumentStore, type StoredDocument } from './document-store.js';

/** Writes a new file (it must not exist) and syncs its data before closing it. */
async function writeSynced(file: string, content: Buffer): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(content);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Syncs a directory, so the entries made in it (a new file, a rename) are on disk. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class LocalDocumentStore implements DocumentStore {
  constructor(private readonly root: string) {}

  /** The file of a key; refuses anything that is not a key this store generated (no traversal). */
  private pathOf(key: string): string {
    if (!isDocumentKey(key)) throw new AppError('NOT_FOUND', 'The document was not found.');
    return path.join(this.root, ...key.split('/'));
  }

  async put(content: Buffer, options: { extension?: string } = {}): Promise<StoredDocument> {
    const key = newDocumentKey(options.extension);
    const file = this.pathOf(key);
    await this.writeNew(file, content);
    await syncDirectory(path.dirname(file));
    return this.stored(key, content);
  }

  /** Writes under a key of this store, replacing what it held at once (`npm run personal-data:encrypt`). */
  async putAt(key: string, content: Buffer): Promise<StoredDocument> {
    const file = this.pathOf(key);
    const temporary = `${file}.${randomBytes(4).toString('hex')}.part`;
    await this.writeNew(temporary, content);
    await rename(temporary, file);
    await syncDirectory(path.dirname(file));
    return this.stored(key, content);
  }

  /**
   * Writes a new file in its fan-out folder, synced. The folder is made only when the write finds it missing: no
   * mkdir call per document, and a folder someone removed meanwhile is simply made again (the root synced for it).
   */
  private async writeNew(file: string, content: Buffer): Promise<void> {
    await writeSynced(file, content).catch(async (err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await syncDirectory(this.root);
      await writeSynced(file, content);
    });
  }

  private stored(key: string, content: Buffer): StoredDocument {
    return { key, size: content.length, sha256: createHash('sha256').update(content).digest('hex') };
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    if (!(await this.exists(key))) throw new AppError('NOT_FOUND', 'The document was not found.');
    return createReadStream(file);
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new AppError('NOT_FOUND', 'The document was not found.');
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (err) {
      if (err instanceof AppError || (err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
