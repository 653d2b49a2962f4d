// Who is on which order ("Priya is viewing", "Priya is editing remarks"), kept in memory in each process and
// carried between processes on 'eta_presence'. An entry lives PRESENCE_EXPIRES_SECONDS after its last heartbeat
// (each process times it from when it heard it, so clocks need not agree). A process that starts, or whose
// listening resumed after a break, asks the others to announce their entries again ('hello'): each process
// re-announces the entries whose heartbeat it received itself, so within one round trip it knows them all.
import { randomUUID } from 'node:crypto';
import { PRESENCE_EXPIRES_SECONDS, type PresenceActivity, type PresencePerson } from '@eta/contracts';
import type { EventBus } from './event-bus.js';

interface Entry {
  name: string;
  activity: PresenceActivity;
  expiresAt: number;
  /** The heartbeat came to this process (it re-announces the entry when asked). */
  isOwn: boolean;
}

/** An entry as carried between processes, with the milliseconds it has left. */
type Announced = [orderId: string, staffId: number, name: string, activity: PresenceActivity, ttlMs: number];

type PresenceMessage =
  | { kind: 'set'; from: string; entries: Announced[] }
  | { kind: 'left'; from: string; orderId: string; staffId: number }
  | { kind: 'hello'; from: string };

const EXPIRES_MS = PRESENCE_EXPIRES_SECONDS * 1000;
const SWEEP_MS = 5_000;
/** Entries per re-announcement, so one NOTIFY stays inside its 8000 bytes. */
const ENTRIES_PER_MESSAGE = 40;

export class OrderPresence {
  private readonly byOrder = new Map<string, Map<number, Entry>>();
  private readonly processId = randomUUID();
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly stop: (() => void)[] = [];

  /** `onChange` is told each order whose people changed (an empty list when nobody is left). */
  constructor(
    private readonly bus: EventBus,
    private readonly onChange: (orderId: string) => void,
    private readonly onError: (err: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.stop.push(bus.subscribe('eta_presence', (payload) => this.heard(payload)));
    this.stop.push(bus.onResume(() => this.sayHello()));
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
    this.sayHello();
  }

  /** A heartbeat received by this process: `left` ends the entry at once. */
  beat(orderId: string, staff: { id: number; name: string }, activity: PresenceActivity | 'left'): PresencePerson[] {
    if (activity === 'left') {
      this.remove(orderId, staff.id);
      this.send({ kind: 'left', from: this.processId, orderId, staffId: staff.id });
    } else {
      this.put(orderId, staff.id, staff.name, activity, EXPIRES_MS, true);
      this.send({
        kind: 'set',
        from: this.processId,
        entries: [[orderId, staff.id, staff.name, activity, EXPIRES_MS]],
      });
    }
    return this.people(orderId);
  }

  /** Everyone now on the order, by name. */
  people(orderId: string): PresencePerson[] {
    const now = this.now();
    return [...(this.byOrder.get(orderId) ?? [])]
      .filter(([, e]) => e.expiresAt > now)
      .map(([staffId, e]) => ({ staffId, name: e.name, activity: e.activity }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.staffId - b.staffId);
  }

  /** The orders someone is on now (a new stream's snapshot). */
  orders(): string[] {
    return [...this.byOrder.keys()].filter((orderId) => this.people(orderId).length > 0);
  }

  close(): void {
    clearInterval(this.sweepTimer);
    for (const stop of this.stop) stop();
  }

  private heard(payload: string): void {
    const message = JSON.parse(payload) as PresenceMessage;
    if (message.from === this.processId) return; // applied when it was sent
    if (message.kind === 'hello') this.announceOwn();
    else if (message.kind === 'left') this.remove(message.orderId, message.staffId);
    else
      for (const [orderId, staffId, name, activity, ttlMs] of message.entries) {
        this.put(orderId, staffId, name, activity, Math.min(ttlMs, EXPIRES_MS), false);
      }
  }

  private put(
    orderId: string,
    staffId: number,
    name: string,
    activity: PresenceActivity,
    ttlMs: number,
    isOwn: boolean,
  ): void {
    let people = this.byOrder.get(orderId);
    if (!people) {
      people = new Map();
      this.byOrder.set(orderId, people);
    }
    const before = people.get(staffId);
    people.set(staffId, { name, activity, expiresAt: this.now() + ttlMs, isOwn });
    if (!before || before.activity !== activity || before.name !== name || before.expiresAt <= this.now()) {
      this.onChange(orderId);
    }
  }

  private remove(orderId: string, staffId: number): void {
    const people = this.byOrder.get(orderId);
    if (!people?.delete(staffId)) return;
    if (people.size === 0) this.byOrder.delete(orderId);
    this.onChange(orderId);
  }

  private sweep(): void {
    const now = this.now();
    for (const [orderId, people] of this.byOrder) {
      let changed = false;
      for (const [staffId, entry] of people) {
        if (entry.expiresAt > now) continue;
        people.delete(staffId);
        changed = true;
      }
      if (people.size === 0) this.byOrder.delete(orderId);
      if (changed) this.onChange(orderId);
    }
  }

  private sayHello(): void {
    this.send({ kind: 'hello', from: this.processId });
  }

  private announceOwn(): void {
    const now = this.now();
    const own: Announced[] = [];
    for (const [orderId, people] of this.byOrder) {
      for (const [staffId, e] of people) {
        if (e.isOwn && e.expiresAt > now) own.push([orderId, staffId, e.name, e.activity, e.expiresAt - now]);
      }
    }
    for (let i = 0; i < own.length; i += ENTRIES_PER_MESSAGE) {
      this.send({ kind: 'set', from: this.processId, entries: own.slice(i, i + ENTRIES_PER_MESSAGE) });
    }
  }

  private send(message: PresenceMessage): void {
    this.bus.publish('eta_presence', JSON.stringify(message)).catch(this.onError);
  }
}
