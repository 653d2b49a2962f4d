// An order's urgency and waiting time in words (issue 35), the same on list rows, Waiting too long and the order's
// page. Apart from format.ts, which the customer portal's small bundle shares.
import type { ProcessStatus } from '@eta/contracts';
import { OPEN_STATUSES, STATUS_LABELS } from '@eta/contracts/domain';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Whether an order in this status is still to be finished (only those are urgent or late). */
export const isOpenStatus = (status: string): boolean => (OPEN_STATUSES as readonly string[]).includes(status);

/** A span of time, whole units rounded down: under an hour '25 min', under two days '30 h', else '3 days'. */
export function formatDuration(ms: number): string {
  const span = Math.max(0, ms);
  if (span < HOUR_MS) return `${Math.floor(span / MINUTE_MS)} min`;
  if (span < 2 * DAY_MS) return `${Math.floor(span / HOUR_MS)} h`;
  return `${Math.floor(span / DAY_MS)} days`;
}

/**
 * An urgent order's travel in words: 'Travels today' once its travel time has passed (the date is still today),
 * 'Travels in 5 h' under a day (at least 1 h), else in days rounded to the nearest ('Travels in 1 day', '… 2 days').
 */
export function describeTravel(travelAt: string, now: number = Date.now()): string {
  const hoursLeft = (new Date(travelAt).getTime() - now) / HOUR_MS;
  if (!(hoursLeft > 0)) return 'Travels today';
  if (hoursLeft < 24) return `Travels in ${Math.max(1, Math.floor(hoursLeft))} h`;
  const days = Math.round(hoursLeft / 24);
  return `Travels in ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** An open order's time in its status, '2 h in Pending'; a closed order's status alone ('Completed'). */
export function describeTimeInStatus(status: ProcessStatus, since: string, now: number = Date.now()): string {
  const label = STATUS_LABELS[status] ?? status;
  const start = Date.parse(since);
  if (!isOpenStatus(status) || Number.isNaN(start)) return label;
  return `${formatDuration(now - start)} in ${label}`;
}

/** A target time in minutes as a person reads it: '45 min', '2 h', '1.5 h'; null (no target) as 'no target'. */
export function formatTargetMinutes(minutes: number | null): string {
  if (minutes === null) return 'no target';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.round((minutes / 60) * 100) / 100} h`;
}
