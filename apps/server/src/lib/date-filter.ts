// A UTC calendar date typed into a page's filter (the reports, Activity), checked the same way on every page.
import { AppError } from './errors.js';

/** A real calendar date ('2026-02-30' is refused rather than rolled over). */
export function checkDate(value: string | undefined, label: string, field: string): string | null {
  if (value === undefined || value === '') return null;
  const at = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value) {
    const message = `${label} is not a valid date.`;
    throw new AppError('VALIDATION_FAILED', message, { fields: { [field]: message } });
  }
  return value;
}

/** A From/To pair of such dates, From not after To (each may be absent). */
export function checkDateRange(range: { fromDate?: string | undefined; toDate?: string | undefined }): {
  from: string | null;
  to: string | null;
} {
  const from = checkDate(range.fromDate, 'From date', 'fromDate');
  const to = checkDate(range.toDate, 'To date', 'toDate');
  if (from && to && from > to) {
    throw new AppError('VALIDATION_FAILED', 'From date must be on or before To date.', {
      fields: { fromDate: 'From date must be on or before To date.' },
    });
  }
  return { from, to };
}

const DAY_MS = 86_400_000;

/** The instants a date range covers: from the start of From (UTC) until the end of To. */
export function rangeInstants(range: { from: string | null; to: string | null }): {
  from: Date | null;
  until: Date | null;
} {
  return {
    from: range.from ? new Date(`${range.from}T00:00:00Z`) : null,
    until: range.to ? new Date(new Date(`${range.to}T00:00:00Z`).getTime() + DAY_MS) : null,
  };
}
