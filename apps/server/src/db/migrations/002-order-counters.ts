// Folder counts at a million orders: counting rows per request is far too slow (tens of ms each), so a
// trigger keeps one counter per (status, type, assignee, processing date) of paid orders and the
// folder-count query sums this small table. The processing date is part of the key only for New Future
// orders (the one place where "today" decides the queue), so the table stays at a few hundred rows.
// rebuild_order_counters() recomputes it after bulk loads.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE order_counters (
      process_status text NOT NULL,
      processing_type text NOT NULL,
      assign_to integer NOT NULL,           -- 0 = unassigned
      processing_date date NOT NULL,        -- '-infinity' unless the order is a New Future order
      n bigint NOT NULL,
      PRIMARY KEY (process_status, processing_type, assign_to, processing_date)
    )`.execute(db);

  await sql`
    CREATE FUNCTION order_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.payment_status = NEW.payment_status
         AND OLD.process_status = NEW.process_status AND OLD.processing_type = NEW.processing_type
         AND OLD.assign_to IS NOT DISTINCT FROM NEW.assign_to
         AND OLD.processing_date IS NOT DISTINCT FROM NEW.processing_date THEN
        RETURN NULL;
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status = 'Success' THEN
        UPDATE order_counters SET n = n - 1
         WHERE process_status = OLD.process_status AND processing_type = OLD.processing_type
           AND assign_to = coalesce(OLD.assign_to, 0)
           AND processing_date = CASE WHEN OLD.processing_type = 'Future' AND OLD.process_status = 'New' THEN OLD.processing_date ELSE '-infinity'::date END;
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.payment_status = 'Success' THEN
        INSERT INTO order_counters AS c (process_status, processing_type, assign_to, processing_date, n)
        VALUES (NEW.process_status, NEW.processing_type, coalesce(NEW.assign_to, 0),
                CASE WHEN NEW.processing_type = 'Future' AND NEW.process_status = 'New' THEN NEW.processing_date ELSE '-infinity'::date END, 1)
        ON CONFLICT (process_status, processing_type, assign_to, processing_date) DO UPDATE SET n = c.n + 1;
      END IF;
      RETURN NULL;
    END $$`.execute(db);

  await sql`CREATE TRIGGER orders_count AFTER INSERT OR UPDATE OR DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION order_counters_apply()`.execute(db);

  await sql`
    CREATE FUNCTION rebuild_order_counters() RETURNS void LANGUAGE sql AS $$
      DELETE FROM order_counters;
      INSERT INTO order_counters (process_status, processing_type, assign_to, processing_date, n)
      SELECT process_status, processing_type, coalesce(assign_to, 0),
             CASE WHEN processing_type = 'Future' AND process_status = 'New' THEN processing_date ELSE '-infinity'::date END, count(*)
        FROM orders WHERE payment_status = 'Success'
       GROUP BY 1, 2, 3, 4;
    $$`.execute(db);
}
