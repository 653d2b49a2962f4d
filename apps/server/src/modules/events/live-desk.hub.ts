// The live desk's fan-out (DESIGN §6): every open stream of this process, fed from the event bus. Counts are
// coalesced (at most one counts event per stream per `coalesceMs`, computed once per role and person, not per
// stream); order events go out as they come; presence goes out per order whose people changed.
import { randomUUID } from 'node:crypto';
import type { FolderCounts, LiveEventName, OrderChangedEvent, PresenceEvent } from '@eta/contracts';
import type { Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { EventBus } from './event-bus.js';
import type { OrdersChangedMessage } from './order-events.publisher.js';
import { OrderPresence } from './order-presence.js';

/** One message on a stream; a message with only `retry` tells the browser how long to wait before reconnecting. */
export interface StreamMessage {
  id?: string;
  event?: LiveEventName;
  data?: unknown;
  retry?: number;
}

/** Where a stream's messages go (the SSE reply); `comment` is a heartbeat line. */
export interface StreamSink {
  send(message: StreamMessage): void;
  comment(text: string): void;
  end(): void;
}

export interface LiveDeskOptions {
  /** Counts of this person, as GET /api/admin/get-folder-count answers them. */
  countsFor: (staff: Staff) => Promise<FolderCounts>;
  onError: (err: unknown) => void;
  coalesceMs?: number;
  heartbeatMs?: number;
  maxStreamsPerStaff?: number;
}

/** How long a browser waits before reconnecting after a drop or a server's shutdown. */
export const RETRY_MS = 3_000;
const DEFAULTS = { coalesceMs: 500, heartbeatMs: 15_000, maxStreamsPerStaff: 10 };
/** setTimeout's own limit (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Client {
  staff: Staff;
  /** Counts depend on the role and the person (My orders): one computation per key. */
  countsKey: string;
  sink: StreamSink;
  lastCounts?: string;
  sessionTimer: NodeJS.Timeout;
}

export class LiveDeskHub {
  readonly presence: OrderPresence;
  private readonly streams = new Set<Client>();
  private readonly opts: Required<LiveDeskOptions>;
  /** Ids are unique per process start; the stream is state-based, so an id is never looked up again. */
  private readonly idPrefix = randomUUID().slice(0, 8);
  private lastId = 0;
  private countsDirty = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing = false;
  private lastFlushAt = 0;
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly stop: (() => void)[] = [];

  constructor(bus: EventBus, opts: LiveDeskOptions) {
    this.opts = { ...DEFAULTS, ...opts };
    this.presence = new OrderPresence(bus, (orderId) => this.presenceChanged(orderId), opts.onError);
    this.stop.push(bus.subscribe('eta_orders', (payload) => this.ordersChanged(payload)));
    // A member's role, password or sessions changed: their streams end, and the browser reconnects with a new
    // ticket if the session still counts (with the new role's counts), or stays closed if it does not.
    this.stop.push(bus.subscribe('eta_staff', (payload) => this.endStreamsOf(Number(payload))));
    // Counts may have changed while this process heard nothing.
    this.stop.push(bus.onResume(() => this.countsChanged()));
    this.heartbeat = setInterval(() => {
      for (const client of this.streams) client.sink.comment('heartbeat');
    }, this.opts.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Open streams in this process (the metric eta_sse_clients). */
  get clients(): number {
    return this.streams.size;
  }

  /**
   * Adds a stream and sends it the current state (counts, everyone's presence): on a reconnect too, whatever its
   * Last-Event-ID, so nothing missed while it was away is lost. Returns its removal.
   */
  async connect(staff: Staff, sessionExpiresAt: Date, sink: StreamSink): Promise<() => void> {
    let mine = 0;
    for (const c of this.streams) if (c.staff.id === staff.id) mine += 1;
    if (mine >= this.opts.maxStreamsPerStaff) {
      throw new AppError('TOO_MANY_ATTEMPTS', `At most ${this.opts.maxStreamsPerStaff} live streams per person.`);
    }
    if (this.closed) {
      sink.send({ retry: RETRY_MS });
      sink.end();
      return () => {};
    }
    const client: Client = {
      staff,
      countsKey: `${staff.type}:${staff.id}`,
      sink,
      // The stream ends with its session; the browser's reconnection then needs a session that still counts.
      sessionTimer: setTimeout(
        () => this.end(client),
        Math.min(Math.max(0, sessionExpiresAt.getTime() - Date.now()), MAX_TIMER_MS),
      ),
    };
    client.sessionTimer.unref();
    this.streams.add(client);
    sink.send({ retry: RETRY_MS });
    for (const orderId of this.presence.orders()) this.sendPresence(client, orderId);
    try {
      const counts = await this.opts.countsFor(staff);
      if (this.streams.has(client)) this.sendCounts(client, counts);
    } catch (err) {
      // Without its snapshot the stream would show stale counts: it ends, and the browser comes back.
      this.end(client);
      throw err;
    }
    return () => this.remove(client);
  }

  /** Ends every stream with a retry hint (the app is closing); the browsers reconnect to another server. */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.flushTimer);
    for (const stop of this.stop) stop();
    this.presence.close();
    for (const client of [...this.streams]) this.end(client);
  }

