// Upload Document (spec §2, §5, §7): the e-mail the approval mail goes to (editable, also the address Resend
// uses), the order id (read-only), the mail provider and the file (PDF, PNG or JPEG; the server judges it by
// content). The documents already stored are listed above the form.
import type { FormEvent, ReactNode, RefObject } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Controller, type Control } from 'react-hook-form';
import type { MailProvider, OrderDetails } from '@eta/contracts';
import { MAIL_PROVIDERS } from '@eta/contracts/domain';
import { FormTextField } from '../../../components/form-text-field';
import { ACCEPTED_FILES, formatSize, UPLOAD_MESSAGES } from '../delivery-rules';
import { UploadedDocumentsTable } from './history-tables';

export interface DeliveryValues {
  email: string;
  provider: MailProvider;
  file: File | null;
}

export const requiredEmail = {
  validate: (value: unknown) => String(value ?? '').trim() !== '' || UPLOAD_MESSAGES.emailRequired,
};

interface UploadDocumentFormProps {
  order: OrderDetails;
  control: Control<DeliveryValues>;
  isUploading: boolean;
  /** The file being sent, named in the progress line. */
  uploadingName?: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Clears the file input after a successful upload (the same file may be chosen again). */
  fileInputRef: RefObject<HTMLInputElement | null>;
  /** Why the last upload was not sent, with what the member can do (issue 35). */
  refusal?: ReactNode;
}

export function UploadDocumentForm({
  order,
  control,
  isUploading,
  uploadingName,
  onSubmit,
  fileInputRef,
  refusal,
}: UploadDocumentFormProps) {
  return (
    <Stack gap={2}>
      {order.uploadDoc.length > 0 ? <UploadedDocumentsTable documents={order.uploadDoc} /> : null}
      <Stack component="form" noValidate gap={2} onSubmit={onSubmit} aria-label="Upload the approved document">
        <Stack direction={{ xs: 'column', md: 'row' }} gap={2}>
          <FormTextField
            control={control}
            name="email"
            label="Email"
            type="email"
            autoComplete="off"
            fullWidth
            size="small"
            rules={requiredEmail}
            disabled={isUploading}
          />
          <TextField
            label="Order ID"
            value={order.order_id ?? ''}
            fullWidth
            size="small"
            slotProps={{ input: { readOnly: true } }}
          />
          <Controller
            control={control}
            name="provider"
            render={({ field: { ref, ...field } }) => (
              <TextField
                {...field}
                inputRef={ref}
                select
                id="mail-service-provider"
                label="Mail service provider"
                size="small"
                fullWidth
                disabled={isUploading}
              >
                {MAIL_PROVIDERS.map((provider) => (
                  <MenuItem key={provider} value={provider}>
                    {provider}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Stack>
        <Controller
          control={control}
          name="file"
          rules={{ validate: (file) => file !== null || UPLOAD_MESSAGES.fileRequired }}
          render={({ field, fieldState }) => (
            <Box>
              <input
                ref={fileInputRef}
                type="file"
                hidden
                accept={ACCEPTED_FILES}
                aria-label="Approved document"
                onChange={(event) => field.onChange(event.target.files?.[0] ?? null)}
              />
              <Stack direction="row" flexWrap="wrap" gap={1} alignItems="center">
                <Button
                  // Where a failed check puts the focus.
                  ref={field.ref}
                  variant="outlined"
                  startIcon={<UploadFileIcon />}
                  disabled={isUploading}
                  aria-describedby="upload-file-help"
                  onClick={() => fileInputRef.current?.click()}
                >
                  Choose file
                </Button>
                <Typography variant="body2" data-testid="chosen-file" sx={{ overflowWrap: 'anywhere' }}>
                  {field.value ? `${field.value.name} (${formatSize(field.value.size)})` : 'No file chosen'}
                </Typography>
              </Stack>
              <FormHelperText id="upload-file-help" error={Boolean(fieldState.error)}>
                {fieldState.error?.message ?? 'The approved eTA as a PDF, PNG or JPEG.'}
              </FormHelperText>
            </Box>
          )}
        />
        <Box>
          <Button type="submit" variant="contained" startIcon={<CloudUploadIcon />} disabled={isUploading}>
            {isUploading ? 'Uploading…' : 'Upload'}
          </Button>
        </Box>
        {refusal}
        {isUploading ? (
          <Box role="status">
            <Typography variant="body2" color="text.secondary">
              Uploading {uploadingName ?? 'the document'}…
            </Typography>
            <LinearProgress aria-label="Uploading the document" sx={{ mt: 0.5 }} />
          </Box>
        ) : null}
      </Stack>
    </Stack>
  );
}
