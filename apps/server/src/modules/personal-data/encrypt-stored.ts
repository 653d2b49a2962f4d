// `npm run personal-data:encrypt` (issue 24): what was stored in clear before encryption is encrypted in place.
// Orders go in batches by id, each one transaction: read and locked, sealed, written with the clear columns NULL,
// and what the database then holds decrypted and compared before the batch commits; a run that is killed loses at
// most its open batch, and the next run starts again from the first order still in clear. Documents are replaced
// under the same key by an encrypted copy (written to a temporary name and renamed, or one S3 PUT) only once that
// copy decrypts to the same sha256; files already encrypted are skipped.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { decryptDocument, encryptDocument, isEncryptedDocument } from '../../lib/crypto/document-cipher.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { AppError } from '../../lib/errors.js';
import type { DocumentStore, StoredDocument } from '../../lib/storage/document-store.js';
import { OrderFieldsCipher, type SensitiveValues } from './order-fields.js';
import { SENSITIVE_ORDER_FIELDS } from './personal-fields.js';
import {
  lockClearOrders,
  selectPersonalDocumentKeys,
  storeSealedOrders,
  vacuumOrders,
} from './personal-data.repository.js';

/** A value that did not read back as it was written: the batch is rolled back and the run stops. */
export class VerificationError extends Error {}

export interface OrdersProgress {
  encrypted: number;
  lastId: number;
}

/** Encrypts every order still holding a sensitive field in clear, then vacuums the table it rewrote; answers how many. */
export async function encryptStoredOrders(
  db: Kysely<DB>,
  keyring: Keyring,
  options: { batchSize?: number; onBatch?: (progress: OrdersProgress) => void; signal?: AbortSignal } = {},
): Promise<number> {
  const fields = new OrderFieldsCipher(keyring);
  const batchSize = options.batchSize ?? 500;
  let encrypted = 0;
  let lastId = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const done = await db.transaction().execute(async (trx) => {
      const rows = await lockClearOrders(trx, lastId, batchSize);
      if (rows.length === 0) return 0;
      const stored = await storeSealedOrders(
        trx,
        rows.map((row) => ({ id: row.id, ...fields.seal(row.order_id, row) })),
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const back of stored) {
        const clear = byId.get(back.id)!;
        const opened = await fields.open(back.order_id, back.personal_sealed);
        for (const field of SENSITIVE_ORDER_FIELDS) {
          // A field that was not in clear may be one the row already held sealed (kept as it was).
          if (clear[field] === null || clear[field] === undefined || clear[field] === '') continue;
          if (!sameValue(clear[field], opened[field])) {
            throw new VerificationError(`order ${back.order_id}: ${field} does not read back as it was`);
          }
        }
      }
      if (stored.length !== rows.length) throw new VerificationError('an order of the batch was not written');
      lastId = rows.at(-1)!.id;
      return rows.length;
    });
    if (done === 0) {
      if (encrypted > 0) await vacuumOrders(db);
      return encrypted;
    }
    encrypted += done;
    options.onBatch?.({ encrypted, lastId });
  }
}

const sameValue = (clear: SensitiveValues[keyof SensitiveValues], opened: SensitiveValues[keyof SensitiveValues]) =>
  (clear === null || clear === undefined || clear === '' ? undefined : String(clear)) ===
  (opened === undefined ? undefined : String(opened));

/** A store that can write under a key it already holds (local directory and S3 both can). */
export type ReplaceableStore = DocumentStore & {
  putAt(key: string, content: Buffer, documentSha256?: string): Promise<StoredDocument>;
};

export interface DocumentsSummary {
  encrypted: number;
  alreadyEncrypted: number;
  /** Keys the database names that the store does not hold (erased, or lost): nothing to encrypt. */
  missing: string[];
}

const sha256Of = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** Encrypts every approved document and signature the store holds in clear (`store` is the plain, inner store). */
export async function encryptStoredDocuments(
  db: Kysely<DB>,
  keyring: Keyring,
  store: ReplaceableStore,
  onDocument?: (key: string, outcome: 'encrypted' | 'already encrypted' | 'missing') => void,
): Promise<DocumentsSummary> {
  const summary: DocumentsSummary = { encrypted: 0, alreadyEncrypted: 0, missing: [] };
  for (const { key, sha256 } of await selectPersonalDocumentKeys(db)) {
    let stored: Buffer;
    try {
      stored = await store.read(key);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      summary.missing.push(key);
      onDocument?.(key, 'missing');
      continue;
    }
    if (isEncryptedDocument(stored)) {
      summary.alreadyEncrypted += 1;
      onDocument?.(key, 'already encrypted');
      continue;
    }
    const expected = sha256 ?? sha256Of(stored);
    if (sha256Of(stored) !== expected) {
      throw new VerificationError(`document ${key}: its sha256 is not the one recorded; left as it is`);
    }
    const encrypted = encryptDocument(keyring, stored);
    if (sha256Of(await decryptDocument(keyring, encrypted)) !== expected) {
      throw new VerificationError(`document ${key}: the encrypted copy does not decrypt to it; left as it is`);
    }
    await store.putAt(key, encrypted, expected);
    if (sha256Of(await decryptDocument(keyring, await store.read(key))) !== expected) {
      throw new VerificationError(`document ${key}: the stored encrypted copy does not read back`);
    }
    summary.encrypted += 1;
    onDocument?.(key, 'encrypted');
  }
  return summary;
}
