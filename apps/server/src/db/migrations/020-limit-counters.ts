// The limits' counters shared by every server process (issue 23): sign-in, tracking and intake limits must hold
// across servers behind one load balancer. UNLOGGED: written on every attempt and worthless after a crash, so no WAL
// (a crash empties the table, which only forgets recent failures). Times are epoch milliseconds of the servers'
// clocks, as the in-memory counters use; rows past both their window and their lock are deleted by housekeeping.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE UNLOGGED TABLE limit_counters (
      key text PRIMARY KEY,
      count integer NOT NULL,
      reset_at bigint NOT NULL,
      not_before bigint NOT NULL DEFAULT 0
    )`.execute(db);
}
