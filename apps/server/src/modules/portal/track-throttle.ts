// Guessing limits of the public tracking form (DESIGN §4): failed attempts per client address and per order id.
// As with sign-in (auth/login-throttle.ts), every attempt reserves its place in both counters synchronously
// before the database is asked, so a burst of parallel guesses gets no more tries than the limits; a proven
// pair gives its reservation back. The per-order counter stops someone guessing one order's e-mail from many
// addresses; it also pauses tracking of that order for its owner until the window passes, which the limit's
// message says. The counters live in this process (docs/ARCHITECTURE.md).
import { WindowCounters } from '../../lib/window-counters.js';

export const ADDRESS_WINDOW_MS = 15 * 60_000;
export const ORDER_WINDOW_MS = 60 * 60_000;

export interface TrackLimits {
  /** Failed attempts per client address per 15 minutes. */
  perAddress: number;
  /** Failed attempts per order id per hour. */
  perOrder: number;
}

export interface TrackAttempt {
  /** The pair matched, or the attempt ended without an answer (an error): both reservations are given back. */
  release(): void;
  /** The pair did not match (or the order does not exist): the reservations stay. */
  failed(): void;
}

export class TrackThrottle {
  private readonly counters = new WindowCounters();

  constructor(
    private readonly limits: TrackLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves one attempt, or says how long until this address or order may try again. Never awaits. */
  begin(address: string, orderId: string): { attempt: TrackAttempt } | { retryAfterMs: number } {
    const now = this.now();
    const byAddress = this.counters.get(`a|${address}`, ADDRESS_WINDOW_MS, now);
    const byOrder = this.counters.get(`o|${orderId}`, ORDER_WINDOW_MS, now);
    if (byAddress.count >= this.limits.perAddress) return { retryAfterMs: byAddress.resetAt - now };
    if (byOrder.count >= this.limits.perOrder) return { retryAfterMs: byOrder.resetAt - now };
    byAddress.count += 1;
    byOrder.count += 1;
    let settled = false;
    return {
      attempt: {
        release: () => {
          if (settled) return;
          settled = true;
          byAddress.count = Math.max(0, byAddress.count - 1);
          byOrder.count = Math.max(0, byOrder.count - 1);
        },
        failed: () => {
          settled = true;
        },
      },
    };
  }
}
