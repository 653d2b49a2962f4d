// US Eastern times (spec §9) read the same as Intl's own America/New_York formatting, across the DST changes.
import { describe, expect, it } from 'vitest';
import { easternParts } from '@eta/contracts';
import { isoTime, usEastern } from './time.js';

const reference = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});
const expected = (at: Date) => {
  const p = Object.fromEntries(reference.formatToParts(at).map((x) => [x.type, x.value]));
  return {
    year: p.year,
    month: p.month,
    day: p.day,
    hour: p.hour,
    minute: p.minute,
    second: p.second,
    zone: p.timeZoneName,
  };
};

describe('easternParts', () => {
  it('agrees with Intl minute by minute around the spring and autumn changes of 2026', () => {
    for (const start of ['2026-03-08T04:00:00Z', '2026-11-01T03:00:00Z']) {
      for (let minute = 0; minute < 6 * 60; minute += 1) {
        const at = new Date(Date.parse(start) + minute * 60_000 + 17_000);
        expect(easternParts(at), at.toISOString()).toEqual(expected(at));
      }
    }
  });

  it('agrees with Intl at instants spread over fifty years', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const from = Date.parse('1990-01-01T00:00:00Z');
    const span = Date.parse('2040-01-01T00:00:00Z') - from;
    for (let i = 0; i < 5_000; i += 1) {
      const at = new Date(from + Math.floor(next() * span));
      expect(easternParts(at), at.toISOString()).toEqual(expected(at));
    }
  });

  it('labels winter EST and summer EDT on the 24-hour clock', () => {
    expect(usEastern(new Date('2026-01-15T23:30:05Z'))).toEqual({ us_date: '01/15/2026', us_time: '18:30:05 EST' });
    expect(usEastern(new Date('2026-07-04T03:04:05Z'))).toEqual({ us_date: '07/03/2026', us_time: '23:04:05 EDT' });
  });

  it('refuses an invalid date as Intl does', () => {
    expect(() => easternParts(new Date('not a date'))).toThrow(RangeError);
  });
});

describe('isoTime', () => {
  it('writes the ISO text of Date#toISOString for every form PostgreSQL gives a UTC timestamp in', () => {
    const fractions = ['', '.5', '.07', '.070123', '.999999', '.0709'];
    for (let i = 0; i < 2000; i++) {
      const at = new Date(Date.UTC(1990, 0, 1) + Math.floor(Math.random() * 60 * 365 * 86_400) * 1000);
      const [date, time] = at.toISOString().slice(0, 19).split('T');
      const fraction = fractions[i % fractions.length];
      for (const text of [`${date}T${time}${fraction}+00:00`, `${date} ${time}${fraction}+00`]) {
        expect(isoTime(text), text).toBe(new Date(text).toISOString());
      }
    }
  });

  it('leaves any other text and Date values to Date', () => {
    const at = new Date('2026-11-20T11:57:57.070Z');
    expect(isoTime(at)).toBe('2026-11-20T11:57:57.070Z');
    expect(isoTime('2026-11-20T06:57:57.07-05:00')).toBe('2026-11-20T11:57:57.070Z');
    expect(() => isoTime('not a time')).toThrow(RangeError);
  });
});
