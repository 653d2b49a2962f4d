// Send Invoice (spec §2, §5, §8): one Order ID field and a Send Invoice button. Status 1 shows the server's
// message as a success toast (a warning when the invoice mail was not sent, issue 22), any other answer the
// server's message as an error toast; no answer at all (or a server fault) 'Something went wrong while sending the
// invoice.'. The invoice is named with a link to its order, and with what happened to its mail.
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { useForm } from 'react-hook-form';
import type { SentInvoice } from '@eta/contracts';
import { MIN_INVOICE_ORDER_ID_LENGTH } from '@eta/contracts/domain';
import { FormTextField } from '../../../components/form-text-field';
import { PageHeader } from '../../../components/page-header';
import type { ApiError } from '../../../lib/api';
import { deliveryToastType, notSentReason } from '../../../lib/mail-delivery';
import { orderDetailPath } from '../../../lib/order-links';
import { useSendInvoiceMutation } from '../api/invoices-api';

export const INVOICE_MESSAGES = {
  required: 'Please enter your order id.',
  tooShort: `Order Id must be at least ${MIN_INVOICE_ORDER_ID_LENGTH} characters.`,
  exception: 'Something went wrong while sending the invoice.',
} as const;

interface InvoiceValues {
  invoiceOrderId: string;
}

const isApiError = (error: unknown): error is ApiError =>
  typeof error === 'object' && error !== null && 'status' in error && 'message' in error;

/** The server's words for a refusal; none for no answer, a server fault, or an ended session (already said). */
function failureText(error: unknown): string | null {
  if (!isApiError(error) || error.status === 0 || error.status >= 500) return INVOICE_MESSAGES.exception;
  return error.status === 401 ? null : error.message;
}

function SentInvoiceNote({ invoice }: { invoice: SentInvoice }) {
  if (invoice.delivery.state === 'not_sent') {
    return (
      <Alert severity="warning" sx={{ mt: 2 }}>
        Invoice <strong>{invoice.invoiceNumber}</strong> is ready, but its mail to {invoice.to} was not sent:{' '}
        {notSentReason(invoice.delivery)}. It is kept in the order&apos;s Email History.{' '}
        <Link component={RouterLink} to={orderDetailPath(invoice.orderId)}>
          Open order {invoice.orderId}
        </Link>
      </Alert>
    );
  }
  return (
    <Alert severity="success" sx={{ mt: 2 }}>
      Invoice <strong>{invoice.invoiceNumber}</strong> {invoice.resent ? 'is being sent again' : 'is being sent'} to{' '}
      {invoice.to} through {invoice.provider}.{' '}
      <Link component={RouterLink} to={orderDetailPath(invoice.orderId)}>
        Open order {invoice.orderId}
      </Link>
    </Alert>
  );
}

export function SendInvoicePage() {
  const [sendInvoice, { isLoading }] = useSendInvoiceMutation();
  const [sent, setSent] = useState<SentInvoice | null>(null);
  const { control, handleSubmit, reset } = useForm<InvoiceValues>({ defaultValues: { invoiceOrderId: '' } });

  const submit = async ({ invoiceOrderId }: InvoiceValues) => {
    setSent(null);
    try {
      const { message, invoice } = await sendInvoice({ orderId: invoiceOrderId.trim() }).unwrap();
      toast(message, { type: deliveryToastType(invoice.delivery) });
      setSent(invoice);
      reset();
    } catch (error) {
      const text = failureText(error);
      if (text) toast.error(text);
    }
  };

  return (
    <>
      <PageHeader title="Send Invoice" />
      <Paper sx={{ p: 3, maxWidth: 560 }}>
        <Stack
          component="form"
          noValidate
          gap={2}
          aria-label="Send Invoice"
          onSubmit={(event) => void handleSubmit(submit)(event)}
        >
          <FormTextField
            control={control}
            name="invoiceOrderId"
            label="Order ID"
            autoComplete="off"
            fullWidth
            disabled={isLoading}
            rules={{
              validate: (value) => {
                const orderId = String(value).trim();
                if (orderId === '') return INVOICE_MESSAGES.required;
                return orderId.length >= MIN_INVOICE_ORDER_ID_LENGTH || INVOICE_MESSAGES.tooShort;
              },
            }}
          />
          <Button
            type="submit"
            variant="contained"
            startIcon={<ReceiptLongIcon />}
            disabled={isLoading}
            sx={{ alignSelf: 'flex-start' }}
          >
            {isLoading ? 'Sending…' : 'Send Invoice'}
          </Button>
        </Stack>
        {sent ? <SentInvoiceNote invoice={sent} /> : null}
      </Paper>
    </>
  );
}
