// All SQL of the upload: the order's lock, the document row, the order set Completed, and the signature's key.
// The order's current document is read in lib/delivery, shared with Resend and the portal.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ProcessStatus } from '@eta/contracts';
import type { DB } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

export interface UploadTarget {
  id: number;
  order_id: string;
  process_status: ProcessStatus;
  payment_status: string;
  version: number;
  erased_at: Date | null;
}

const uploadTarget = (db: Db, orderId: string) =>
  db
    .selectFrom('orders')
    .select(['id', 'order_id', 'process_status', 'payment_status', 'version', 'erased_at'])
    .where('order_id', '=', orderId);

/** The order the document is for, as it is now: checked before the file is stored. Index: orders.order_id. */
export async function selectUploadTarget(db: Db, orderId: string): Promise<UploadTarget | undefined> {
  const row = await uploadTarget(db, orderId).executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}

/** Locks the order the document is for (FOR UPDATE): the upload and a concurrent move cannot interleave. */
export async function lockUploadTarget(trx: Transaction<DB>, orderId: string): Promise<UploadTarget | undefined> {
  const row = await uploadTarget(trx, orderId).forUpdate().executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}

/** Who the order's traveller is, and the e-mail the order was placed with: what an approval is checked against. */
export const selectTraveller = (db: Db, orderId: string) =>
  db
    .selectFrom('orders')
    .select([
      'email',
      'surname',
      'first_name',
      'passport_surname',
      'passport_first_name',
      'passport_number',
      'personal_sealed',
    ])
    .where('order_id', '=', orderId)
    .executeTakeFirst();

export interface NewDocument {
  orderKey: number;
  storageKey: string;
  originalName: string;
  contentType: string;
  size: number;
  sha256: string;
  uploadedBy: number;
  /** What the desk read in it (issue 35). */
  facts: { applicationNumber: string | null; approvedOn: string | null; expiresOn: string | null };
  reading: object;
}

export async function insertDocument(trx: Transaction<DB>, d: NewDocument): Promise<{ id: number; created_at: Date }> {
  const row = await trx
    .insertInto('documents')
    .values({
      order_id: d.orderKey,
      storage_key: d.storageKey,
      original_name: d.originalName,
      content_type: d.contentType,
      size_bytes: d.size,
      sha256: d.sha256,
      uploaded_by: d.uploadedBy,
      application_number: d.facts.applicationNumber,
      approved_on: d.facts.approvedOn,
      expires_on: d.facts.expiresOn,
      reading: JSON.stringify(d.reading),
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), created_at: row.created_at };
}

/**
 * The order is delivered: status Completed and a new version (whatever it was, so stale copies are caught).
 * The uploader is recorded as the one who processed it when this upload moves it into Completed; a new
 * document for an order already Completed keeps the person who completed it.
 */
export async function markOrderCompleted(trx: Transaction<DB>, orderKey: number, staffId: number): Promise<number> {
  const keeps = sql<boolean>`process_status = 'Completed' AND processed_by IS NOT NULL`;
  const row = await trx
    .updateTable('orders')
    .set({
      process_status: 'Completed',
      processed_by: sql<number>`CASE WHEN ${keeps} THEN processed_by ELSE ${staffId}::int END`,
      processed_at: sql<Date>`CASE WHEN ${keeps} THEN processed_at ELSE now() END`,
      updated_at: new Date(),
      version: sql<number>`version + 1`,
    })
    .where('id', '=', orderKey)
    .returning('version')
    .executeTakeFirstOrThrow();
  return row.version;
}

/** The storage key of the order's signature image (orders.customer_sign). Index: orders.order_id (unique). */
export async function selectSignatureKey(
  db: Db,
  orderId: string,
): Promise<{ customer_sign: string | null } | undefined> {
  return db.selectFrom('orders').select('customer_sign').where('order_id', '=', orderId).executeTakeFirst();
}
