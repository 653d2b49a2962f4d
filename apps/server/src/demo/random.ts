// Seeded pseudo-random numbers for the demo data (mulberry32): one seed always yields the same data.

export type Weights<T> = readonly (readonly [T, number])[];

const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const ALNUM = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';
const LOWER_ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz';

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Fills a pattern: '#' a digit, '@' a capital letter, '*' a digit or capital, '%' lower-case alphanumeric. */
  pattern(p: string): string {
    let out = '';
    for (const ch of p) {
      if (ch === '#') out += String(Math.floor(this.next() * 10));
      else if (ch === '@') out += LETTERS[Math.floor(this.next() * LETTERS.length)];
      else if (ch === '*') out += ALNUM[Math.floor(this.next() * ALNUM.length)];
      else if (ch === '%') out += LOWER_ALNUM[Math.floor(this.next() * LOWER_ALNUM.length)];
      else out += ch;
    }
    return out;
  }
}

/** A weighted choice with its cumulative table computed once (picked millions of times in a large load). */
export class Weighted<T> {
  private readonly items: T[];
  private readonly cumulative: number[];
  private readonly total: number;

  constructor(entries: Weights<T>) {
    this.items = entries.map(([item]) => item);
    let sum = 0;
    this.cumulative = entries.map(([, w]) => (sum += w));
    this.total = sum;
  }

  pick(rng: Random): T {
    return this.at(rng.next());
  }

  /** The item at `u` in [0, 1) of the cumulative weights (a choice that draws nothing from the PRNG). */
  at(u: number): T {
    const x = u * this.total;
    let i = 0;
    while (this.cumulative[i]! <= x) i++;
    return this.items[i]!;
  }
}
