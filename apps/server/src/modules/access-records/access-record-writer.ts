// Reads of personal data, written cheaply (issue 24): a read is queued in memory and the queue is written as ONE
// multi-row INSERT about once a second or every MAX_BATCH reads, never an extra transaction per read. Closing the
// app writes what is queued (a normal stop loses nothing); a crash loses at most the reads of the last interval.
// After each batch the members in it who read an order new to them are checked for an unusual reading pattern
// (UNUSUAL_READS): re-reading orders read within the window cannot raise a member's count of distinct orders.
import type { Kysely } from 'kysely';
import type { AccessKind } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { outsideRequest } from '../../db/statement-budget.js';
import { describeUserAgent, type ClientDevice } from '../../lib/user-agent.js';
import { insertAccessRecords, raiseUnusualReadAlerts, type NewAccessRecord } from './access-records.repository.js';

/**
 * An unusual reading pattern: one member opening at least `distinctOrders` different orders within `windowMinutes`
 * (sliding). Raised once per member per window; an Admin acknowledges it on the Activity page.
 */
export const UNUSUAL_READS = { distinctOrders: 200, windowMinutes: 60 } as const;

/** The longest a read waits in memory before it is written, and the most written by one statement. */
const FLUSH_MS = 1_000;
const MAX_BATCH = 500;
/** While the database refuses the writes, reads are kept up to this many (the oldest are dropped, and logged). */
const MAX_QUEUED = 20_000;
const USER_AGENT_MAX = 400;
/** Orders remembered per member (and members remembered) for skipping checks; past either, memory starts afresh. */
const SEEN_PER_MEMBER = 2 * UNUSUAL_READS.distinctOrders;
const SEEN_MEMBERS = 1_000;

/** Who read, and from where: the signed-in member, the client address (TRUST_PROXY-aware) and the browser. */
export interface Reader {
  staffId: number;
  staffName: string;
  ip: string;
  userAgent: string | null;
}

export const readerOf = (
  staff: Pick<Staff, 'id' | 'name'>,
  request: { ip: string; headers: { 'user-agent'?: string | undefined } },
): Reader => ({
  staffId: staff.id,
  staffName: staff.name,
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX) ?? null,
});

/** What was read: the order (public id; none for an export), the kind, and a short detail. */
export interface AccessRead {
  orderId: string | null;
  kind: AccessKind;
  detail: string | null;
}

interface QueuedRead extends Reader, AccessRead {
  at: Date;
}

export interface AccessRecordWriterOptions {
  flushMs?: number;
  maxBatch?: number;
  /** A batch that could not be written, or a failed alert check (logged; the reads stay queued). */
  onError: (err: unknown, message: string) => void;
}

