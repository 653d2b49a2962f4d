// All SQL of the data keys (migration 021): a handful of rows, read whole at start-up.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DataKeyKind } from '../../lib/crypto/keyring.js';
import type { DB } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Held while data keys are made or re-wrapped: two servers starting at once on an empty table make one set. */
const DATA_KEYS_LOCK = 0x45_54_41_4b; // 'ETAK'

export const lockDataKeys = (trx: Transaction<DB>) =>
  sql`SELECT pg_advisory_xact_lock(${sql.lit(DATA_KEYS_LOCK)})`.execute(trx);

export const selectDataKeys = (db: Db) =>
  db.selectFrom('data_keys').select(['id', 'kind', 'wrapped', 'master_fingerprint']).orderBy('id').execute();

/** The id the next data key gets: its wrapping is bound to it, so it is known before the row is written. */
export async function nextDataKeyId(db: Db): Promise<number> {
  const { rows } = await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence('data_keys', 'id')) AS id`.execute(
    db,
  );
  return Number(rows[0]!.id);
}

export const insertDataKey = (db: Db, row: { id: number; kind: DataKeyKind; wrapped: Buffer; fingerprint: string }) =>
  db
    .insertInto('data_keys')
    .values({ id: row.id, kind: row.kind, wrapped: row.wrapped, master_fingerprint: row.fingerprint })
    .execute();

export const updateWrappedKey = (db: Db, id: number, wrapped: Buffer, fingerprint: string) =>
  db
    .updateTable('data_keys')
    .set({ wrapped, master_fingerprint: fingerprint, rewrapped_at: new Date() })
    .where('id', '=', id)
    .execute();
