// Which document an order delivers: its latest upload. Read by the upload (modules/documents), Resend
// (modules/mail) and the portal's download (modules/portal), so it lives here, where all three may import it.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

export interface CurrentDocument {
  id: number;
  order_key: number;
  storage_key: string;
  original_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_at: Date;
  /** The approval's own facts, as the desk read them at upload (issue 35); null when not found. */
  application_number: string | null;
  expires_on: string | null;
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
      'documents.application_number',
      'documents.expires_on',
    ])
    .where('orders.order_id', '=', orderId)
    .orderBy('documents.created_at', 'desc')
    .orderBy('documents.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { ...row, id: Number(row.id), order_key: Number(row.order_key) };
}
