// An order's urgency and lateness as small chips (issue 35), the same on list rows, Waiting too long and the order's
// page: "Travels in 2 days" (warning) with its UTC travel time on hover, "Late" (error) with since when.
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { OrderTiming } from '@eta/contracts';
import { describeTime } from '../lib/format';
import { describeTravel } from '../lib/order-timing';

/** Small enough to sit under an order id without widening its column. */
const CHIP_SX = { height: 20, fontSize: '0.75rem', '& .MuiChip-label': { px: 0.75 } } as const;

/** Nothing unless the order is urgent. The tooltip's text also titles the chip, for a screen reader. */
export function UrgentChip({ timing }: { timing: Pick<OrderTiming, 'urgent' | 'travel_at'> }) {
  const travelAt = timing.urgent ? timing.travel_at : null;
  if (!travelAt) return null;
  const time = describeTime(travelAt, 'utc')?.text ?? '';
  return (
    <Tooltip title={`Travel time: ${time}`} describeChild>
      <Chip size="small" color="warning" label={describeTravel(travelAt)} sx={CHIP_SX} />
    </Tooltip>
  );
}

/** Nothing unless the order is past its processing type's target time. */
export function LateChip({
  timing,
  processingType,
}: {
  timing: Pick<OrderTiming, 'overdue_since'>;
  processingType: string;
}) {
  const overdueSince = timing.overdue_since;
  if (!overdueSince) return null;
  const since = describeTime(overdueSince, 'utc')?.text ?? '';
  return (
    <Tooltip title={`Past its ${processingType} target since ${since}`} describeChild>
      <Chip size="small" color="error" label="Late" sx={CHIP_SX} />
    </Tooltip>
  );
}
