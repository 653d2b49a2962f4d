// The sign-in counters over hours of simulated time: what an attacker and the owner each get.
import { describe, expect, it } from 'vitest';
import { counterStores } from './helpers/counter-stores.js';
import { LoginThrottle, NEW_ADDRESS_TRIES_DURING_LOCK } from '../src/modules/auth/login-throttle.js';

const limits = { perAccountAndAddress: 5, perAccount: 30, perAddress: 30 };

function clock() {
  let now = Date.UTC(2026, 10, 21, 9);
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const fail = async (throttle: LoginThrottle, account: string, address: string) => {
  const r = await throttle.begin(account, address);
  if ('refused' in r) return r.refused;
  await r.attempt.failed();
  return null;
};

describe.each(counterStores())('LoginThrottle with its counters $name', (store) => {
  it('an attacker at one address trying every minute for a day never locks the owner out elsewhere', async () => {
    const c = clock();
    const throttle = new LoginThrottle(limits, c.now, store.open());
    let verified = 0;
    for (let minute = 0; minute < 24 * 60; minute += 1) {
      if ((await fail(throttle, 'owner@x.test', '203.0.113.1')) === null) verified += 1;
      const owner = await throttle.begin('owner@x.test', '192.0.2.1');
      expect('attempt' in owner, `minute ${minute}`).toBe(true);
      if ('attempt' in owner) await owner.attempt.succeeded();
      c.advance(60_000);
    }
    // 5 guesses per 15 minutes is all one address gets.
    expect(verified).toBe(96 * 5);
  });

  it('locks an account under a distributed attack with a delay that doubles while attacks continue', async () => {
    const c = clock();
    const throttle = new LoginThrottle(limits, c.now, store.open());
    const lockMinutes: number[] = [];
    let address = 0;
    for (let round = 0; round < 4; round += 1) {
      let refusal = null;
      while (refusal === null) {
        address += 1;
        const r = await throttle.begin('owner@x.test', `198.51.${Math.floor(address / 250)}.${address % 250}`);
        if ('refused' in r) refusal = r.refused;
        else refusal = (await r.attempt.failed()) ?? null;
      }
      lockMinutes.push(refusal.retryAfterMs / 60_000);
      c.advance(refusal.retryAfterMs);
    }
    expect(lockMinutes).toEqual([1, 2, 4, 8]);
  });

  it('six addresses lock the account, yet the owner signs in from the office and from a new address', async () => {
    const c = clock();
    const throttle = new LoginThrottle(limits, c.now, store.open());
    const signIn = async (address: string) => {
      const r = await throttle.begin('owner@x.test', address);
      if ('refused' in r) return r.refused;
      await r.attempt.succeeded();
      return r.attempt.duringLock ? 'during lock' : 'signed in';
    };
    expect(await signIn('192.0.2.1')).toBe('signed in'); // the office, yesterday
    c.advance(24 * 60 * 60_000);
    const attackers = Array.from({ length: 6 }, (_, i) => `203.0.113.${i + 1}`);
    for (const address of attackers) for (let i = 0; i < 5; i += 1) await fail(throttle, 'owner@x.test', address);
    // The account is locked: the attackers' addresses stay refused, the office is not.
    for (const address of attackers) expect(await fail(throttle, 'owner@x.test', address)).not.toBeNull();
    expect(await signIn('192.0.2.1')).toBe('during lock');
    // An address new to the account gets its try too, but only a few such addresses per lock.
    expect(await signIn('198.51.100.7')).toBe('during lock');
    let newAddresses = 1;
    while ((await fail(throttle, 'owner@x.test', `198.51.100.${100 + newAddresses}`)) === null) newAddresses += 1;
    expect(newAddresses).toBe(NEW_ADDRESS_TRIES_DURING_LOCK);
    expect(await signIn('198.51.100.250')).toMatchObject({ scope: 'account' });
    expect(await signIn('192.0.2.1')).toBe('during lock');
  });

  it('gives a reservation back when the attempt ends without an answer', async () => {
    const throttle = new LoginThrottle({ ...limits, perAccountAndAddress: 1 }, clock().now, store.open());
    const first = await throttle.begin('a@x.test', '192.0.2.1');
    if (!('attempt' in first)) throw new Error('refused');
    expect('refused' in (await throttle.begin('a@x.test', '192.0.2.1'))).toBe(true);
    await first.attempt.abandoned();
    expect('attempt' in (await throttle.begin('a@x.test', '192.0.2.1'))).toBe(true);
  });
});
