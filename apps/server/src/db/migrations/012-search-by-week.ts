// The search index keys each order by the week it was bought as well as by its trigrams, so a search can read its
// matches newest first a week at a time and stop once it has its page and its capped count (orders.repository
// walkSearchByWeek). A trigram index alone yields matches in table order: the 1,000 newest "oliver" among 10,544
// meant either rechecking them all or walking ~100,000 rows of the queue (page 20: 63-90 ms of SQL); by week it is
// two or three weeks' matches (~5 ms). The same index serves a search by trigrams alone, so it replaces
// orders_search_trgm_idx. btree_gin gives GIN its timestamptz keys; date_bin is immutable and cheap (a numeric
// epoch division cost ~1 µs a row in the recheck).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gin`.execute(db);
  await sql`CREATE INDEX orders_search_idx ON orders USING gin (
      date_bin('7 days', created_at, '2000-01-03 00:00:00+00'),
      (lower(order_id || ' ' || coalesce(passport_first_name, '') || ' ' || coalesce(passport_surname, '') || ' ' ||
        email || ' ' || coalesce(telephone_number, ''))) gin_trgm_ops)`.execute(db);
  // The target migration 011 set on the index this one replaces (see there).
  await sql`ALTER INDEX orders_search_idx ALTER COLUMN 2 SET STATISTICS 300`.execute(db);
  await sql`DROP INDEX orders_search_trgm_idx`.execute(db);
}
