// The sign-in counters over hours of simulated time: what an attacker and the owner each get.
import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';

const limits = { perAccountAndAddress: 5, perAccount: 30, perAddress: 30 };

function clock() {
  let now = Date.UTC(2026, 10, 21, 9);
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const fail = (throttle: LoginThrottle, account: string, address: string) => {
  const r = throttle.begin(account, address);
  if ('refused' in r) return r.refused;
  r.attempt.failed();
  return null;
};

describe('LoginThrottle', () => {
  it('an attacker at one address trying every minute for a day never locks the owner out elsewhere', () => {
    const c = clock();
    const throttle = new LoginThrottle(limits, c.now);
    let verified = 0;
    for (let minute = 0; minute < 24 * 60; minute += 1) {
      if (fail(throttle, 'owner@x.test', '203.0.113.1') === null) verified += 1;
      const owner = throttle.begin('owner@x.test', '192.0.2.1');
      expect('attempt' in owner, `minute ${minute}`).toBe(true);
      if ('attempt' in owner) owner.attempt.succeeded();
      c.advance(60_000);
    }
    // 5 guesses per 15 minutes is all one address gets.
    expect(verified).toBe(96 * 5);
  });

  it('locks an account under a distributed attack with a delay that doubles while attacks continue', () => {
    const c = clock();
    const throttle = new LoginThrottle(limits, c.now);
    const lockMinutes: number[] = [];
    let address = 0;
    for (let round = 0; round < 4; round += 1) {
      let refusal = null;
      while (refusal === null) {
        address += 1;
        const r = throttle.begin('owner@x.test', `198.51.${Math.floor(address / 250)}.${address % 250}`);
        if ('refused' in r) refusal = r.refused;
        else refusal = r.attempt.failed() ?? null;
      }
      lockMinutes.push(refusal.retryAfterMs / 60_000);
      c.advance(refusal.retryAfterMs);
    }
    expect(lockMinutes).toEqual([1, 2, 4, 8]);
  });

  it('gives a reservation back when the attempt ends without an answer', () => {
    const throttle = new LoginThrottle({ ...limits, perAccountAndAddress: 1 }, clock().now);
    const first = throttle.begin('a@x.test', '192.0.2.1');
    if (!('attempt' in first)) throw new Error('refused');
    expect('refused' in throttle.begin('a@x.test', '192.0.2.1')).toBe(true);
    first.attempt.abandoned();
    expect('attempt' in throttle.begin('a@x.test', '192.0.2.1')).toBe(true);
  });
});
