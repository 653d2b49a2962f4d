// Email History (shown only when the order has mails) and Upload Document (spec §2), sharing one form: Resend
// sends the approval mail again to the address in Upload Document's editable Email box, through the provider
// chosen there (spec §5). Status 1 shows the server's message (spec §8); the order reloads after each call.
import { useRef } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import { useForm, useWatch } from 'react-hook-form';
import type { OrderDetails } from '@eta/contracts';
import { useResendMailMutation, useUploadVisaDocumentMutation } from '../api/order-detail-api';
import { defaultProvider } from '../delivery-rules';
import { reportChange } from '../hooks/use-confirmed-action';
import { DetailSection } from './detail-section';
import { EmailHistoryTable } from './history-tables';
import { UploadDocumentForm, type DeliveryValues } from './upload-document-section';

const ERASED_NOTE = "Nothing can be sent for this order: its customer's personal data was erased.";

interface DeliverySectionsProps {
  order: OrderDetails;
  /** Opens View Email Content on a mail of Email History. */
  onViewMail: (mailId: number) => void;
}

export function DeliverySections({ order, onViewMail }: DeliverySectionsProps) {
  const orderId = String(order.order_id);
  const { control, handleSubmit, trigger, getValues, setValue } = useForm<DeliveryValues>({
    defaultValues: {
      email: typeof order.email === 'string' ? order.email : '',
      provider: defaultProvider(order),
      file: null,
    },
  });
  const [upload, uploading] = useUploadVisaDocumentMutation();
  const [resend, resending] = useResendMailMutation();
  const fileInput = useRef<HTMLInputElement | null>(null);
  const [email, provider] = useWatch({ control, name: ['email', 'provider'] });
  const hasDocument = order.uploadDoc.length > 0;
  // The server refuses both for an erased order (ORDER_ERASED): its customer's address and document are gone.
  const erased = Boolean(order.erasedAt);

  const submitUpload = async ({ email, provider, file }: DeliveryValues) => {
    if (!file) return;
    const result = await reportChange(upload({ orderId, email: email.trim(), file, mailServiceProvider: provider }));
    if (result !== 'done') return;
    setValue('file', null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const resendMail = async () => {
    // The same rule as the upload's Email box; the message shows under it.
    if (!(await trigger('email', { shouldFocus: true }))) return;
    const values = getValues();
    await reportChange(resend({ orderId, email: values.email.trim(), mailServiceProvider: values.provider }));
  };

  return (
    <>
      {order.mailHistory.length > 0 ? (
        <DetailSection id="email-history" title="Email History">
          <EmailHistoryTable mails={order.mailHistory} onView={onViewMail} />
          <Stack direction={{ xs: 'column', sm: 'row' }} gap={1.5} alignItems={{ sm: 'center' }} sx={{ mt: 2 }}>
            <Button
              variant="contained"
              startIcon={<SendIcon />}
              disabled={erased || !hasDocument || resending.isLoading}
              aria-describedby="resend-help"
              onClick={() => void resendMail()}
              sx={{ alignSelf: 'flex-start', flexShrink: 0 }}
            >
              {resending.isLoading ? 'Resending…' : 'Resend'}
            </Button>
            <Typography id="resend-help" variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {erased
                ? ERASED_NOTE
                : hasDocument
                  ? `The approval mail again, to ${email.trim() || '(no address)'} through ${provider}. Change them under Upload Document.`
                  : 'Resend needs the approved document: upload it first.'}
            </Typography>
          </Stack>
        </DetailSection>
      ) : null}
      <DetailSection id="upload-document" title="Upload Document">
        {erased ? (
          <Typography variant="body2" color="text.secondary">
            {ERASED_NOTE}
          </Typography>
        ) : (
          <UploadDocumentForm
            order={order}
            control={control}
            isUploading={uploading.isLoading}
            uploadingName={uploading.originalArgs?.file.name}
            fileInputRef={fileInput}
            onSubmit={(event) => void handleSubmit(submitUpload)(event)}
          />
        )}
      </DetailSection>
    </>
  );
}
