// Guessing limits of the public tracking form (DESIGN §4). As with sign-in (auth/login-throttle.ts), every attempt
// reserves its place in one step with its check before the order is looked up, so a burst of parallel guesses gets no more tries
// than the limits; a proven pair gives its reservation back.
// - Per client address: failed attempts per 15 minutes, and a delay that grows with each failure past the first
//   few (1 s, 2 s, 4 s … at most a minute), so guessing from one place slows down at once.
// - Per order id: failures from all addresses per hour. Order ids are sequential enough to walk, so this limit must
//   never lock a customer out (issue 22): it stops only the addresses that have themselves failed for that order;
//   an address that has not (the customer's own) still gets its answer.
import { WindowCounters, type ExpiringCounters } from '../../lib/limits/window-counters.js';

export const ADDRESS_WINDOW_MS = 15 * 60_000;
export const ORDER_WINDOW_MS = 60 * 60_000;
/** Failures from one address before each further one makes it wait. */
const FREE_FAILURES = 3;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;

export interface TrackLimits {
  /** Failed attempts per client address per 15 minutes. */
  perAddress: number;
  /** Failed attempts per order id per hour, past which addresses that failed for it are refused. */
  perOrder: number;
}

export interface TrackAttempt {
  /** The pair matched, or the attempt ended without an answer (an error): the reservations are given back. */
  release(): Promise<void>;
  /** The pair did not match (or the order does not exist): the reservations stay. */
  failed(): void;
}

/** How long an address waits after its n-th failure in the window. */
export const delayAfter = (failures: number): number =>
  failures <= FREE_FAILURES ? 0 : Math.min(FIRST_DELAY_MS * 2 ** (failures - FREE_FAILURES - 1), MAX_DELAY_MS);

export class TrackThrottle {
  constructor(
    private readonly limits: TrackLimits,
    private readonly now: () => number = Date.now,
    private readonly counters: ExpiringCounters = new WindowCounters(),
  ) {}

  /** Reserves one attempt, or says how long until this address may try again. The check and the reservation are one step. */
  async begin(address: string, orderId: string): Promise<{ attempt: TrackAttempt } | { retryAfterMs: number }> {
    const keys = [
      { key: `a|${address}`, windowMs: ADDRESS_WINDOW_MS },
      { key: `o|${orderId}`, windowMs: ORDER_WINDOW_MS },
      { key: `p|${orderId}|${address}`, windowMs: ORDER_WINDOW_MS },
    ];
    const now = this.now();
    const begun = await this.counters.update<{ retryAfterMs: number } | { delayBefore: number }>(
      keys,
      now,
      ([byAddress, byOrder, here]) => {
        if (byAddress!.count >= this.limits.perAddress) return { retryAfterMs: byAddress!.resetAt - now };
        if (byAddress!.notBefore > now) return { retryAfterMs: byAddress!.notBefore - now };
        if (byOrder!.count >= this.limits.perOrder && here!.count > 0) return { retryAfterMs: byOrder!.resetAt - now };
        const delayBefore = byAddress!.notBefore;
        byAddress!.count += 1;
        byOrder!.count += 1;
        here!.count += 1;
        // Set now, not when the guess has failed, so parallel guesses from one address wait their turn as well.
        byAddress!.notBefore = now + delayAfter(byAddress!.count);
        return { delayBefore };
      },
    );
    if ('retryAfterMs' in begun) return begun;
    let settled = false;
    return {
      attempt: {
        release: async () => {
          if (settled) return;
          settled = true;
          await this.counters.update(keys, this.now(), ([byAddress, byOrder, here]) => {
            byAddress!.count = Math.max(0, byAddress!.count - 1);
            byAddress!.notBefore = begun.delayBefore;
            byOrder!.count = Math.max(0, byOrder!.count - 1);
            here!.count = Math.max(0, here!.count - 1);
          });
        },
        failed: () => {
          settled = true;
        },
      },
    };
  }
}
