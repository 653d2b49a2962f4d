// Urgent first read in its own order (issue 35). orders_urgent_idx (033) was keyed by the travel date: a page of
// urgent orders read every open order travelling in the window's days, working out each one's travel moment (a
// pattern match on the time) to filter and to sort them (419 rows, 0.7 ms, for page 1 of Order History at a million
// orders). Keyed by the travel moment itself, then the queues' own order (newest first), the urgent orders of a queue
// in order of purchase are the index's order: a page reads its own rows and sorts nothing, and the urgent counts read
// the same range without working anything out.
import { sql, type Kysely } from 'kysely';

/** The statuses of orders the desk still has to finish (contracts OPEN_STATUSES; the literal list of the indexes). */
const OPEN = sql.raw(`('New', 'Pending', 'Awaiting', 'AwaitingGovt', 'Customer Called', 'Contact Customer')`);

export async function up(db: Kysely<unknown>): Promise<void> {
  // The columns the key's expression is made of are included: without them PostgreSQL cannot scan the index alone.
  // An open order without a travel date has no moment (null, after every range).
  await sql`CREATE INDEX orders_urgent_at_idx
    ON orders (order_travel_at(travel_to_canada_year, travel_to_canada_hour), created_at DESC, id DESC)
    INCLUDE (travel_to_canada_year, travel_to_canada_hour, process_status, processing_type, processing_date, assign_to,
      payment_status)
    WHERE payment_status = 'Success' AND process_status IN ${OPEN}`.execute(db);
  await sql`DROP INDEX orders_urgent_idx`.execute(db);
  await sql`ALTER INDEX orders_urgent_at_idx RENAME TO orders_urgent_idx`.execute(db);
}
