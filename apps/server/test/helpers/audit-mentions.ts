// Whether the append-only trails name a text anywhere (a customer's e-mail address, a hash of it): a raw read of each
// whole row as text, every column, so a field added later that carries the text is found too.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';

async function rowsMentioning(db: Kysely<DB>, table: 'audit_log' | 'access_records', text: string): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`
    SELECT count(*) AS n FROM ${sql.table(table)} AS r WHERE strpos(lower(r::text), lower(${text})) > 0`.execute(db);
  return Number(rows[0]!.n);
}

/** How many audit_log rows hold `text` (case-insensitive) in any column. */
export const auditRowsMentioning = (db: Kysely<DB>, text: string) => rowsMentioning(db, 'audit_log', text);

/** How many access_records rows hold `text` (case-insensitive) in any column. */
export const accessRecordsMentioning = (db: Kysely<DB>, text: string) => rowsMentioning(db, 'access_records', text);
