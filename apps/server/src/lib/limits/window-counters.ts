// Fixed-window attempt counters in this process, by key (the sign-in, tracking and intake limits): a counter
// starts at 0 when first asked for and again once its window has passed. Every check is O(1) whatever the number
// of keys, and the number of keys is bounded, so a flood of keys that come and go (rotating client addresses)
// neither slows later checks nor grows the process (issue 22).
//
// How: counters are kept per window length, each group with a queue in the order their windows started. With one
// length per group the oldest window is always at the head, so expired counters are dropped from there, a few per
// check, never by a scan. (Not a Map's own order: V8 leaves deleted entries in place until it rehashes, so walking
// a Map from its front after many deletions is itself a scan.) A counter that starts again is queued again; its old
// place is recognised as stale when it reaches the head. Above `maxKeys` in a group its oldest counters are dropped:
// an attacker who brings more fresh keys than that within one window can make the desk forget the oldest ones of
// that window length (the price of the bound, docs/decisions/rate-limits.md), never those of another length (the
// sign-in limit's per-account counters have a length of their own, so a flood of addresses cannot push them out).

export interface WindowCounter {
  count: number;
  /** When this window ends (epoch ms). */
  resetAt: number;
  /** Before this time (epoch ms) the key is not to be tried again: a lock or a delay its owner sets; 0 for none. */
  notBefore: number;
}

/** A counter asked for by key, always with the same window length. */
export interface CounterKey {
  key: string;
  windowMs: number;
}

/**
 * The limits' counters: in memory for one process (WindowCounters), in PostgreSQL for many
 * (postgres-counters.ts). Callers read and change counters only through `update`.
 */
export interface ExpiringCounters {
  /**
   * Runs `change` on the keys' counters in their current windows (fresh ones where there is none or it has passed)
   * and keeps what it sets, with no other change to these keys in between, in any process: a check and the count it
   * reserves are one step, so parallel attempts cannot all pass a limit. `change` must not await.
   */
  update<T>(keys: readonly CounterKey[], now: number, change: (counters: WindowCounter[]) => T): Promise<T>;
  /**
   * The key's counter in its current window, changing nothing: for a check whose count is raised by a later, separate
   * step anyway (a wrong intake key is counted once it is known to be wrong).
   */
  read(key: CounterKey, now: number): Promise<WindowCounter>;
  /** Adds one to the key's counter in its current window and returns it: a rate that counts every request. */
  add(key: CounterKey, now: number): Promise<WindowCounter>;
  /**
   * add(`added`) and read(`read`) in one step (one statement in PostgreSQL): a rate counted beside a limit it does not
   * change (an intake key's orders per second, and the wrong keys its caller's address sent). The keys differ.
   */
  addAndRead(added: CounterKey, read: CounterKey, now: number): Promise<[WindowCounter, WindowCounter]>;
}

/** Expired counters dropped per check and group: more than one, so the drops keep pace with the additions. */
const SWEEP_PER_CHECK = 4;
export const DEFAULT_MAX_KEYS = 100_000;

class Group {
  readonly counters = new Map<string, WindowCounter>();
  private keys: string[] = [];
  private queued: WindowCounter[] = [];
  private head = 0;

  add(key: string, counter: WindowCounter): void {
    this.counters.set(key, counter);
    this.keys.push(key);
    this.queued.push(counter);
  }

  /** Drops the counter at the head if `drop(counter)` says so (stale places are skipped); false when none was. */
  dropHead(drop: (counter: WindowCounter) => boolean): boolean {
    while (this.head < this.keys.length) {
      const key = this.keys[this.head]!;
      const counter = this.queued[this.head]!;
      if (this.counters.get(key) !== counter) {
        this.advance(); // a stale place: the key was deleted or started a new window since
        continue;
      }
      if (!drop(counter)) return false;
      this.counters.delete(key);
      this.advance();
      return true;
    }
    return false;
  }

  private advance(): void {
    this.head += 1;
    // The queue is compacted once its consumed head is half of it: O(1) per place, amortised.
    if (this.head > 1024 && this.head * 2 > this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.queued = this.queued.slice(this.head);
      this.head = 0;
    }
  }
}

export class WindowCounters implements ExpiringCounters {
  private readonly groups = new Map<number, Group>();
  private total = 0;

  /** @param maxKeys the most counters kept per window length */
  constructor(private readonly maxKeys = DEFAULT_MAX_KEYS) {}

  get size(): number {
    return this.total;
  }

  get(key: string, windowMs: number, now: number): WindowCounter {
    let group = this.groups.get(windowMs);
    if (!group) {
      group = new Group();
      this.groups.set(windowMs, group);
    }
    for (const g of this.groups.values()) {
      for (let i = 0; i < SWEEP_PER_CHECK && g.dropHead((c) => c.resetAt <= now); i += 1) this.total -= 1;
    }
    const counter = group.counters.get(key);
    if (counter && counter.resetAt > now) return counter;
    if (counter) {
      group.counters.delete(key);
      this.total -= 1;
    }
    if (group.counters.size >= this.maxKeys && group.dropHead(() => true)) this.total -= 1;
    const fresh = { count: 0, resetAt: now + windowMs, notBefore: 0 };
    group.add(key, fresh);
    this.total += 1;
    return fresh;
  }

  delete(key: string): void {
    for (const group of this.groups.values()) if (group.counters.delete(key)) this.total -= 1;
  }

  update<T>(keys: readonly CounterKey[], now: number, change: (counters: WindowCounter[]) => T): Promise<T> {
    // One process and no await between the reads and the change: nothing can come in between.
    return Promise.resolve(change(keys.map((k) => this.get(k.key, k.windowMs, now))));
  }

  read(key: CounterKey, now: number): Promise<WindowCounter> {
    const counter = this.groups.get(key.windowMs)?.counters.get(key.key);
    return Promise.resolve(
      counter && counter.resetAt > now ? { ...counter } : { count: 0, resetAt: now + key.windowMs, notBefore: 0 },
    );
  }

  add(key: CounterKey, now: number): Promise<WindowCounter> {
    const counter = this.get(key.key, key.windowMs, now);
    counter.count += 1;
    return Promise.resolve({ ...counter });
  }

  async addAndRead(added: CounterKey, read: CounterKey, now: number): Promise<[WindowCounter, WindowCounter]> {
    return [await this.add(added, now), await this.read(read, now)];
  }
}
