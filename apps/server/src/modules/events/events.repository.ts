// The one statement the event bus sends through the application's pool.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { BusChannel } from './event-bus.js';

/**
 * A NOTIFY gives its transaction an id, so its commit waited for a WAL flush of its own (one more disk sync per event,
 * on top of the change's). An event is not durable anyway (a listener that is down misses it; the desk reloads its
 * lists), so its commit skips the flush (set_config's `true`: for this statement's own transaction only). Listeners
 * still hear it only once it commits.
 */
export async function notify(db: Kysely<DB>, channel: BusChannel, payload: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, ${payload}), set_config('synchronous_commit', 'off', true)`.execute(db);
}
