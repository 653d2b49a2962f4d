// All SQL of the customer portal: the order a customer tracks and the download log (read for the history,
// written in the same step as a download). The current approved document is the documents module's.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Index: orders_order_id_key (unique). */
export const findTrackedOrder = (db: Db, orderId: string) =>
  db
    .selectFrom('orders')
    .select([
      'id',
      'order_id',
      'email',
      'landing_site',
      'payment_status',
      'process_status',
      'passport_first_name',
      'passport_surname',
    ])
    .where('order_id', '=', orderId)
    .executeTakeFirst();
export type TrackedOrderRow = NonNullable<Awaited<ReturnType<typeof findTrackedOrder>>>;

/** Newest first. Index: downloads_order_idx. */
export const selectDownloads = (db: Db, orderKey: number) =>
  db
    .selectFrom('downloads')
    .select(['created_at', 'ip', 'device', 'device_type', 'browser', 'os', 'location', 'timezone'])
    .where('order_id', '=', orderKey)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

export interface NewDownload {
  orderKey: number;
  documentId: number;
  ip: string;
  userAgent: string | null;
  browser: string;
  os: string;
  device: string;
  deviceType: string;
  location: string;
  timezone: string | null;
}

export const insertDownload = (trx: Transaction<DB>, d: NewDownload) =>
  trx
    .insertInto('downloads')
    .values({
      order_id: d.orderKey,
      document_id: d.documentId,
      ip: d.ip,
      user_agent: d.userAgent,
      browser: d.browser,
      os: d.os,
      device: d.device,
      device_type: d.deviceType,
      location: d.location,
      timezone: d.timezone,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
