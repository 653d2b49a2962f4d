// A list row's status with its time in it ("2 h in Pending"; a closed order's status alone) and, past its processing
// type's target time, "Late" (issue 35).
import Box from '@mui/material/Box';
import type { OrderListRow } from '@eta/contracts';
import { LateChip } from '../../../components/order-timing-chips';
import { describeTimeInStatus } from '../../../lib/order-timing';

export function OrderStatusCell({ row }: { row: OrderListRow }) {
  const text = describeTimeInStatus(row.process_status, row.status_since);
  if (!row.overdue_since) return text;
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5 }}>
      <span>{text}</span>
      <LateChip timing={row} processingType={row.processing_type} />
    </Box>
  );
}
