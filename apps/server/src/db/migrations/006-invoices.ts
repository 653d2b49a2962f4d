// Invoices (spec §2 "Send Invoice"): one per order, numbered INV-<year>-<number> without gaps within a year.
// The number comes from a counter row per year taken inside the invoice's own transaction, not from a
// sequence: a sequence skips the numbers of transactions that roll back, and an invoice series with holes
// has to be explained to an accountant. The counter row is held until commit, so invoices are numbered one
// at a time (a few a minute at most).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE invoice_counters (
      year smallint PRIMARY KEY CHECK (year BETWEEN 2000 AND 9999),
      last_number integer NOT NULL CHECK (last_number > 0)
    )`.execute(db);
  await sql`
    CREATE TABLE invoices (
      id bigserial PRIMARY KEY,
      invoice_number text NOT NULL UNIQUE CHECK (invoice_number ~ '^INV-[0-9]{4}-[0-9]{6,}$'),
      -- One invoice per order: sending it again mails the same invoice. No cascade: invoices are kept.
      order_id bigint NOT NULL UNIQUE REFERENCES orders (id),
      amount_cents integer NOT NULL CHECK (amount_cents >= 0),
      currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
      -- The PDF as issued, in the document store.
      storage_key text NOT NULL UNIQUE,
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      created_by integer REFERENCES staff (id),
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}
