// A search within New whose fragment is neither rare nor dense ("oliver": 1 % of New) found its matches through a
// BitmapAnd of every order's trigram matches (orders_search_idx: 10,544 for "oliver", 3.0-3.4 ms) and the whole New
// queue (orders_new_standard_idx and orders_future_idx: 23,600 entries, 1.5 ms), then rechecked them (0.6 ms):
// 5.8 ms of its 6.6 ms of SQL, p95 62 ms at 8 connections (issue 22). The trigrams of New's own orders (the rows of
// orders_new_queue_idx) give the ~650 candidates at once: 1.6-1.7 ms. Only an order that enters New or changes while
// in New writes to it (intake: one GIN insert, taken by the pending list).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX orders_new_search_idx ON orders USING gin (
      (lower(order_id || ' ' || coalesce(passport_first_name, '') || ' ' || coalesce(passport_surname, '') || ' ' ||
        email || ' ' || coalesce(telephone_number, ''))) gin_trgm_ops)
    WHERE payment_status = 'Success' AND process_status = 'New' AND assign_to IS NULL
      AND processing_type <> 'Priority'`.execute(db);
}
