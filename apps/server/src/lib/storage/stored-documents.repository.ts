// Every document key the database names, with the sha256 recorded beside it where there is one: what
// `npm run documents:migrate` must find in the new store. Read once, by the migration only.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export interface ReferencedDocument {
  key: string;
  /** The hash recorded when it was stored; null for signatures and mail attachments (none is kept for them). */
  sha256: string | null;
}

/**
 * Approved documents and invoices (with their sha256), signatures (orders.customer_sign), mail attachments and the
 * landing sites' uploaded logos (with theirs), each key once. Full scans, fine for a one-off copy; demo orders all
 * share one signature, hence DISTINCT.
 */
export async function selectReferencedDocuments(db: Kysely<DB>): Promise<ReferencedDocument[]> {
  const [documents, invoices, logos, signatures, attachments] = await Promise.all([
    db.selectFrom('documents').select(['storage_key as key', 'sha256']).orderBy('id').execute(),
    db.selectFrom('invoices').select(['storage_key as key', 'sha256']).orderBy('id').execute(),
    db
      .selectFrom('landing_sites')
      .select(['logo_key as key', 'logo_sha256 as sha256'])
      .where('logo_key', 'is not', null)
      .orderBy('key')
      .execute(),
    db
      .selectFrom('orders')
      .select('customer_sign as key')
      .distinct()
      .where('customer_sign', 'is not', null)
      .orderBy('customer_sign')
      .execute(),
    db
      .selectFrom('mails')
      .select('attachments')
      .where(sql<boolean>`jsonb_array_length(attachments) > 0`)
      .orderBy('id')
      .execute(),
  ]);
  const byKey = new Map<string, ReferencedDocument>();
  const add = (key: string, sha256: string | null) => {
    const known = byKey.get(key);
    if (!known) byKey.set(key, { key, sha256 });
    else if (!known.sha256) known.sha256 = sha256;
  };
  for (const d of [...documents, ...invoices]) add(d.key, d.sha256);
  for (const l of logos) add(l.key!, l.sha256);
  for (const s of signatures) add(s.key!, null);
  for (const m of attachments) for (const a of m.attachments) add(a.storageKey, null);
  return [...byKey.values()];
}
