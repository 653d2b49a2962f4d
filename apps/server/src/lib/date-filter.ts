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