export class AccessRecordWriter {
  private queue: QueuedRead[] = [];
  /** Writes what is queued every flushMs; made by the first read, outside the request that read (below). */
  private ticker: NodeJS.Timeout | null = null;
  /** Batches are written one after the other, in the order they were read. */
  private writing: Promise<void> = Promise.resolve();
  /** Flushes queued or running. */
  private busy = 0;
  private closed = false;
  private readonly flushMs: number;
  private readonly maxBatch: number;
  /** Per member, the orders this process saw them read and when last (to skip checks that cannot raise an alert). */
  private readonly seen = new Map<number, Map<string, number>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: AccessRecordWriterOptions,
  ) {
    this.flushMs = options.flushMs ?? FLUSH_MS;
    this.maxBatch = options.maxBatch ?? MAX_BATCH;
  }

  /** Queues one read; it is in the database within about a second. Never waits and never throws. */
  record(reader: Reader, read: AccessRead): void {
    this.queue.push({ ...reader, ...read, at: new Date() });
    if (this.queue.length > MAX_QUEUED) {
      const dropped = this.queue.splice(0, this.queue.length - MAX_QUEUED);
      this.options.onError(new Error(`${dropped.length} reads dropped`), 'access records: queue full, oldest dropped');
    }
    // Written outside the request that read (db/statement-budget.ts): a read whose client then left stays recorded.
    // One timer for the writer's life, made there once: a timer made here each time would take the request's scope
    // with it, and leaving that scope for each read turned the process's async hooks off and on again.
    if (!this.closed) {
      this.ticker ??= outsideRequest(() => setInterval(() => this.flushQueued(), this.flushMs).unref());
    }
    // At once on reaching a full batch, not for every read past it: while writes fail, the reads wait for the ticker
    // instead of each starting another failing INSERT.
    if (this.closed || this.queue.length === this.maxBatch) outsideRequest(() => void this.flush());
  }

  /** Writes every read queued so far; resolves when they are in the database (or were kept after a failure). */
  flush(): Promise<void> {
    this.busy += 1;
    this.writing = this.writing
      .then(() => this.writeQueued())
      .finally(() => {
        this.busy -= 1;
      });
    return this.writing;
  }

  /** The app's onClose: no more timers, and what is queued is written before the database closes. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    await this.flush();
  }

  /** The ticker's round: a write only when there is something to write and no write is under way. */
  private flushQueued(): void {
    if (this.queue.length > 0 && !this.busy) void this.flush();
  }

  get queued(): number {
    return this.queue.length;
  }

  /**
   * Writes the reads queued when it starts, in batches; reads queued meanwhile wait for the next round. (Written until
   * the queue was empty, a writer under steady reading took the few reads of each INSERT's round trip as its next
   * batch: ~15 reads a statement at 2,000 reads a second, each batch with its own browser parsing.)
   */
  private async writeQueued(): Promise<void> {
    let left = this.queue.length;
    while (left > 0 && this.queue.length > 0) {
      const batch = this.queue.splice(0, Math.min(this.maxBatch, left));
      left -= batch.length;
      try {
        await insertAccessRecords(this.db, toRows(batch));
      } catch (err) {
        // Kept for the next try (in order), which the ticker's next round starts.
        this.queue.unshift(...batch);
        this.options.onError(err, 'access records: a batch could not be written; it will be tried again');
        return;
      }
      await this.checkUnusualReads(batch);
    }
  }

  /**
   * The unusual-reading check for the members of the batch who read an order new to them. The batch's orders are
   * remembered as seen only once the check has run: after a failed check (logged) the member's next batch with the
   * same orders is checked again, rather than skipped as nothing new.
   */
  private async checkUnusualReads(batch: readonly QueuedRead[]): Promise<void> {
    const since = new Date(Date.now() - UNUSUAL_READS.windowMinutes * 60_000);
    const readers = [...this.readersOfNewOrders(batch, since.getTime())];
    if (readers.length > 0) {
      try {
        await raiseUnusualReadAlerts(this.db, readers, since, UNUSUAL_READS.distinctOrders);
      } catch (err) {
        this.options.onError(err, 'access records: the unusual-reading check failed; the next batch checks again');
        return;
      }
    }
    this.markSeen(batch);
  }

  /**
   * Members of the batch who read an order this process has not seen them read since `windowStart`: only they can
   * have reached the threshold through this batch (reads through other servers are checked by those servers' own
   * batches). A member re-reading the same orders (the bench: one order 14,000 times in 10 s) costs no query.
   */
  private readersOfNewOrders(batch: readonly QueuedRead[], windowStart: number): Set<number> {
    const readers = new Set<number>();
    for (const read of batch) {
      if (read.orderId === null || readers.has(read.staffId)) continue;
      if ((this.seen.get(read.staffId)?.get(read.orderId) ?? -Infinity) < windowStart) readers.add(read.staffId);
    }
    return readers;
  }

  /** Remembers the batch's orders as seen by their readers, when last (after their check). */
  private markSeen(batch: readonly QueuedRead[]): void {
    if (this.seen.size > SEEN_MEMBERS) this.seen.clear();
    for (const read of batch) {
      if (read.orderId === null) continue;
      let orders = this.seen.get(read.staffId);
      if (!orders) this.seen.set(read.staffId, (orders = new Map()));
      if (orders.size >= SEEN_PER_MEMBER) orders.clear();
      orders.set(read.orderId, read.at.getTime());
    }
  }
}

/** The batch as rows, each browser described once (ua-parser is the costly part of a row). */
function toRows(batch: readonly QueuedRead[]): NewAccessRecord[] {
  const devices = new Map<string | null, ClientDevice>();
  return batch.map((r) => {
    let device = devices.get(r.userAgent);
    if (!device) {
      device = describeUserAgent(r.userAgent ?? undefined);
      devices.set(r.userAgent, device);
    }
    return {
      at: r.at,
      staff_id: r.staffId,
      staff_name: r.staffName,
      order: r.orderId,
      kind: r.kind,
      detail: r.detail,
      ip: r.ip,
      user_agent: r.userAgent,
      browser: device.browser,
      os: device.os,
      device: device.device,
      device_type: device.deviceType,
    };
  });
}
