// Copies the local store's documents into S3 under the same keys (`npm run documents:migrate`, issue 23): each one is
// read back and compared by sha256 before it counts, a second run skips what is already there, and a local copy is
// removed only when asked and only once its S3 copy has been read back intact.
import { createHash } from 'node:crypto';
import { AppError } from '../errors.js';
import { DocumentStoreUnavailableError, type DocumentStore } from './document-store.js';
import type { S3DocumentStore } from './s3-document-store.js';
import type { ReferencedDocument } from './stored-documents.repository.js';

export type MigrationOutcome = 'copied' | 'already in S3' | 'failed';

export interface MigrationProgress {
  key: string;
  outcome: MigrationOutcome;
  /** Why it failed. */
  reason?: string;
  localDeleted: boolean;
  done: number;
  total: number;
}

export interface MigrationSummary {
  total: number;
  copied: number;
  alreadyInS3: number;
  failed: { key: string; reason: string }[];
  localDeleted: number;
}

export interface MigrationOptions {
  /** Remove each local copy once its S3 copy was read back with the right sha256. */
  deleteLocal?: boolean;
  onProgress?: (progress: MigrationProgress) => void;
  /**
   * A document's own bytes from what the store holds (decrypted, issue 24): the sha256 the database records is the
   * document's, the bytes copied are the stored ones. By default the stored bytes are the document.
   */
  plaintextOf?: (stored: Buffer) => Promise<Buffer>;
}

/** Thrown for a document that cannot be moved; the message is the line the operator reads. */
class MigrationFailure extends Error {}

const sha256Of = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** The local bytes, or null when the local store has nothing under the key. */
async function readLocal(store: DocumentStore, key: string): Promise<Buffer | null> {
  try {
    return await store.read(key);
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}

export async function migrateDocuments(
  documents: ReferencedDocument[],
  from: DocumentStore,
  to: S3DocumentStore,
  options: MigrationOptions = {},
): Promise<MigrationSummary> {
  const summary: MigrationSummary = { total: documents.length, copied: 0, alreadyInS3: 0, failed: [], localDeleted: 0 };
  for (const [index, document] of documents.entries()) {
    let outcome: MigrationOutcome;
    let reason: string | undefined;
    let localDeleted = false;
    try {
      ({ outcome, localDeleted } = await migrateOne(
        document,
        from,
        to,
        options.deleteLocal ?? false,
        options.plaintextOf ?? ((stored) => Promise.resolve(stored)),
      ));
    } catch (err) {
      outcome = 'failed';
      // What the bucket said, not the 503's words for a person at the console.
      reason =
        err instanceof DocumentStoreUnavailableError
          ? `the store failed: ${err.detail}`
          : err instanceof Error
            ? err.message
            : String(err);
    }
    if (outcome === 'copied') summary.copied += 1;
    if (outcome === 'already in S3') summary.alreadyInS3 += 1;
    if (outcome === 'failed') summary.failed.push({ key: document.key, reason: reason! });
    if (localDeleted) summary.localDeleted += 1;
    options.onProgress?.({
      key: document.key,
      outcome,
      ...(reason ? { reason } : {}),
      localDeleted,
      done: index + 1,
      total: documents.length,
    });
  }
  return summary;
}

async function migrateOne(
  document: ReferencedDocument,
  from: DocumentStore,
  to: S3DocumentStore,
  deleteLocal: boolean,
  plaintextOf: (stored: Buffer) => Promise<Buffer>,
): Promise<{ outcome: Exclude<MigrationOutcome, 'failed'>; localDeleted: boolean }> {
  const { key } = document;
  const local = await readLocal(from, key);
  const localSha256 = local && sha256Of(await plaintextOf(local));
  if (local && document.sha256 && localSha256 !== document.sha256) {
    throw new MigrationFailure(
      `the local copy is corrupted: its sha256 is ${localSha256}, the database recorded ${document.sha256}`,
    );
  }
  // The hash the S3 copy must have: the database's, else the local file's (signatures have none recorded).
  const expected = document.sha256 ?? localSha256;
  const present = await to.describe(key);
  // A resumed run trusts the sha256 recorded on an object that this migration (or the S3 store) wrote.
  const alreadyThere =
    present !== null &&
    present.sha256 !== undefined &&
    (expected ? present.sha256 === expected : true) &&
    (local ? present.size === local.length : true);
  if (!alreadyThere && !local) {
    throw new MigrationFailure(
      present ? 'missing locally, and the S3 copy has no matching sha256' : 'missing locally and not in S3',
    );
  }
  if (!alreadyThere) {
    // An encrypted document is copied as it is stored, with its own sha256 recorded beside it.
    await to.putAt(key, local!, expected ?? undefined);
  }
  // Read back whole after a copy, and before a local copy is deleted: the bytes, not the metadata, must match.
  if (!alreadyThere || (deleteLocal && local)) {
    const copied = sha256Of(await plaintextOf(await to.read(key)));
    if (copied !== expected) {
      throw new MigrationFailure(`the S3 copy reads back with sha256 ${copied}, expected ${expected}`);
    }
  }
  let localDeleted = false;
  if (deleteLocal && local) {
    await from.delete(key);
    localDeleted = true;
  }
  return { outcome: alreadyThere ? 'already in S3' : 'copied', localDeleted };
}
