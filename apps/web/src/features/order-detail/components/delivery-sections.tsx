// Email History (shown only when the order has mails) and Upload Document (spec §2), sharing one form: Resend
// sends the approval mail again to the address in Upload Document's editable Email box, through the provider
// chosen there (spec §5). Status 1 shows the server's message (spec §8); the order reloads after each call.
import { useRef, useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import { useForm, useWatch } from 'react-hook-form';
import type { DocumentRefusal, OrderDetails } from '@eta/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useResendMailMutation, useUploadVisaDocumentMutation, type UploadArgs } from '../api/order-detail-api';
import { defaultProvider } from '../delivery-rules';
import { isApiError, reportChange } from '../hooks/use-confirmed-action';
import { DetailSection } from './detail-section';
import { DocumentRefusalPanel } from './document-refusal';
import { EmailHistoryTable } from './history-tables';
import { UploadDocumentForm, type DeliveryValues } from './upload-document-section';

const ERASED_NOTE = "Nothing can be sent for this order: its customer's personal data was erased.";

/** What the upload waits on the member for (issue 35): an address other than the order's, or an unmatched document. */
type Question =
  | { kind: 'email'; args: UploadArgs }
  | { kind: 'document'; args: UploadArgs; message: string; refusal: DocumentRefusal | undefined };

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

  const orderEmail = typeof order.email === 'string' ? order.email.trim() : '';
  const [question, setQuestion] = useState<Question | null>(null);

  /** Sends the upload; a refusal the member can answer (issue 35) becomes the question on screen. */
  const send = async (args: UploadArgs) => {
    setQuestion(null);
    const request = upload(args);
    const result = await reportChange(request);
    if (result === 'done') {
      setValue('file', null);
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    const error: unknown = await request.unwrap().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    if (!isApiError(error)) return;
    if (error.code === 'EMAIL_CHANGE_UNCONFIRMED') setQuestion({ kind: 'email', args });
    if (error.code === 'DOCUMENT_MISMATCH' || error.code === 'DOCUMENT_NOT_READ') {
      setQuestion({ kind: 'document', args, message: error.message, refusal: error.data as DocumentRefusal });
    }
  };

  const submitUpload = async ({ email, provider, file }: DeliveryValues) => {
    if (!file) return;
    const args = { orderId, email: email.trim(), file, mailServiceProvider: provider };
    // Asked before anything is sent: a changed box is a mail to someone else.
    if (orderEmail && args.email.toLowerCase() !== orderEmail.toLowerCase()) {
      setQuestion({ kind: 'email', args });
      return;
    }
    await send(args);
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
            refusal={
              question?.kind === 'document' ? (
                <DocumentRefusalPanel
                  message={question.message}
                  refusal={question.refusal}
                  busy={uploading.isLoading}
                  onSendAnyway={(reason) => void send({ ...question.args, sendAnywayReason: reason })}
                  onDismiss={() => {
                    setQuestion(null);
                    fileInput.current?.click();
                  }}
                />
              ) : null
            }
          />
        )}
      </DetailSection>
      <ConfirmDialog
        open={question?.kind === 'email'}
        text={
          question?.kind === 'email'
            ? `The approval will go to ${question.args.email}, not to ${orderEmail || 'the order’s e-mail'}, the address the order was placed with. Send it to ${question.args.email}?`
            : ''
        }
        busy={uploading.isLoading}
        onConfirm={() => {
          if (question?.kind === 'email') void send({ ...question.args, confirmEmailChange: true });
        }}
        onCancel={() => setQuestion(null)}
      />
    </>
  );
}
