// What every counter store must do for a rate (add), a check that changes nothing (read) and both at once
// (addAndRead), in memory and, when the
// tests run on PostgreSQL, in the shared table: an intake key's orders per second are counted exactly however many
// requests arrive at once.
import { describe, expect, it } from 'vitest';
import { counterStores } from './helpers/counter-stores.js';

const start = Date.UTC(2026, 10, 25, 9);
const perSecond = { key: 'r|key-1', windowMs: 1000 };

describe.each(counterStores())('Expiring counters $name', (store) => {
  it('gives each of 20 simultaneous requests its own count, 1 to 20, within one window', async () => {
    const counters = store.open();
    const counts = await Promise.all(Array.from({ length: 20 }, () => counters.add(perSecond, start)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(counts.map((c) => c.resetAt))).toEqual(new Set([start + 1000]));
  });

  it('starts counting again once the window has passed', async () => {
    const counters = store.open();
    await counters.add(perSecond, start);
    await counters.add(perSecond, start + 500);
    expect(await counters.add(perSecond, start + 1000)).toEqual({ count: 1, resetAt: start + 2000, notBefore: 0 });
  });

  it('reads a counter without changing it, and an unknown or passed one as zero', async () => {
    const counters = store.open();
    expect(await counters.read(perSecond, start)).toEqual({ count: 0, resetAt: start + 1000, notBefore: 0 });
    expect((await counters.add(perSecond, start)).count).toBe(1);
    expect((await counters.read(perSecond, start + 10)).count).toBe(1);
    expect((await counters.read(perSecond, start + 20)).count).toBe(1);
    expect((await counters.read(perSecond, start + 1000)).count).toBe(0);
  });

  it('keeps one key apart from another, and sees what update() did', async () => {
    const counters = store.open();
    await counters.update([perSecond], start, ([c]) => {
      c!.count += 3;
    });
    await counters.add({ key: 'r|key-2', windowMs: 1000 }, start);
    expect((await counters.add(perSecond, start)).count).toBe(4);
    expect((await counters.read({ key: 'r|key-2', windowMs: 1000 }, start)).count).toBe(1);
  });

  it('adds to one counter and reads another in one step, changing only the first', async () => {
    const counters = store.open();
    const failures = { key: 'f|198.51.100.7', windowMs: 15 * 60_000 };
    expect(await counters.addAndRead(perSecond, failures, start)).toEqual([
      { count: 1, resetAt: start + 1000, notBefore: 0 },
      { count: 0, resetAt: start + 15 * 60_000, notBefore: 0 },
    ]);
    await counters.add(failures, start);
    await counters.add(failures, start + 10);
    const [rate, read] = await counters.addAndRead(perSecond, failures, start + 20);
    expect(rate.count).toBe(2);
    expect(read).toEqual({ count: 2, resetAt: start + 15 * 60_000, notBefore: 0 });
    expect((await counters.read(failures, start + 30)).count).toBe(2);
    const counts = await Promise.all(
      Array.from({ length: 10 }, () => counters.addAndRead(perSecond, failures, start + 40)),
    );
    expect(counts.map(([c]) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 3));
    // A passed window counts afresh on the added key and reads as zero on the other.
    const [fresh, passed] = await counters.addAndRead(perSecond, failures, start + 15 * 60_000);
    expect(fresh).toEqual({ count: 1, resetAt: start + 15 * 60_000 + 1000, notBefore: 0 });
    expect(passed.count).toBe(0);
  });
});
