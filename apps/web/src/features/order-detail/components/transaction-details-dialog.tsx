// Enter Transaction Details (spec §2, §4, §5): transaction id and merchant name for a Completed or Customer
// Called order. Status 1 shows the server's message and reloads the order.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form-text-field';
import { useSaveTransactionDetailsMutation } from '../api/order-detail-api';
import { reportChange } from '../hooks/use-confirmed-action';

interface TransactionValues {
  transactionId: string;
  merchantName: string;
}

const required = (message: string) => ({ validate: (value: string) => value.trim() !== '' || message });

interface TransactionDetailsDialogProps {
  open: boolean;
  orderId: string;
  version: number;
  transactionId?: string;
  merchantName?: string;
  onClose: () => void;
}

export function TransactionDetailsDialog({
  open,
  orderId,
  version,
  transactionId = '',
  merchantName = '',
  onClose,
}: TransactionDetailsDialogProps) {
  const [save, { isLoading }] = useSaveTransactionDetailsMutation();
  const { control, handleSubmit } = useForm<TransactionValues>({ values: { transactionId, merchantName } });

  const submit = async (values: TransactionValues) => {
    // A stale copy is refused and the order reloaded: the dialog closes so the person sees the news. Any other
    // refusal keeps what they typed.
    if ((await reportChange(save({ orderId, ...values, version }))) !== 'refused') onClose();
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="transaction-dialog-title">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="transaction-dialog-title">Enter Transaction Details</DialogTitle>
        <DialogContent>
          <Stack gap={2} sx={{ pt: 1 }}>
            <FormTextField
              control={control}
              name="transactionId"
              label="Transaction Id"
              fullWidth
              rules={required('Please enter your Transaction Id')}
            />
            <FormTextField
              control={control}
              name="merchantName"
              label="Merchant Name"
              fullWidth
              rules={required('Please enter your Merchant Name')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
