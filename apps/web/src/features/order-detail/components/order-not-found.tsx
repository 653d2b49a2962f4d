// An order id that is malformed or unknown: a clear page inside the console, with a way back.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { PageHeader } from '../../../components/page-header';

interface OrderNotFoundProps {
  orderId: string | null;
  backLabel: string;
  onBack: () => void;
}

export function OrderNotFound({ orderId, backLabel, onBack }: OrderNotFoundProps) {
  return (
    <>
      <PageHeader title="Order not found" />
      <Stack gap={2} sx={{ maxWidth: 640 }}>
        <Alert severity="warning">
          {orderId
            ? `There is no order ${orderId}. Check the link, or find the order through a queue's search.`
            : "This link does not name an order. Check the link, or find the order through a queue's search."}
        </Alert>
        <Button variant="contained" startIcon={<ArrowBackIcon />} onClick={onBack} sx={{ alignSelf: 'flex-start' }}>
          {backLabel}
        </Button>
      </Stack>
    </>
  );
}
