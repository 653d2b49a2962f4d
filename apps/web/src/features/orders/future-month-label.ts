// Which year a Future month stands for. The Future queue holds processing dates after today and at most about a
// year ahead, so a month before the current one (in UTC, the server's "today") is next year's and says so.
import { MONTH_LABELS } from '@eta/contracts/domain';

export function futureMonthLabel(month: number, today: Date = new Date()): string {
  const label = MONTH_LABELS[month - 1] ?? '';
  return month < today.getUTCMonth() + 1 ? `${label} ${today.getUTCFullYear() + 1}` : label;
}
