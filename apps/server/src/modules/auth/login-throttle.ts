// Sign-in throttling after the OWASP Authentication Cheat Sheet, in three counters:
// - per (account, client address): a short lock after a few failures, so guessing from one place stops;
// - per account across all addresses: a higher threshold with a growing lock, against distributed guessing.
//   It is set above what one address can ever reach (see config), so an attacker at one address cannot
//   lock the owner out at another;
// - per client address: failed attempts only, so colleagues behind one office address who sign in
//   correctly never lock each other out.
// Every attempt reserves its place in all three BEFORE the password is verified, synchronously, so no burst
// of parallel requests can get more verifications than the limits allow. A success gives the reservations
// back. The counters live in this process (see docs/ARCHITECTURE.md for several processes).
import { WindowCounters, type WindowCounter } from '../../lib/window-counters.js';

export const PAIR_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_WINDOW_MS = 60 * 60_000;
export const ADDRESS_WINDOW_MS = 5 * 60_000;
const FIRST_ACCOUNT_LOCK_MS = 60_000;
const MAX_ACCOUNT_LOCK_MS = 60 * 60_000;
/** Account locks double while they keep coming; a day without one starts again at the first step. */
const STRIKES_FORGOTTEN_MS = 24 * 60 * 60_000;

export interface LoginThrottleLimits {
  /** Failures per (account, address) per 15 minutes. */
  perAccountAndAddress: number;
  /** Failures per account, all addresses together, per hour. */
  perAccount: number;
  /** Failures per address, all accounts together, per 5 minutes. */
  perAddress: number;
}

export type ThrottleScope = 'address' | 'account' | 'pair';

export interface Refusal {
  scope: ThrottleScope;
  retryAfterMs: number;
}

export interface Attempt {
  /** The password was right: the reservations are given back and the pair starts afresh. */
  succeeded(): void;
  /** The password was wrong: the reservations stay. Returns the lock this failure started, if any. */
  failed(): Refusal | null;
  /** The attempt ended without an answer (an error): the reservations are given back. */
  abandoned(): void;
}

interface AccountLock {
  until: number;
  strikes: number;
}

export class LoginThrottle {
  private readonly counters = new WindowCounters();
  private readonly locks = new Map<string, AccountLock>();

  constructor(
    private readonly limits: LoginThrottleLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves one attempt, or says why and for how long sign-in is refused. Never awaits. */
  begin(account: string, address: string): { attempt: Attempt } | { refused: Refusal } {
    const now = this.now();
    this.forgetOldLocks(now);
    const keys = { address: `a|${address}`, account: `u|${account}`, pair: `p|${account}|${address}` };
    const addressCounter = this.counters.get(keys.address, ADDRESS_WINDOW_MS, now);
    const pairCounter = this.counters.get(keys.pair, PAIR_WINDOW_MS, now);
    const accountCounter = this.counters.get(keys.account, ACCOUNT_WINDOW_MS, now);
    const lock = this.locks.get(account);

    if (addressCounter.count >= this.limits.perAddress) {
      return { refused: { scope: 'address', retryAfterMs: addressCounter.resetAt - now } };
    }
    if (pairCounter.count >= this.limits.perAccountAndAddress) {
      return { refused: { scope: 'pair', retryAfterMs: pairCounter.resetAt - now } };
    }
    if (lock && lock.until > now) return { refused: { scope: 'account', retryAfterMs: lock.until - now } };
    if (accountCounter.count >= this.limits.perAccount) {
      return { refused: { scope: 'account', retryAfterMs: accountCounter.resetAt - now } };
    }

    addressCounter.count += 1;
    pairCounter.count += 1;
    accountCounter.count += 1;
    let settled = false;
    const giveBack = () => {
      addressCounter.count = Math.max(0, addressCounter.count - 1);
      accountCounter.count = Math.max(0, accountCounter.count - 1);
    };
    return {
      attempt: {
        succeeded: () => {
          if (settled) return;
          settled = true;
          giveBack();
          this.counters.delete(keys.pair);
        },
        abandoned: () => {
          if (settled) return;
          settled = true;
          giveBack();
          pairCounter.count = Math.max(0, pairCounter.count - 1);
        },
        failed: () => {
          if (settled) return null;
          settled = true;
          const at = this.now();
          if (accountCounter.count >= this.limits.perAccount) return this.lockAccount(account, accountCounter, at);
          if (pairCounter.count >= this.limits.perAccountAndAddress) {
            return { scope: 'pair', retryAfterMs: pairCounter.resetAt - at };
          }
          if (addressCounter.count >= this.limits.perAddress) {
            return { scope: 'address', retryAfterMs: addressCounter.resetAt - at };
          }
          return null;
        },
      },
    };
  }

  private lockAccount(account: string, counter: WindowCounter, now: number): Refusal {
    const previous = this.locks.get(account);
    if (previous && previous.until > now) return { scope: 'account', retryAfterMs: previous.until - now };
    const strikes = previous && now - previous.until < STRIKES_FORGOTTEN_MS ? previous.strikes + 1 : 1;
    const duration = Math.min(FIRST_ACCOUNT_LOCK_MS * 2 ** (strikes - 1), MAX_ACCOUNT_LOCK_MS);
    this.locks.set(account, { until: now + duration, strikes });
    counter.count = 0;
    return { scope: 'account', retryAfterMs: duration };
  }

  /** Forgets account locks a day old, so accounts that come and go do not pile up. */
  private forgetOldLocks(now: number): void {
    if (this.locks.size <= 10_000) return;
    for (const [key, lock] of this.locks) if (now - lock.until > STRIKES_FORGOTTEN_MS) this.locks.delete(key);
  }
}
