// Who holds the order and since when, with the holder actions of the queues (order-detail-actions.ts):
// Assign to me, assign to someone else by name (Manager and Admin), Move to New orders.
import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { OrderDetails } from '@eta/contracts';
import { TimeText } from '../../../components/time-text';
import type { HolderActions } from '../order-detail-actions';

interface OrderHolderProps {
  order: OrderDetails;
  actions: HolderActions;
  disabled: boolean;
  onAssignToMe: () => void;
  onAssignTo: (name: string) => void;
  onMoveToNew: () => void;
}

function HolderText({ order }: { order: OrderDetails }) {
  if (!order.assign_to) return 'Not assigned';
  const since = typeof order.assign_date === 'string' ? order.assign_date : null;
  if (!since) return `Held by ${order.assign_to}`;
  return (
    <>
      Held by {order.assign_to} since <TimeText value={since} />
    </>
  );
}

export function OrderHolder({ order, actions, disabled, onAssignToMe, onAssignTo, onMoveToNew }: OrderHolderProps) {
  const [assignee, setAssignee] = useState('');
  const submitAssignee = (event: FormEvent) => {
    event.preventDefault();
    if (assignee.trim()) onAssignTo(assignee.trim());
  };

  return (
    <Stack gap={1.5}>
      <Typography data-testid="order-holder">
        <HolderText order={order} />
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} gap={1} alignItems={{ sm: 'center' }} flexWrap="wrap">
        {actions.assignToMe ? (
          <Button variant="contained" disabled={disabled} onClick={onAssignToMe}>
            Assign to me
          </Button>
        ) : null}
        {actions.moveToNew ? (
          <Button variant="outlined" disabled={disabled} onClick={onMoveToNew}>
            Move to New orders
          </Button>
        ) : null}
        {actions.assignToOther ? (
          <Stack component="form" direction="row" gap={1} onSubmit={submitAssignee} aria-label="Assign to someone else">
            <TextField
              size="small"
              label="Assign to (name)"
              value={assignee}
              onChange={(event) => setAssignee(event.target.value)}
              sx={{ minWidth: 0, flex: 1 }}
            />
            <Button type="submit" variant="outlined" disabled={disabled || assignee.trim() === ''}>
              Assign
            </Button>
          </Stack>
        ) : null}
      </Stack>
    </Stack>
  );
}
