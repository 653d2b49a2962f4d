// Searches within New, and the search statistics target that suits all the queues.
// - Migration 009 dropped New's single index when pages moved to two merged walks, but a search within New still
//   needs one walk over the whole queue in queue order. Without it, "gmail" in New counted through a BitmapAnd of
//   327,000 trigram matches (72 ms) and paged over Order History's index (17 ms); with it, 5.8 + 0.5 ms.
// - The search index's target goes to 300 (1,000 before 010, the default 100 after it). At 300 ANALYZE of a
//   million orders takes 5.8 s (1,000: 28 s) and the estimates for common names stay within 3x ("oliver" 3,345
//   for 10,545; the default said 100), which the count's plan needs in the smaller queues: "oliver" in New
//   13.3 ms at 300, 16.8 ms at 1,000, 40 ms at the default; no search in New, Priority or History was slower at 300.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX orders_new_queue_idx ON orders (created_at DESC, id DESC)
    INCLUDE (processing_type, processing_date)
    WHERE payment_status = 'Success' AND process_status = 'New' AND assign_to IS NULL
      AND processing_type <> 'Priority'`.execute(db);
  await sql`ALTER INDEX orders_search_trgm_idx ALTER COLUMN 1 SET STATISTICS 300`.execute(db);
}
