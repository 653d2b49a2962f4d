// Events between the processes of one desk (DESIGN §6): a change made through any server reaches every server.
// Services publish after their transaction commits; subscribers (the staff cache, the live desk's streams) react.
// One process on the embedded database needs no transport; several on PostgreSQL use LISTEN/NOTIFY
// (postgres-event-bus.ts) on one dedicated connection per process.

/** The channels, each a PostgreSQL NOTIFY channel of the same name. */
export type BusChannel =
  /** A staff member's record, role, password or sessions changed: payload is the staff id. */
  | 'eta_staff'
  /** A landing site's intake keys changed (a rotation): payload is the site. */
  | 'eta_intake_keys'
  /** Orders changed (moved, claimed, written): payload is JSON of OrdersChanged. */
  | 'eta_orders'
  /** Someone's presence on an order (viewing, editing): payload is JSON, owned by the live desk. */
  | 'eta_presence';

export interface EventBus {
  /** Delivers `payload` to every subscriber of `channel` in every process, this one included (at most 8000 bytes). */
  publish(channel: BusChannel, payload: string): Promise<void>;
  /** Calls `handler` for each payload published on `channel`; returns the unsubscribe. */
  subscribe(channel: BusChannel, handler: (payload: string) => void): () => void;
  /**
   * False while events from other processes may be missed (the listening connection is down and being re-made).
   * A cache kept fresh by events must not be trusted meanwhile; `onResume` tells when it can be again.
   */
  readonly listening: boolean;
  /** Called each time listening starts again after a break (events published meanwhile were lost). */
  onResume(handler: () => void): () => void;
  close(): Promise<void>;
}

type Handler = (payload: string) => void;

/** Subscribers by channel, shared by both buses. A handler that throws does not stop the others. */
export class Subscribers {
  private readonly byChannel = new Map<string, Set<Handler>>();

  add(channel: string, handler: Handler): () => void {
    let set = this.byChannel.get(channel);
    if (!set) {
      set = new Set();
      this.byChannel.set(channel, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  deliver(channel: string, payload: string, onError: (err: unknown) => void): void {
    for (const handler of this.byChannel.get(channel) ?? []) {
      try {
        handler(payload);
      } catch (err) {
        onError(err);
      }
    }
  }
}

/** One process: events go straight to this process's subscribers (the embedded database, tests). */
export class LocalEventBus implements EventBus {
  readonly listening = true;
  private readonly subscribers = new Subscribers();

  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  publish(channel: BusChannel, payload: string): Promise<void> {
    // After the caller's own work, as a NOTIFY is delivered after its commit.
    queueMicrotask(() => this.subscribers.deliver(channel, payload, this.onError));
    return Promise.resolve();
  }

  subscribe(channel: BusChannel, handler: Handler): () => void {
    return this.subscribers.add(channel, handler);
  }

  onResume(): () => void {
    return () => {};
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
