// Events between processes through PostgreSQL LISTEN/NOTIFY: one dedicated connection per process listens on
// every channel; a publish is a NOTIFY through the pool. When the listening connection breaks (a database restart,
// issue 32), `listening` is false until a new one listens again (retried with a growing pause, at most 1 s, so it
// listens within a second of the database's return), then `onResume` handlers run so caches can drop what they may
// have missed and the live desk sends its snapshots.
import pg from 'pg';
import { outsideRequest } from '../../db/statement-budget.js';
import type { BusChannel, EventBus } from './event-bus.js';
import { Subscribers } from './event-bus.js';

const CHANNELS: BusChannel[] = ['eta_staff', 'eta_intake_keys', 'eta_orders', 'eta_presence'];
const MAX_RETRY_MS = 1_000;
/** A connection attempt that hangs (a database host gone silent) is given up, so the next one can be made. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface PostgresEventBusOptions {
  connectionString: string;
  /** Sends a NOTIFY (through the application's pool). */
  notify: (channel: BusChannel, payload: string) => Promise<void>;
  onError?: (err: unknown) => void;
}

export class PostgresEventBus implements EventBus {
  private readonly subscribers = new Subscribers();
  private readonly resumeHandlers = new Set<() => void>();
  private client: pg.Client | undefined;
  private closed = false;
  private retryMs = 100;
  private retryTimer: NodeJS.Timeout | undefined;
  private wasListening = false;
  /** Reconnections tried in vain since the break: only the first is reported, not one a second while it lasts. */
  private failedReconnects = 0;
  listening = false;

  private constructor(private readonly opts: PostgresEventBusOptions) {}

  /** Starts listening; resolves once the first connection listens (or rejects when it cannot be made). */
  static async start(opts: PostgresEventBusOptions): Promise<PostgresEventBus> {
    const bus = new PostgresEventBus(opts);
    await bus.connect();
    return bus;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.opts.connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    client.on('error', (err) => this.broken(client, err));
    client.on('end', () => this.broken(client));
    client.on('notification', (message) => {
      this.subscribers.deliver(message.channel, message.payload ?? '', (err) => this.opts.onError?.(err));
    });
    try {
      await client.connect();
      for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.listening = true;
    this.retryMs = 100;
    this.failedReconnects = 0;
    if (this.wasListening) for (const handler of this.resumeHandlers) handler();
    this.wasListening = true;
  }

  private broken(client: pg.Client, err?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    if (err) this.opts.onError?.(err);
    client.removeAllListeners('notification');
    void client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect().catch((err: unknown) => {
        this.failedReconnects += 1;
        if (this.failedReconnects === 1) this.opts.onError?.(err);
        this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
        this.scheduleReconnect();
      });
    }, this.retryMs);
    this.retryTimer.unref();
  }

  publish(channel: BusChannel, payload: string): Promise<void> {
    // Sent after the publisher's commit, whether or not that request's client is still there.
    return outsideRequest(() => this.opts.notify(channel, payload));
  }

  subscribe(channel: BusChannel, handler: (payload: string) => void): () => void {
    return this.subscribers.add(channel, handler);
  }

  onResume(handler: () => void): () => void {
    this.resumeHandlers.add(handler);
    return () => this.resumeHandlers.delete(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}
