// A name searched in the ChargeBack queue (issue 31), as migration 028 did for Future. ChargeBack is in order of the
// open dispute's evidence due date, which the name indexes of migration 025 do not hold, so a name's first page read
// every ChargeBack order of that name and sorted them: a few hundred at a million orders, but the queue grows with the
// business (157,000 orders at ten million, 2,500 of them Wilson), and there the planner intersected the name's range
// with the whole queue's index (BitmapAnd with orders_chargeback_idx): 7.7 ms of SQL, 74 ms p97.5 at 8 connections
// against 20-27 ms in every other queue (docs/PERFORMANCE.md, run 35). These indexes hold ChargeBack's orders by name in
// the queue's own order, so a name's first page there is a range of one index: O(log n + page), however many disputed
// orders share the name.
import { sql, type Kysely } from 'kysely';

const CHARGEBACK = sql`WHERE payment_status = 'Success' AND process_status = 'ChargeBack'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, key] of [
    ['orders_chargeback_surname_idx', sql`lower(passport_surname)`],
    ['orders_chargeback_first_name_idx', sql`lower(passport_first_name)`],
    ['orders_chargeback_full_name_idx', sql`lower(passport_first_name || ' ' || passport_surname)`],
  ] as const) {
    await sql`CREATE INDEX ${sql.id(name)} ON orders (${key}, dispute_due_at ASC NULLS LAST, created_at DESC, id DESC)
      ${CHARGEBACK}`.execute(db);
  }
  await sql`ANALYZE orders`.execute(db);
}
