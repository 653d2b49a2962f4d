// Reads of personal data on the record (issue 24), kept apart from the write audit (audit_log): who (the member and
// their name at the time), what (the order, the kind of read and a short detail), when, and from where (address and
// browser). Written in batches by modules/access-records/access-record-writer.ts; append-only like audit_log.
// access_alerts holds the unusual reading patterns found at those writes, until an Admin acknowledges them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE access_records (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL,
      staff_id integer NOT NULL REFERENCES staff (id),
      staff_name text NOT NULL,
      order_id bigint REFERENCES orders (id),
      kind text NOT NULL CHECK (kind IN ('detail', 'defence-pack', 'document', 'export')),
      detail text,
      ip text NOT NULL,
      user_agent text,
      browser text NOT NULL,
      os text NOT NULL,
      device text NOT NULL,
      device_type text NOT NULL
    )`.execute(db);
  // An order's "Viewed by", newest first.
  await sql`CREATE INDEX access_records_order_idx ON access_records (order_id, at DESC, id DESC)
    WHERE order_id IS NOT NULL`.execute(db);
  // A member's reads (the Activity filter) and the unusual-reading check (their last hour).
  await sql`CREATE INDEX access_records_staff_idx ON access_records (staff_id, at DESC, id DESC)`.execute(db);
  // Every read newest first (the Activity page unfiltered, or by dates) and one kind of read.
  await sql`CREATE INDEX access_records_keyset_idx ON access_records (at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX access_records_kind_idx ON access_records (kind, at DESC, id DESC)`.execute(db);
  await sql`
    CREATE FUNCTION access_records_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'access_records is append-only';
    END $$`.execute(db);
  await sql`CREATE TRIGGER access_records_no_update BEFORE UPDATE OR DELETE ON access_records
    FOR EACH ROW EXECUTE FUNCTION access_records_immutable()`.execute(db);

  await sql`
    CREATE TABLE access_alerts (
      id bigserial PRIMARY KEY,
      staff_id integer NOT NULL REFERENCES staff (id),
      staff_name text NOT NULL,
      window_start timestamptz NOT NULL,
      window_end timestamptz NOT NULL,
      order_count integer NOT NULL,
      raised_at timestamptz NOT NULL DEFAULT now(),
      acknowledged_at timestamptz,
      acknowledged_by_id integer REFERENCES staff (id),
      acknowledged_by_name text
    )`.execute(db);
  // "Raised once per member per window": the check looks for the member's latest alert.
  await sql`CREATE INDEX access_alerts_staff_idx ON access_alerts (staff_id, window_end DESC)`.execute(db);
}
