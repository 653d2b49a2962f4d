// New in one walk (issue 31). The New queue is Standard orders and the Future orders whose processing date has come,
// and "has come" moves with the day, which a partial index cannot say. So New was two walks (009): Standard orders on
// their own index, and every due Future order from orders_future_idx (in order of processing date), sorted by purchase
// at each page: 22,912 of them at ten million orders, read by every deep page (a New page 1000 cost four times another
// queue's). A search in New walked a third index (011) holding every New Future order, and stepped over the Future
// orders not yet due that lie among the newest (39,272 at a million orders, one heap read each): "gmai" in New behind
// a burst of new orders cost 17 ms of SQL against 2 ms in any other queue, 56 ms at ten million.
//
// A Future order is now marked once its processing date has come (`future_due`): on insert or when its date or type
// changes (a trigger), and by housekeeping every minute for the orders whose date came since (mark_due_future_orders,
// a range of orders_future_unmarked_idx). New is then one index, orders_new_idx (Standard and
// marked Future orders), plus the due orders not marked yet: one day's at most while housekeeping runs, and correct
// whatever it has done, because the queue's definition does not read the mark. The mark only ever follows the date:
// marked means due.
import { sql, type Kysely } from 'kysely';

const NEW_UNASSIGNED = sql.raw(`payment_status = 'Success' AND process_status = 'New' AND assign_to IS NULL`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE orders ADD COLUMN future_due boolean NOT NULL DEFAULT false`.execute(db);
  await sql`
    CREATE FUNCTION orders_future_due() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.future_due := NEW.processing_type = 'Future' AND NEW.processing_date IS NOT NULL
        AND NEW.processing_date <= current_date;
      RETURN NEW;
    END $$`.execute(db);
  // Only a Future order calls the function on insert (a bulk load of other orders pays nothing); any change of the
  // date or the type works the mark out again, so a date moved later unmarks the order.
  await sql`CREATE TRIGGER orders_future_due_insert BEFORE INSERT ON orders
    FOR EACH ROW WHEN (NEW.processing_type = 'Future') EXECUTE FUNCTION orders_future_due()`.execute(db);
  await sql`CREATE TRIGGER orders_future_due_update BEFORE UPDATE OF processing_date, processing_type ON orders
    FOR EACH ROW EXECUTE FUNCTION orders_future_due()`.execute(db);
  // Rows a writer holds are skipped (marked next time): marking never waits on a move nor holds one up.
  await sql`
    CREATE FUNCTION mark_due_future_orders() RETURNS integer LANGUAGE sql AS $$
      WITH due AS (
        SELECT id FROM orders
         WHERE ${NEW_UNASSIGNED} AND processing_type = 'Future' AND NOT future_due
           AND processing_date <= current_date
         FOR UPDATE SKIP LOCKED),
      marked AS (
        UPDATE orders SET future_due = true FROM due WHERE orders.id = due.id RETURNING 1)
      SELECT count(*)::int FROM marked
    $$`.execute(db);
  // The orders already stored: New's due Future orders are marked here (the mark matters only there).
  await sql`SELECT mark_due_future_orders()`.execute(db);

  await sql`CREATE INDEX orders_new_idx ON orders (created_at DESC, id DESC)
    WHERE ${NEW_UNASSIGNED} AND (processing_type = 'Standard' OR (processing_type = 'Future' AND future_due))`.execute(
    db,
  );
  await sql`DROP INDEX orders_new_standard_idx`.execute(db);
  await sql`DROP INDEX orders_new_queue_idx`.execute(db);
  // The due orders not marked yet, in order of processing date (with the Future queue's, which are never marked):
  // the range up to today is what housekeeping marks and what New reads besides orders_new_idx.
  await sql`CREATE INDEX orders_future_unmarked_idx ON orders (processing_date) INCLUDE (assign_to)
    WHERE payment_status = 'Success' AND process_status = 'New' AND processing_type = 'Future' AND NOT future_due`.execute(
    db,
  );
}
