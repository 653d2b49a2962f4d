// The tracking limits over simulated time: what a guesser and the customer each get.
import { describe, expect, it } from 'vitest';
import { counterStores } from './helpers/counter-stores.js';
import { delayAfter, TrackThrottle } from '../src/modules/portal/track-throttle.js';

function clock() {
  let now = Date.UTC(2026, 10, 21, 9);
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe.each(counterStores())('TrackThrottle with its counters $name', (store) => {
  it('makes one address wait longer after each wrong guess past the first three, up to a minute', async () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(delayAfter)).toEqual([
      0, 0, 0, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000,
    ]);
    const c = clock();
    const throttle = new TrackThrottle({ perAddress: 100, perOrder: 100 }, c.now, store.open());
    const waits: number[] = [];
    for (let guess = 0; guess < 8; guess += 1) {
      const r = await throttle.begin('203.0.113.1', 'ETA-200000001');
      if (!('attempt' in r)) throw new Error(`guess ${guess} refused`);
      r.attempt.failed();
      const next = await throttle.begin('203.0.113.1', 'ETA-200000002');
      waits.push('retryAfterMs' in next ? next.retryAfterMs : 0);
      if ('attempt' in next) await next.attempt.release();
      c.advance(waits.at(-1)!);
    }
    expect(waits).toEqual([0, 0, 0, 1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('a proven pair gives its place back: the customer is never slowed by their own right answers', async () => {
    const throttle = new TrackThrottle({ perAddress: 3, perOrder: 3 }, clock().now, store.open());
    for (let i = 0; i < 20; i += 1) {
      const r = await throttle.begin('192.0.2.1', 'ETA-200000001');
      if (!('attempt' in r)) throw new Error(`try ${i} refused`);
      await r.attempt.release();
    }
  });

  it('the per-order limit stops the addresses that failed for that order, not a new one', async () => {
    const c = clock();
    const throttle = new TrackThrottle({ perAddress: 100, perOrder: 10 }, c.now, store.open());
    for (let i = 0; i < 50; i += 1) {
      const r = await throttle.begin(`203.0.113.${i % 5}`, 'ETA-200000001');
      if ('attempt' in r) r.attempt.failed();
      c.advance(61_000);
    }
    expect('retryAfterMs' in (await throttle.begin('203.0.113.0', 'ETA-200000001'))).toBe(true);
    expect('attempt' in (await throttle.begin('198.51.100.7', 'ETA-200000001'))).toBe(true);
  });
});
