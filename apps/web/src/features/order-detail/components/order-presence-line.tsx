// Who else is on this order now (the live desk, issue 23): "Priya is editing remarks. Ben is viewing." A polite
// live region, so a screen reader hears when someone arrives; empty (and taking no room) when nobody else is here.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PresenceAvatars } from '../../../components/presence-avatars';
import { describeOthers, useOthersOnOrder } from '../../../lib/live-desk/use-live-order';

export function OrderPresenceLine({ orderId }: { orderId: string }) {
  const others = useOthersOnOrder(orderId);
  return (
    <Box role="status" aria-label="Also on this order" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      {others.length > 0 ? (
        <>
          <Box aria-hidden="true" sx={{ display: 'flex' }}>
            <PresenceAvatars people={others} />
          </Box>
          <Typography variant="body2" color="text.secondary">
            {describeOthers(others)}
          </Typography>
        </>
      ) : null}
    </Box>
  );
}
