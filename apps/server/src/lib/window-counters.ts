// Fixed-window attempt counters in this process, by key (the sign-in and order-tracking limits): a counter
// starts at 0 when first asked for and again once its window has passed. Expired ones are swept when there are
// many, so keys that come and go (client addresses) do not pile up.

export interface WindowCounter {
  count: number;
  /** When this window ends (epoch ms). */
  resetAt: number;
}

const SWEEP_ABOVE = 10_000;

export class WindowCounters {
  private readonly counters = new Map<string, WindowCounter>();

  /** The key's counter in its current window (a new one when there is none or it has passed). */
  get(key: string, windowMs: number, now: number): WindowCounter {
    if (this.counters.size > SWEEP_ABOVE) this.sweep(now);
    let counter = this.counters.get(key);
    if (!counter || counter.resetAt <= now) {
      counter = { count: 0, resetAt: now + windowMs };
      this.counters.set(key, counter);
    }
    return counter;
  }

  delete(key: string): void {
    this.counters.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, counter] of this.counters) if (counter.resetAt <= now) this.counters.delete(key);
  }
}
