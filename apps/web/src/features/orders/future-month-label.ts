// The Future queue's months. It holds processing dates after today and at most about a year ahead, so its twelve
// months run from the current one (in UTC, the server's "today"): a month before the current one is next year's.
// Each is named with its year, in time order ("Nov 2026", "Dec 2026", "Jan 2027" …).
import { MONTH_LABELS } from '@eta/contracts/domain';

export interface FutureMonth {
  /** 1-12, as the list's `?month=` filter takes it. */
  month: number;
  year: number;
  /** "Nov 2026". */
  label: string;
}

export function futureMonths(today: Date = new Date()): FutureMonth[] {
  const first = today.getUTCMonth();
  return MONTH_LABELS.map((_, i) => {
    const index = (first + i) % 12;
    const year = today.getUTCFullYear() + Math.floor((first + i) / 12);
    return { month: index + 1, year, label: `${MONTH_LABELS[index]} ${year}` };
  });
}

export function futureMonthLabel(month: number, today: Date = new Date()): string {
  return futureMonths(today).find((entry) => entry.month === month)?.label ?? '';
}
