import { describe, expect, it } from 'vitest';
import { WindowCounters } from './window-counters.js';

describe('WindowCounters', () => {
  it('keeps a count per key within its window and starts again after it', () => {
    const counters = new WindowCounters();
    counters.get('a', 1_000, 0).count += 2;
    counters.get('b', 1_000, 0).count += 1;
    expect(counters.get('a', 1_000, 999).count).toBe(2);
    expect(counters.get('b', 1_000, 500).count).toBe(1);
    expect(counters.get('a', 1_000, 1_000)).toEqual({ count: 0, resetAt: 2_000 });
    counters.delete('b');
    expect(counters.get('b', 1_000, 1_500).count).toBe(0);
  });

  it('forgets passed windows once it holds many keys, and keeps the current ones', () => {
    const counters = new WindowCounters();
    for (let i = 0; i <= 10_000; i += 1) counters.get(`old-${i}`, 1_000, 0).count = 1;
    counters.get('live', 60_000, 0).count = 5;
    counters.get('new', 1_000, 5_000);
    // A passed window reads as a fresh counter whether or not it was swept; the live one survives the sweep.
    expect(counters.get('live', 60_000, 5_000).count).toBe(5);
    expect(counters.get('old-1', 1_000, 5_000).count).toBe(0);
  });
});
