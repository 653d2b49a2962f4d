// The default DocumentStore: files under DATA_DIR/documents (never inside a served folder), named by a
// random key in two-level fan-out directories, written to a temporary name first and renamed, so a reader
// never sees half a file.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.js';
import { isDocumentKey, newDocumentKey, type DocumentStore, type StoredDocument } from './document-store.js';

export class LocalDocumentStore implements DocumentStore {
  constructor(private readonly root: string) {}

  /** The file of a key; refuses anything that is not a key this store generated (no traversal). */
  private pathOf(key: string): string {
    if (!isDocumentKey(key)) throw new AppError('NOT_FOUND', 'The document was not found.');
    return path.join(this.root, ...key.split('/'));
  }

  put(content: Buffer, options: { extension?: string } = {}): Promise<StoredDocument> {
    return this.putAt(newDocumentKey(options.extension), content);
  }

  /** Writes under a key of this store, replacing what it held at once (`npm run personal-data:encrypt`). */
  async putAt(key: string, content: Buffer): Promise<StoredDocument> {
    const file = this.pathOf(key);
    const temporary = `${file}.${randomBytes(4).toString('hex')}.part`;
    const write = () => writeFile(temporary, content, { mode: 0o600, flag: 'wx' });
    // The fan-out folder is made only when the write finds it missing: no mkdir call per document, and a folder
    // someone removed meanwhile is simply made again.
    await write().catch(async (err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await write();
    });
    await rename(temporary, file);
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
