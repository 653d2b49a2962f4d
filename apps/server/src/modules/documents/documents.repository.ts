// All SQL of the approved documents: the upload's order lock and rows, and the order's current document.
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
}

/** Locks the order the document is for (FOR UPDATE): the upload and a concurrent move cannot interleave. */
export async function lockUploadTarget(trx: Transaction<DB>, orderId: string): Promise<UploadTarget | undefined> {
  const row = await trx
    .selectFrom('orders')
    .select(['id', 'order_id', 'process_status', 'payment_status', 'version'])
    .where('order_id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}

export interface NewDocument {
  orderKey: number;
  storageKey: string;
  originalName: string;
  contentType: string;
  size: number;
  sha256: string;
  uploadedBy: number;
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

export interface CurrentDocument {
  id: number;
  order_key: number;
  storage_key: string;
  original_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_at: Date;
}

/** The order's approved document: its latest upload. Index: documents_order_idx (order_id, created_at DESC). */
export async function selectCurrentDocument(db: Db, orderId: string): Promise<CurrentDocument | undefined> {
  const row = await db
    .selectFrom('documents')
    .innerJoin('orders', 'orders.id', 'documents.order_id')
    .select([
      'documents.id',
      'documents.order_id as order_key',
      'documents.storage_key',
      'documents.original_name',
      'documents.content_type',
      'documents.size_bytes',
      'documents.sha256',
      'documents.created_at',
    ])
    .where('orders.order_id', '=', orderId)
    .orderBy('documents.created_at', 'desc')
    .orderBy('documents.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { ...row, id: Number(row.id), order_key: Number(row.order_key) };
}

/** The storage key of the order's signature image (orders.customer_sign). Index: orders.order_id (unique). */
export async function selectSignatureKey(
  db: Db,
  orderId: string,
): Promise<{ customer_sign: string | null } | undefined> {
  return db.selectFrom('orders').select('customer_sign').where('order_id', '=', orderId).executeTakeFirst();
}
