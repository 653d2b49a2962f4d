// The search's trigram indexes keep a short pending list. GIN takes new entries into an unsorted pending list first
// (fastupdate, PostgreSQL's default), which every scan of the index reads whole, and merges it into the index only
// when it passes gin_pending_list_limit (4 MB by default) or a VACUUM comes: at a million orders, autovacuum comes
// after some 200,000 new ones, so the list grew to 4 MB (about 3,000 orders) between merges and every index step of
// every search read it: 4-6 ms more a scan (a word no order has 1.05 -> 6.0 ms of SQL, "risu" 4.2 -> 8-9 ms), and the
// week step scans the index once a week. At 256 kB (about 220 orders) a scan reads at most 32 pages of it, and the
// intake request that passes the limit merges it in about 6 ms (a 4 MB list took 30-38 ms, 64 pages 9.5 ms).
import { sql, type Kysely } from 'kysely';

const INDEXES = ['orders_search_idx', 'orders_new_search_idx'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of INDEXES) {
    await sql`ALTER INDEX ${sql.id(index)} SET (gin_pending_list_limit = 256)`.execute(db);
    // What is pending now is merged at once rather than by the next order's insert.
    await sql`SELECT gin_clean_pending_list(${index}::regclass)`.execute(db);
  }
}
