// Retention, legal hold and erasure (issue 24). A landing site keeps an order's personal data for
// personal_data_retention_months after the travel date (orders.travel_to_canada_year), or after the order date when
// no travel date is known; then the daily job erases it (modules/retention). An Admin's legal hold keeps an order out
// of every erasure until released. retention_runs records each run's progress, so a killed run is continued from the
// last order it reached; retention_file_deletions holds the files an erasure freed until the store has deleted them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE landing_sites
      ADD COLUMN personal_data_retention_months smallint NOT NULL DEFAULT 24
        CHECK (personal_data_retention_months BETWEEN 1 AND 240)`.execute(db);
  await sql`ALTER TABLE orders
      ADD COLUMN erased_at timestamptz,
      ADD COLUMN legal_hold_at timestamptz,
      ADD COLUMN legal_hold_by integer REFERENCES staff (id),
      ADD COLUMN legal_hold_by_name text,
      ADD COLUMN legal_hold_reason text,
      ADD CONSTRAINT orders_legal_hold_check CHECK ((legal_hold_at IS NULL) = (legal_hold_reason IS NULL))`.execute(db);
  // An erasure asks whether a freed signature is still named by another order: demo orders share one.
  await sql`CREATE INDEX orders_customer_sign_idx ON orders (customer_sign) WHERE customer_sign IS NOT NULL`.execute(
    db,
  );
  // A document row stays as the record of what was delivered (size, sha256, when, by whom); its file is gone.
  await sql`ALTER TABLE documents ADD COLUMN file_erased_at timestamptz`.execute(db);
  await sql`
    CREATE TABLE retention_runs (
      id bigserial PRIMARY KEY,
      dry_run boolean NOT NULL,
      trigger text NOT NULL CHECK (trigger IN ('daily', 'manual')),
      started_by integer REFERENCES staff (id),
      started_by_name text,
      started_at timestamptz NOT NULL DEFAULT now(),
      -- The moment the run judges "past the date" against: a resumed run keeps it.
      cutoff_at timestamptz NOT NULL,
      heartbeat_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'finished', 'failed')),
      last_order_key bigint NOT NULL DEFAULT 0,
      erased integer NOT NULL DEFAULT 0,
      skipped integer NOT NULL DEFAULT 0,
      files_deleted integer NOT NULL DEFAULT 0,
      file_failures integer NOT NULL DEFAULT 0,
      resumed integer NOT NULL DEFAULT 0,
      report jsonb,
      error text
    )`.execute(db);
  // At most one erasing run at a time across every server: the second insert fails on this key.
  await sql`CREATE UNIQUE INDEX retention_runs_one_running ON retention_runs ((true))
      WHERE state = 'running' AND NOT dry_run`.execute(db);
  await sql`CREATE INDEX retention_runs_started_idx ON retention_runs (started_at DESC, id DESC)`.execute(db);
  await sql`
    CREATE TABLE retention_file_deletions (
      storage_key text PRIMARY KEY,
      queued_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      last_error text
    )`.execute(db);
}
