// An order's search text is a stored column (`search_text`, generated from the order id, names, e-mail and telephone
// number, lower-cased) instead of an expression computed at every read. A search's walk of a queue's newest orders
// (orders.repository walkQueue) tests up to 10,000 of them with strpos, and building each one's text cost more than
// fetching the row: at a million orders the walk of 10,000 took 13.7 ms with the text built (its concatenation and
// lower()), 7.3 ms reading the column, ~5.5 ms of that the rows themselves ("risu" spent 10 ms of a search's SQL).
// The trigram indexes move onto the column, so their recheck of each candidate reads the text too and the search has
// one definition of its text. PostgreSQL keeps the column right on every insert and update (a name, an e-mail, an
// erasure), so no code writes it.
//
// Adding a stored column rewrites the table and rebuilds its indexes, under a lock that stops the desk for the time
// (1M orders: see docs/DEPLOY.md). The trigram indexes go first so the rewrite does not build them on the expression
// only for them to be built again on the column. The rewritten table is vacuumed once the migration has committed.
import { sql, type Kysely } from 'kysely';

export const vacuumAfter = ['orders'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX orders_search_idx`.execute(db);
  await sql`DROP INDEX orders_new_search_idx`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN search_text text NOT NULL GENERATED ALWAYS AS (lower(order_id || ' ' ||
      coalesce(passport_first_name, '') || ' ' || coalesce(passport_surname, '') || ' ' || email || ' ' ||
      coalesce(telephone_number, ''))) STORED`.execute(db);
  // As migrations 012, 019 and 035 made them, on the column.
  await sql`CREATE INDEX orders_search_idx ON orders USING gin (
      date_bin('7 days', created_at, '2000-01-03 00:00:00+00'), search_text gin_trgm_ops)
    WITH (gin_pending_list_limit = 256)`.execute(db);
  await sql`CREATE INDEX orders_new_search_idx ON orders USING gin (search_text gin_trgm_ops)
    WITH (gin_pending_list_limit = 256)
    WHERE payment_status = 'Success' AND process_status = 'New' AND assign_to IS NULL
      AND processing_type <> 'Priority'`.execute(db);
  // The statistics target migration 011 chose for the search text (it was the index expression's).
  await sql`ALTER TABLE orders ALTER COLUMN search_text SET STATISTICS 300`.execute(db);
}
