// The one statement the event bus sends through the application's pool.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { BusChannel } from './event-bus.js';

export async function notify(db: Kysely<DB>, channel: BusChannel, payload: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, ${payload})`.execute(db);
}
