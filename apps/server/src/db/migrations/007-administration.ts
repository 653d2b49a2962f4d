// Administration and reports (issue 10).
// - "Processed by": who moved an order to Completed and when (orders.processed_by / processed_at), written by
//   the move itself (upload of the approved document, a Move-to button, a bulk move). Backfilled from the
//   audit trail for orders completed before this migration.
// - Report counters: a year at a million orders is ~700,000 paid orders, too many to aggregate per request
//   in 300 ms on a small machine, so two trigger-kept tables count them per UTC day (like order_counters in
//   002): paid orders per (day created, citizen country, processing type) and processed orders per (day
//   processed, staff member). A year is at most a few tens of thousands of counter rows.
// - Keyset indexes for the Activity page (audit trail newest first, filtered by person or action).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE orders ADD COLUMN processed_by integer REFERENCES staff (id)`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN processed_at timestamptz`.execute(db);
  await sql`ALTER TABLE orders ADD CONSTRAINT orders_processed_pair
    CHECK ((processed_by IS NULL) = (processed_at IS NULL))`.execute(db);

  // The last move into Completed of each order, as the audit trail recorded it.
  await sql`
    UPDATE orders o SET processed_by = a.actor_id, processed_at = a.at
      FROM (SELECT DISTINCT ON (order_id) order_id, actor_id, at
              FROM audit_log
             WHERE order_id IS NOT NULL AND actor_id IS NOT NULL
               AND (action = 'order.upload-document'
                    OR (action = 'order.change-status' AND after ->> 'process_status' = 'Completed'))
             ORDER BY order_id, at DESC, id DESC) a
     WHERE o.id = a.order_id`.execute(db);

  await sql`
    CREATE TABLE order_report_counts (
      day date NOT NULL,                    -- UTC date the order was created
      citizen_country text NOT NULL,        -- '' when the application gave none
      processing_type text NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (day, citizen_country, processing_type)
    )`.execute(db);
  await sql`
    CREATE TABLE processed_report_counts (
      day date NOT NULL,                    -- UTC date the order was moved to Completed
      staff_id integer NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (day, staff_id)
    )`.execute(db);

  await sql`
    CREATE FUNCTION report_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.payment_status = NEW.payment_status AND OLD.created_at = NEW.created_at
         AND OLD.citizen_country IS NOT DISTINCT FROM NEW.citizen_country
         AND OLD.processing_type = NEW.processing_type
         AND OLD.processed_by IS NOT DISTINCT FROM NEW.processed_by
         AND OLD.processed_at IS NOT DISTINCT FROM NEW.processed_at THEN
        RETURN NULL;
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status = 'Success' THEN
        UPDATE order_report_counts SET n = n - 1
         WHERE day = (OLD.created_at AT TIME ZONE 'UTC')::date
           AND citizen_country = coalesce(OLD.citizen_country, '') AND processing_type = OLD.processing_type;
        IF OLD.processed_by IS NOT NULL THEN
          UPDATE processed_report_counts SET n = n - 1
           WHERE day = (OLD.processed_at AT TIME ZONE 'UTC')::date AND staff_id = OLD.processed_by;
        END IF;
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.payment_status = 'Success' THEN
        INSERT INTO order_report_counts AS c (day, citizen_country, processing_type, n)
        VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, coalesce(NEW.citizen_country, ''), NEW.processing_type, 1)
        ON CONFLICT (day, citizen_country, processing_type) DO UPDATE SET n = c.n + 1;
        IF NEW.processed_by IS NOT NULL THEN
          INSERT INTO processed_report_counts AS c (day, staff_id, n)
          VALUES ((NEW.processed_at AT TIME ZONE 'UTC')::date, NEW.processed_by, 1)
          ON CONFLICT (day, staff_id) DO UPDATE SET n = c.n + 1;
        END IF;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER orders_report_count AFTER INSERT OR UPDATE OR DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION report_counts_apply()`.execute(db);

  await sql`
    CREATE FUNCTION rebuild_report_counters() RETURNS void LANGUAGE sql AS $$
      DELETE FROM order_report_counts;
      INSERT INTO order_report_counts (day, citizen_country, processing_type, n)
      SELECT (created_at AT TIME ZONE 'UTC')::date, coalesce(citizen_country, ''), processing_type, count(*)
        FROM orders WHERE payment_status = 'Success'
       GROUP BY 1, 2, 3;
      DELETE FROM processed_report_counts;
      INSERT INTO processed_report_counts (day, staff_id, n)
      SELECT (processed_at AT TIME ZONE 'UTC')::date, processed_by, count(*)
        FROM orders WHERE payment_status = 'Success' AND processed_by IS NOT NULL
       GROUP BY 1, 2;
    $$`.execute(db);
  await sql`SELECT rebuild_report_counters()`.execute(db);

  // Activity page: newest first over keys (at, id), whole trail or one person's or one action's rows.
  await sql`CREATE INDEX audit_log_keyset_idx ON audit_log (at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, at DESC, id DESC)
    WHERE actor_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC, id DESC)`.execute(db);
  await sql`DROP INDEX audit_log_at_idx`.execute(db);
}
