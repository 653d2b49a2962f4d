import { describe, expect, it } from 'vitest';
import { describeTimeInStatus, describeTravel, formatDuration, formatTargetMinutes } from './order-timing';

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
const at = (hoursFromNow: number) => new Date(NOW + hoursFromNow * HOUR).toISOString();

describe('an urgent order’s travel in words', () => {
  it.each([
    [-3, 'Travels today'],
    [0, 'Travels today'],
    [0.2, 'Travels in 1 h'],
    [5.9, 'Travels in 5 h'],
    [23.9, 'Travels in 23 h'],
    [24, 'Travels in 1 day'],
    [35.9, 'Travels in 1 day'],
    [36, 'Travels in 2 days'],
    [50, 'Travels in 2 days'],
    [71, 'Travels in 3 days'],
  ])('%s h before the flight reads “%s”', (hours, words) => {
    expect(describeTravel(at(hours), NOW)).toBe(words);
  });
});

describe('time in a status', () => {
  it.each([
    [0, '0 min'],
    [59 * 60_000, '59 min'],
    [HOUR, '1 h'],
    [47.9 * HOUR, '47 h'],
    [48 * HOUR, '2 days'],
    [10.5 * 24 * HOUR, '10 days'],
  ])('%s ms reads “%s”', (ms, words) => {
    expect(formatDuration(ms)).toBe(words);
  });

  it('names an open status with its time in it, a closed one alone', () => {
    expect(describeTimeInStatus('Pending', at(-2), NOW)).toBe('2 h in Pending');
    expect(describeTimeInStatus('Awaiting', at(-0.5), NOW)).toBe('30 min in Awaiting Response');
    expect(describeTimeInStatus('Contact Customer', at(-72), NOW)).toBe('3 days in Contact Customer');
    expect(describeTimeInStatus('Completed', at(-2), NOW)).toBe('Completed');
    expect(describeTimeInStatus('ChargeBack', at(-2), NOW)).toBe('Charge Back');
  });
});

describe('a target time', () => {
  it('reads in minutes under an hour, else in hours; none as “no target”', () => {
    expect(formatTargetMinutes(45)).toBe('45 min');
    expect(formatTargetMinutes(120)).toBe('2 h');
    expect(formatTargetMinutes(90)).toBe('1.5 h');
    expect(formatTargetMinutes(1440)).toBe('24 h');
    expect(formatTargetMinutes(null)).toBe('no target');
  });
});
