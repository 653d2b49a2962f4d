// Sign-in throttling after the OWASP Authentication Cheat Sheet, in three counters:
// - per (account, client address): a short lock after a few failures, so guessing from one place stops;
// - per account across all addresses: a higher threshold with a growing lock, against distributed guessing.
//   It is set above what one address can ever reach (see config), so an attacker at one address cannot
//   lock the owner out at another;
// - per client address: failed attempts only, so colleagues behind one office address who sign in
//   correctly never lock each other out.
// An account lock must not lock the owner out (issue 22: six addresses were enough). While it holds, an address
// that has never failed for the account still gets its attempt: always when the account signed in from there
// before (the owner's office, remembered 30 days), and otherwise within a small budget of such tries per lock
// window, so rotating addresses cannot turn the lock into unlimited guesses. The service records a sign-in made
// during a lock as a security event. Every attempt reserves its place BEFORE the password is verified,
// in one step with its check (ExpiringCounters.update: a row lock in PostgreSQL when several processes share the
// limits), so no burst of parallel requests, on one server or several, gets more verifications than the limits
// allow. A success gives the reservations back. The counters are the limits' expiring counters (lib/limits).
import { WindowCounters, type ExpiringCounters, type WindowCounter } from '../../lib/limits/window-counters.js';

export const PAIR_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_WINDOW_MS = 60 * 60_000;
export const ADDRESS_WINDOW_MS = 5 * 60_000;
const FIRST_ACCOUNT_LOCK_MS = 60_000;
const MAX_ACCOUNT_LOCK_MS = 60 * 60_000;
/** Account locks double while they keep coming; a day after the first one they start again at the first step. */
const STRIKES_WINDOW_MS = 24 * 60 * 60_000;
/** How long an address the account signed in from counts as the owner's. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;
/** Attempts from addresses new to the account while it is locked, per account window. */
export const NEW_ADDRESS_TRIES_DURING_LOCK = 3;

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
  /** Made while the account was locked, from an address that had not failed for it. */
  readonly duringLock: boolean;
  /** The password was right: the reservations are given back and the pair starts afresh. */
  succeeded(): Promise<void>;
  /** The password was wrong: the reservations stay. Returns the lock this failure started, if any. */
  failed(): Promise<Refusal | null>;
  /** The attempt ended without an answer (an error): the reservations are given back. */
  abandoned(): Promise<void>;
}

const giveBack = (counter: WindowCounter) => {
  counter.count = Math.max(0, counter.count - 1);
};

export class LoginThrottle {
  constructor(
    private readonly limits: LoginThrottleLimits,
    private readonly now: () => number = Date.now,
    private readonly counters: ExpiringCounters = new WindowCounters(),
  ) {}

  /** Reserves one attempt, or says why and for how long sign-in is refused. The check and the reservation are one step. */
  async begin(account: string, address: string): Promise<{ attempt: Attempt } | { refused: Refusal }> {
    const keys = {
      address: { key: `a|${address}`, windowMs: ADDRESS_WINDOW_MS },
      pair: { key: `p|${account}|${address}`, windowMs: PAIR_WINDOW_MS },
      account: { key: `u|${account}`, windowMs: ACCOUNT_WINDOW_MS },
      /** The account's locks of the day: `count` is the strikes, `notBefore` the end of the current lock. */
      lock: { key: `l|${account}`, windowMs: STRIKES_WINDOW_MS },
      /** This address's failures for the account within the account's window (not given back by a success). */
      failedHere: { key: `f|${account}|${address}`, windowMs: ACCOUNT_WINDOW_MS },
      /** The account signed in from this address (the owner's, for 30 days). */
      known: { key: `k|${account}|${address}`, windowMs: KNOWN_ADDRESS_MS },
      /** Tries from addresses new to the account during its lock. */
      newTries: { key: `n|${account}`, windowMs: ACCOUNT_WINDOW_MS },
    };
    const now = this.now();
    const begun = await this.counters.update<{ refused: Refusal } | { duringLock: boolean }>(
      [keys.address, keys.pair, keys.account, keys.lock, keys.failedHere, keys.known, keys.newTries],
      now,
      ([addressCounter, pairCounter, accountCounter, lock, failedHere, known, newTries]) => {
        if (addressCounter!.count >= this.limits.perAddress) {
          return { refused: { scope: 'address', retryAfterMs: addressCounter!.resetAt - now } };
        }
        if (pairCounter!.count >= this.limits.perAccountAndAddress) {
          return { refused: { scope: 'pair', retryAfterMs: pairCounter!.resetAt - now } };
        }
        let duringLock = false;
        const locked =
          lock!.notBefore > now
            ? lock!.notBefore - now
            : accountCounter!.count >= this.limits.perAccount
              ? accountCounter!.resetAt - now
              : 0;
        if (locked > 0) {
          const isKnown = known!.count > 0;
          if (failedHere!.count > 0 || (!isKnown && newTries!.count >= NEW_ADDRESS_TRIES_DURING_LOCK)) {
            return { refused: { scope: 'account', retryAfterMs: locked } };
          }
          if (!isKnown) newTries!.count += 1;
          duringLock = true;
        }
        addressCounter!.count += 1;
        pairCounter!.count += 1;
        accountCounter!.count += 1;
        return { duringLock };
      },
    );
    if ('refused' in begun) return begun;

    let settled = false;
    const settle = () => {
      const first = !settled;
      settled = true;
      return first;
    };
    return {
      attempt: {
        duringLock: begun.duringLock,
        succeeded: async () => {
          if (!settle()) return;
          await this.counters.update(
            [keys.address, keys.account, keys.pair, keys.known],
            this.now(),
            ([addressCounter, accountCounter, pairCounter, known]) => {
              giveBack(addressCounter!);
              giveBack(accountCounter!);
              pairCounter!.count = 0;
              known!.count = 1;
            },
          );
        },
        abandoned: async () => {
          if (!settle()) return;
          await this.counters.update(
            [keys.address, keys.account, keys.pair],
            this.now(),
            ([addressCounter, accountCounter, pairCounter]) => {
              giveBack(addressCounter!);
              giveBack(accountCounter!);
              giveBack(pairCounter!);
            },
          );
        },
        failed: async () => {
          if (!settle()) return null;
          const at = this.now();
          return this.counters.update(
            [keys.failedHere, keys.account, keys.lock, keys.pair, keys.address],
            at,
            ([failedHere, accountCounter, lock, pairCounter, addressCounter]): Refusal | null => {
              failedHere!.count += 1;
              if (accountCounter!.count >= this.limits.perAccount) return this.lockAccount(lock!, accountCounter!, at);
              if (pairCounter!.count >= this.limits.perAccountAndAddress) {
                return { scope: 'pair', retryAfterMs: pairCounter!.resetAt - at };
              }
              if (addressCounter!.count >= this.limits.perAddress) {
                return { scope: 'address', retryAfterMs: addressCounter!.resetAt - at };
              }
              return null;
            },
          );
        },
      },
    };
  }

  /** Locks the account for a time that doubles with each lock of the day (its `count` is the strikes). */
  private lockAccount(lock: WindowCounter, counter: WindowCounter, now: number): Refusal {
    if (lock.notBefore > now) return { scope: 'account', retryAfterMs: lock.notBefore - now };
    lock.count += 1;
    const duration = Math.min(FIRST_ACCOUNT_LOCK_MS * 2 ** (lock.count - 1), MAX_ACCOUNT_LOCK_MS);
    lock.notBefore = now + duration;
    counter.count = 0;
    return { scope: 'account', retryAfterMs: duration };
  }
}
