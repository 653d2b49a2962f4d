// A name searched in the Future queue (issue 31). The queue is in order of processing date, which the name indexes of
// migration 025 do not hold; the planner then walked the Future queue's own index in its order, testing each row's
// name, expecting a few of them to match: a name no Future order has walked all of them (39,551 rows and 405 ms at a
// million orders, past the search's budget). These indexes hold the Future queue's orders by name in the queue's own
// order, so a name's first page there is a range of one index, whether it matches none, some or thousands.
import { sql, type Kysely } from 'kysely';

const FUTURE = sql`WHERE payment_status = 'Success' AND process_status = 'New' AND processing_type = 'Future'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, key] of [
    ['orders_future_surname_idx', sql`lower(passport_surname)`],
    ['orders_future_first_name_idx', sql`lower(passport_first_name)`],
    ['orders_future_full_name_idx', sql`lower(passport_first_name || ' ' || passport_surname)`],
  ] as const) {
    await sql`CREATE INDEX ${sql.id(name)} ON orders (${key}, processing_date, created_at DESC, id DESC) ${FUTURE}`.execute(
      db,
    );
  }
  await sql`ANALYZE orders`.execute(db);
}
