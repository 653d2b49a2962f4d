import { describe, expect, it } from 'vitest';
import { WindowCounters } from './window-counters.js';

describe('WindowCounters', () => {
  it('keeps a count per key within its window and starts again after it', () => {
    const counters = new WindowCounters();
    counters.get('a', 1_000, 0).count += 2;
    counters.get('b', 1_000, 0).count += 1;
    expect(counters.get('a', 1_000, 999).count).toBe(2);
    expect(counters.get('b', 1_000, 500).count).toBe(1);
    expect(counters.get('a', 1_000, 1_000)).toEqual({ count: 0, resetAt: 2_000, notBefore: 0 });
    counters.delete('b');
    expect(counters.get('b', 1_000, 1_500).count).toBe(0);
  });

  it('forgets passed windows as checks go on, and keeps the current ones of every window length', () => {
    const counters = new WindowCounters();
    for (let i = 0; i < 10_000; i += 1) counters.get(`old-${i}`, 1_000, 0).count = 1;
    counters.get('live', 60_000, 0).count = 5;
    expect(counters.size).toBe(10_001);
    // Later checks drop the passed windows a few at a time; a passed window reads as a fresh counter meanwhile.
    expect(counters.get('old-1', 1_000, 5_000).count).toBe(0);
    for (let i = 0; i < 5_000; i += 1) counters.get(`new-${i % 10}`, 1_000, 5_000);
    expect(counters.size).toBe(1 + 1 + 10); // 'live', the renewed 'old-1' and the ten new keys
    expect(counters.get('live', 60_000, 5_000).count).toBe(5);
  });

  // A flood from rotating addresses, none of whose windows has passed: with a scan per check (the counters before
  // issue 22) these 300,000 checks take hours and the test times out; each check is O(1) now.
  it('a flood of 300,000 fresh keys within one window neither slows the checks nor grows past the bound', () => {
    const counters = new WindowCounters(100_000);
    counters.get('owner', 60 * 60_000, 0).count = 3;
    for (let i = 0; i < 300_000; i += 1)
      counters.get(`a|198.51.${i >> 8}.${i & 255}`, 15 * 60_000, i / 1000).count += 1;
    expect(counters.size).toBe(100_001);
    // The bound drops the oldest counters of the flooded window length; other lengths keep theirs.
    expect(counters.get('owner', 60 * 60_000, 400).count).toBe(3);
    expect(counters.get('a|198.51.0.0', 15 * 60_000, 400).count).toBe(0);
    expect(counters.get(`a|198.51.${299_999 >> 8}.${299_999 & 255}`, 15 * 60_000, 400).count).toBe(1);
  });
});
