// The New queue's last pages walked every not-yet-due Future order too: they shared the queue's index with the
// Standard orders and were filtered out one entry at a time (63,500 entries for page 457 at a million orders).
// New is now read as two walks merged in queue order (orders.repository): Standard orders on an index of their
// own, and due Future orders from the Future index, which now carries assign_to so that walk needs no table.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX orders_new_queue_idx`.execute(db);
  await sql`CREATE INDEX orders_new_standard_idx ON orders (created_at DESC, id DESC)
    WHERE payment_status = 'Success' AND process_status = 'New' AND assign_to IS NULL
      AND processing_type = 'Standard'`.execute(db);
  await sql`DROP INDEX orders_future_idx`.execute(db);
  await sql`CREATE INDEX orders_future_idx ON orders (processing_date, created_at DESC, id DESC) INCLUDE (assign_to)
    WHERE payment_status = 'Success' AND process_status = 'New' AND processing_type = 'Future'`.execute(db);
}
