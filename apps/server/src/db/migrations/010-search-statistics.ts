// The search index's expression back to the default statistics target (migration 001 set 1,000): that target
// made ANALYZE sample 300,000 rows for every column of orders, 29 s of a 1M-order seed against 1.8 s.
// Superseded by 011, which sets 300: at the default the estimate for a common name was 100x off ("oliver":
// 100 rows for 10,545), and searches within the smaller queues picked slow plans from it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER INDEX orders_search_trgm_idx ALTER COLUMN 1 SET STATISTICS -1`.execute(db);
}
