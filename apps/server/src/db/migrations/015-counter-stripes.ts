// Counters without a hot row (issue 20's intake bench). Every new paid order adds 1 to the same order_counters
// row (New, Standard, unassigned) and to the same order_report_counts row (today, its country, its type), and a
// row lock is held until commit: at 8 connections the intake spent most of its time waiting on those two rows
// (pg_stat_activity: Lock/transactionid) and stalled at ~160 orders/s. Each counter now has stripes: a
// connection writes its own stripe (1 + its backend pid mod 16), so concurrent orders lock different rows; readers
// already sum n. fold_counter_stripes() (run every minute, plugins/housekeeping.ts) adds the stripes into stripe 0
// and drops the rows that are 0, so the tables stay at a few hundred rows. A connection always uses one stripe per
// counter, so lock order between transactions is what it was.
import { sql, type Kysely } from 'kysely';

const STRIPE = sql.raw(`(1 + pg_backend_pid() % 16)::smallint`);

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['order_counters', 'order_report_counts']) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN stripe smallint NOT NULL DEFAULT 0`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.id(`${table}_pkey`)}`.execute(db);
  }
  await sql`ALTER TABLE order_counters ADD PRIMARY KEY
    (process_status, processing_type, assign_to, processing_date, stripe)`.execute(db);
  await sql`ALTER TABLE order_report_counts ADD PRIMARY KEY (day, citizen_country, processing_type, stripe)`.execute(
    db,
  );

  await sql`
    CREATE OR REPLACE FUNCTION order_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.payment_status = NEW.payment_status
         AND OLD.process_status = NEW.process_status AND OLD.processing_type = NEW.processing_type
         AND OLD.assign_to IS NOT DISTINCT FROM NEW.assign_to
         AND OLD.processing_date IS NOT DISTINCT FROM NEW.processing_date THEN
        RETURN NULL;
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status = 'Success' THEN
        INSERT INTO order_counters AS c (process_status, processing_type, assign_to, processing_date, stripe, n)
        VALUES (OLD.process_status, OLD.processing_type, coalesce(OLD.assign_to, 0),
                CASE WHEN OLD.processing_type = 'Future' AND OLD.process_status = 'New' THEN OLD.processing_date ELSE '-infinity'::date END,
                ${STRIPE}, -1)
        ON CONFLICT (process_status, processing_type, assign_to, processing_date, stripe) DO UPDATE SET n = c.n - 1;
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.payment_status = 'Success' THEN
        INSERT INTO order_counters AS c (process_status, processing_type, assign_to, processing_date, stripe, n)
        VALUES (NEW.process_status, NEW.processing_type, coalesce(NEW.assign_to, 0),
                CASE WHEN NEW.processing_type = 'Future' AND NEW.process_status = 'New' THEN NEW.processing_date ELSE '-infinity'::date END,
                ${STRIPE}, 1)
        ON CONFLICT (process_status, processing_type, assign_to, processing_date, stripe) DO UPDATE SET n = c.n + 1;
      END IF;
      RETURN NULL;
    END $$`.execute(db);

  await sql`
    CREATE OR REPLACE FUNCTION report_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.payment_status = NEW.payment_status AND OLD.created_at = NEW.created_at
         AND OLD.citizen_country IS NOT DISTINCT FROM NEW.citizen_country
         AND OLD.processing_type = NEW.processing_type
         AND OLD.processed_by IS NOT DISTINCT FROM NEW.processed_by
         AND OLD.processed_at IS NOT DISTINCT FROM NEW.processed_at THEN
        RETURN NULL;
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status = 'Success' THEN
        INSERT INTO order_report_counts AS c (day, citizen_country, processing_type, stripe, n)
        VALUES ((OLD.created_at AT TIME ZONE 'UTC')::date, coalesce(OLD.citizen_country, ''), OLD.processing_type,
                ${STRIPE}, -1)
        ON CONFLICT (day, citizen_country, processing_type, stripe) DO UPDATE SET n = c.n - 1;
        IF OLD.processed_by IS NOT NULL THEN
          UPDATE processed_report_counts SET n = n - 1
           WHERE day = (OLD.processed_at AT TIME ZONE 'UTC')::date AND staff_id = OLD.processed_by;
        END IF;
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.payment_status = 'Success' THEN
        INSERT INTO order_report_counts AS c (day, citizen_country, processing_type, stripe, n)
        VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, coalesce(NEW.citizen_country, ''), NEW.processing_type,
                ${STRIPE}, 1)
        ON CONFLICT (day, citizen_country, processing_type, stripe) DO UPDATE SET n = c.n + 1;
        IF NEW.processed_by IS NOT NULL THEN
          INSERT INTO processed_report_counts AS c (day, staff_id, n)
          VALUES ((NEW.processed_at AT TIME ZONE 'UTC')::date, NEW.processed_by, 1)
          ON CONFLICT (day, staff_id) DO UPDATE SET n = c.n + 1;
        END IF;
      END IF;
      RETURN NULL;
    END $$`.execute(db);

  // Stripes that no transaction holds (SKIP LOCKED) move into stripe 0; one fold at a time (advisory lock), so two
  // processes' folds never wait on each other's stripe-0 rows.
  await sql`
    CREATE FUNCTION fold_counter_stripes() RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT pg_try_advisory_xact_lock(1163150662) THEN
        RETURN;
      END IF;
      WITH moved AS (
        DELETE FROM order_counters c
         USING (SELECT ctid FROM order_counters WHERE stripe <> 0 FOR UPDATE SKIP LOCKED) s
         WHERE c.ctid = s.ctid
        RETURNING c.process_status, c.processing_type, c.assign_to, c.processing_date, c.n)
      INSERT INTO order_counters AS c (process_status, processing_type, assign_to, processing_date, stripe, n)
      SELECT process_status, processing_type, assign_to, processing_date, 0, sum(n) FROM moved GROUP BY 1, 2, 3, 4
      ON CONFLICT (process_status, processing_type, assign_to, processing_date, stripe)
        DO UPDATE SET n = c.n + excluded.n;
      DELETE FROM order_counters WHERE stripe = 0 AND n = 0;
      WITH moved AS (
        DELETE FROM order_report_counts c
         USING (SELECT ctid FROM order_report_counts WHERE stripe <> 0 FOR UPDATE SKIP LOCKED) s
         WHERE c.ctid = s.ctid
        RETURNING c.day, c.citizen_country, c.processing_type, c.n)
      INSERT INTO order_report_counts AS c (day, citizen_country, processing_type, stripe, n)
      SELECT day, citizen_country, processing_type, 0, sum(n) FROM moved GROUP BY 1, 2, 3
      ON CONFLICT (day, citizen_country, processing_type, stripe) DO UPDATE SET n = c.n + excluded.n;
      DELETE FROM order_report_counts WHERE stripe = 0 AND n = 0;
    END $$`.execute(db);
}
