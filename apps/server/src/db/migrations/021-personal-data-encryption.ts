// Personal data encrypted at rest (issue 24). data_keys holds the data keys, one per record kind, each wrapped by the
// master key (DATA_KEY) whose fingerprint is kept beside it; a rotation adds rows or re-wraps them, never deletes one
// still needed. An order's sensitive fields move into personal_sealed (a JSON object of per-field ciphertexts, the
// clear columns left NULL), with passport_number_hmac for exact passport-number search. Existing rows are encrypted
// by `npm run personal-data:encrypt`, not here: it needs the master key, which a migration does not have.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE data_keys (
      id serial PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('order', 'document', 'search')),
      wrapped bytea NOT NULL,
      master_fingerprint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      rewrapped_at timestamptz
    )`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN personal_sealed jsonb, ADD COLUMN passport_number_hmac bytea`.execute(db);
  // The staff search's exact passport-number lookup (orders.repository selectPassportMatches).
  await sql`CREATE INDEX orders_passport_hmac_idx ON orders (passport_number_hmac)
    WHERE passport_number_hmac IS NOT NULL`.execute(db);
}