  private end(client: Client): void {
    if (!this.streams.has(client)) return;
    this.remove(client);
    client.sink.send({ retry: RETRY_MS });
    client.sink.end();
  }

  private remove(client: Client): void {
    clearTimeout(client.sessionTimer);
    this.streams.delete(client);
  }

  private endStreamsOf(staffId: number): void {
    for (const client of [...this.streams]) if (client.staff.id === staffId) this.end(client);
  }

  private nextId(): string {
    this.lastId += 1;
    return `${this.idPrefix}-${this.lastId}`;
  }

  private ordersChanged(payload: string): void {
    const message = JSON.parse(payload) as OrdersChangedMessage;
    for (const [orderId, version, status, added] of message.orders) {
      const data: OrderChangedEvent = {
        orderId,
        version,
        status,
        byStaffId: message.by?.id ?? null,
        byName: message.by?.name ?? null,
        ...(added ? { added } : {}),
      };
      const id = this.nextId();
      for (const client of this.streams) client.sink.send({ id, event: 'order', data });
    }
    this.countsChanged();
  }

  private presenceChanged(orderId: string): void {
    for (const client of this.streams) this.sendPresence(client, orderId);
  }

  private sendPresence(client: Client, orderId: string): void {
    const data: PresenceEvent = { orderId, people: this.presence.people(orderId) };
    client.sink.send({ id: this.nextId(), event: 'presence', data });
  }

  private sendCounts(client: Client, counts: FolderCounts): void {
    const text = JSON.stringify(counts);
    if (text === client.lastCounts) return;
    client.lastCounts = text;
    client.sink.send({ id: this.nextId(), event: 'counts', data: counts });
  }

  /** Counts are recomputed at most once per `coalesceMs`, whatever the write rate: the first change at once. */
  private countsChanged(): void {
    this.countsDirty = true;
    if (this.flushTimer || this.flushing || this.closed) return;
    const wait = Math.max(0, this.lastFlushAt + this.opts.coalesceMs - Date.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flushCounts()
        .catch(this.opts.onError)
        .finally(() => {
          this.flushing = false;
          if (this.countsDirty) this.countsChanged();
        });
    }, wait);
    this.flushTimer.unref();
  }

  private async flushCounts(): Promise<void> {
    this.flushing = true;
    this.countsDirty = false;
    this.lastFlushAt = Date.now();
    const byKey = new Map<string, Client[]>();
    for (const client of this.streams) {
      const group = byKey.get(client.countsKey);
      if (group) group.push(client);
      else byKey.set(client.countsKey, [client]);
    }
    await Promise.all(
      [...byKey.values()].map(async (group) => {
        const counts = await this.opts.countsFor(group[0]!.staff);
        for (const client of group) if (this.streams.has(client)) this.sendCounts(client, counts);
      }),
    );
  }
}
