// The event bus for the configured database: LISTEN/NOTIFY between processes on PostgreSQL, in-process on the
// embedded database (which only one process can open).
import type { DatabaseHandle } from '../../db/database.js';
import { LocalEventBus, type EventBus } from './event-bus.js';
import { notify } from './events.repository.js';
import { PostgresEventBus } from './postgres-event-bus.js';

export async function openEventBus(database: DatabaseHandle, onError: (err: unknown) => void): Promise<EventBus> {
  if (database.kind === 'pglite' || !database.connectionString) return new LocalEventBus(onError);
  return PostgresEventBus.start({
    connectionString: database.connectionString,
    notify: (channel, payload) => notify(database.db, channel, payload),
    onError,
  });
}
