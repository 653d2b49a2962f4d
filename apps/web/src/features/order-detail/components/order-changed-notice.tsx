// "Changed underneath" (issue 23): someone else changed the order this page shows (the live desk heard a newer
// version), so the page says so and offers a reload before the person's next change would be refused as stale.
// It stays until the reload brings that version; it is not a toast that could go unseen.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { OrderChangedEvent, OrderDetails, ProcessStatus } from '@eta/contracts';
import { STATUS_LABELS } from '@eta/contracts/domain';
import type { SessionUser } from '../../../lib/auth/session';
import { useOrderChange } from '../../../lib/live-desk/use-live-order';

function isOwnChange(change: OrderChangedEvent, user: SessionUser): boolean {
  if (change.byStaffId === null) return false;
  return user.id !== undefined ? change.byStaffId === user.id : change.byName === user.name;
}

/** "Priya moved this order to Completed." or "Priya changed this order." (no name: a payment, a webhook). */
function describeChange(change: OrderChangedEvent, shownStatus: string): string {
  const isMove = change.status !== shownStatus;
  const status = STATUS_LABELS[change.status as ProcessStatus] ?? change.status;
  if (!change.byName) return isMove ? `This order was moved to ${status}.` : 'This order was changed.';
  return isMove ? `${change.byName} moved this order to ${status}.` : `${change.byName} changed this order.`;
}

interface OrderChangedNoticeProps {
  order: OrderDetails;
  user: SessionUser;
  onReload: () => void;
}

export function OrderChangedNotice({ order, user, onReload }: OrderChangedNoticeProps) {
  const change = useOrderChange(String(order.order_id));
  if (!change || change.version <= order.version || isOwnChange(change, user)) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 1 }}
      action={
        <Button color="inherit" size="small" onClick={onReload}>
          Reload
        </Button>
      }
    >
      {describeChange(change, String(order.process_status))} Reload to see the change.
    </Alert>
  );
}
