// A list row's order id, with the avatars of anyone else on the order now (the live desk, issue 23) and, for an urgent
// order, when its traveller flies (issue 35) on a line of its own. At narrow widths the avatars go under the id rather
// than widen the column.
import Box from '@mui/material/Box';
import type { OrderListRow } from '@eta/contracts';
import { UrgentChip } from '../../../components/order-timing-chips';
import { PresenceAvatars } from '../../../components/presence-avatars';
import { useOthersOnOrder } from '../../../lib/live-desk/use-live-order';

export function OrderIdCell({ row }: { row: OrderListRow }) {
  const others = useOthersOnOrder(row.order_id);
  if (others.length === 0 && !row.urgent) return row.order_id;
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 0.5, rowGap: 0.25 }}
    >
      <span>{row.order_id}</span>
      {others.length > 0 ? <PresenceAvatars people={others} /> : null}
      {row.urgent ? (
        <Box component="span" sx={{ flexBasis: '100%', display: 'flex' }}>
          <UrgentChip timing={row} />
        </Box>
      ) : null}
    </Box>
  );
}
