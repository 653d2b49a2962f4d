// A list row's time of purchase: the shared time display (UTC, labelled; US Eastern on hover).
import type { OrderListRow } from '@eta/contracts';
import { TimeText } from '../../../components/time-text';

export function OrderTimeCell({ row }: { row: OrderListRow }) {
  return <TimeText value={row.create_ts} />;
}
