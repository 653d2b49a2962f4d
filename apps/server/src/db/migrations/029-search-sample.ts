// A search's sample of the orders (issue 31). Whether a fragment is common enough for the walk of the newest orders to
// find its page is read from those orders first; when a burst of new orders sharing another word fills them, they
// say nothing, and the trigram index was read for a fragment in every third order (a week's 2,472 candidates, 19 ms
// at a million orders and ten times that at ten million). tsm_system_rows samples a fixed number of rows from pages
// picked at random, so the estimate costs the same at any size (modules/orders/README.md, Search).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS tsm_system_rows`.execute(db);
}
