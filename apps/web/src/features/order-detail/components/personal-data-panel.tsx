// The order's personal data state (issue 24): erased (when, and what is kept), and an Admin's legal hold (who, when,
// why), with Place legal hold / Release for those who may. Nothing is shown for an ordinary order to other roles.
import { useState } from 'react';
import { toast } from 'react-toastify';
import { useForm } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import type { OrderDetails, StaffType } from '@eta/contracts';
import { can } from '@eta/contracts/domain';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormTextField } from '../../../components/form-text-field';
import { TimeText } from '../../../components/time-text';
import { usePlaceLegalHoldMutation, useReleaseLegalHoldMutation } from '../api/legal-hold-api';

function PlaceHoldDialog({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const [place, { isLoading }] = usePlaceLegalHoldMutation();
  const { control, handleSubmit } = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const submit = async ({ reason }: { reason: string }) => {
    try {
      toast.success(await place({ orderId, reason: reason.trim() }).unwrap());
      onClose();
    } catch {
      // The API layer showed the server's message; the reason stays typed.
    }
  };
  return (
    <Dialog open onClose={isLoading ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby="hold-title">
      <form noValidate aria-label="Place legal hold" onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="hold-title">Place legal hold on {orderId}</DialogTitle>
        <DialogContent dividers>
          <FormTextField
            control={control}
            name="reason"
            label="Reason"
            multiline
            minRows={2}
            fullWidth
            autoFocus
            disabled={isLoading}
            helperText="Why the order's data must be kept (a case, an authority's request). Shown on the order."
            rules={{
              validate: (value: string) =>
                value.trim().length >= 3 && value.length <= 500
                  ? true
                  : 'Please give the reason for the hold (3 to 500 characters).',
            }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            Place hold
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

export function PersonalDataPanel({ order, role }: { order: OrderDetails; role: StaffType }) {
  const orderId = String(order.order_id);
  const mayHold = can(role, 'placeLegalHold');
  const [isPlacing, setIsPlacing] = useState(false);
  const [isReleasing, setIsReleasing] = useState(false);
  const [release, releaseState] = useReleaseLegalHoldMutation();
  const confirmRelease = async () => {
    setIsReleasing(false);
    try {
      toast.success(await release({ orderId }).unwrap());
    } catch {
      // Shown by the API layer.
    }
  };

  if (!order.erasedAt && !order.legalHold && !mayHold) return null;
  return (
    <Stack component="section" aria-label="Personal data" gap={1}>
      {order.erasedAt ? (
        <Alert severity="info">
          <AlertTitle>Personal data erased</AlertTitle>
          This order’s personal data was erased on <TimeText value={order.erasedAt} />: names, contact details, passport
          data, answers, the signature and the documents are gone. The order, payment, mail and download records are
          kept for accounting and evidence.
        </Alert>
      ) : null}
      {order.legalHold ? (
        <Alert
          severity="warning"
          action={
            mayHold ? (
              <Button
                color="inherit"
                size="small"
                disabled={releaseState.isLoading}
                onClick={() => setIsReleasing(true)}
              >
                Release hold
              </Button>
            ) : undefined
          }
        >
          <AlertTitle>On legal hold</AlertTitle>
          Placed by {order.legalHold.heldBy} on <TimeText value={order.legalHold.heldAt} />: {order.legalHold.reason}.
          No erasure touches this order until the hold is released.
        </Alert>
      ) : null}
      {mayHold && !order.legalHold && !order.erasedAt ? (
        <div>
          <Button variant="outlined" size="small" onClick={() => setIsPlacing(true)}>
            Place legal hold
          </Button>
        </div>
      ) : null}
      {isPlacing ? <PlaceHoldDialog orderId={orderId} onClose={() => setIsPlacing(false)} /> : null}
      <ConfirmDialog
        open={isReleasing}
        text={`Release the legal hold on ${orderId}? Retention may then erase its personal data.`}
        busy={releaseState.isLoading}
        onConfirm={() => void confirmRelease()}
        onCancel={() => setIsReleasing(false)}
      />
    </Stack>
  );
}
