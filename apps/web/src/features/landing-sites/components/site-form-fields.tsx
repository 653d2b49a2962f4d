// The fields a site's add and edit forms share: its branding (name, mail sender, footer contact, support phone,
// portal URL), each checked by the contracts' rule as the server checks it, and its logo with a preview of the one
// chosen (or the one in use). A key or name another site has comes back from the server and is said at its field.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Controller, type Control, type UseFormSetError } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { LandingSiteConflict } from '@eta/contracts';
import { FormTextField } from '../../../components/form-text-field';
import type { ApiError } from '../../../lib/api';
import { checkBrandingField, checkLogoFile, LOGO_ACCEPT } from '../landing-site-rules';

export interface SiteFormValues {
  key: string;
  display_name: string;
  mail_sender: string;
  footer_contact: string;
  support_phone: string;
  portal_url: string;
  disclaimer: string;
  fee_text: string;
  logo: File | null;
}

/** A 409 for a key or name another site has, said at that field; false for any other failure (already a toast). */
export function showConflict(error: unknown, setError: UseFormSetError<SiteFormValues>): boolean {
  const failure = error as ApiError;
  const field = (failure.data as LandingSiteConflict | undefined)?.field;
  if (failure.code !== 'CONFLICT' || !field) return false;
  setError(field, { message: failure.message }, { shouldFocus: true });
  return true;
}

export function BrandingFields({ control, disabled }: { control: Control<SiteFormValues>; disabled: boolean }) {
  return (
    <>
      <FormTextField
        control={control}
        name="display_name"
        label="Name"
        required
        fullWidth
        disabled={disabled}
        helperText="Shown on the portal, in the mails and on the defence packs."
        rules={{ validate: checkBrandingField('display_name') }}
      />
      <FormTextField
        control={control}
        name="mail_sender"
        label="Mail sender"
        required
        fullWidth
        disabled={disabled}
        helperText="Example Travel <noreply@example.com>: the mail provider must be allowed to send from it."
        rules={{ validate: checkBrandingField('mail_sender') }}
      />
      <FormTextField
        control={control}
        name="footer_contact"
        label="Footer contact e-mail"
        required
        type="email"
        fullWidth
        disabled={disabled}
        helperText="Shown in the portal's footer and the mails' Contact us."
        rules={{ validate: checkBrandingField('footer_contact') }}
      />
      <FormTextField
        control={control}
        name="support_phone"
        label="Support phone (optional)"
        type="tel"
        fullWidth
        disabled={disabled}
        rules={{ validate: checkBrandingField('support_phone') }}
      />
      <FormTextField
        control={control}
        name="portal_url"
        label="Portal URL (optional)"
        type="url"
        fullWidth
        disabled={disabled}
        helperText="Where this site's customers track their order, e.g. https://www.example.com. Empty: this server's portal."
        rules={{ validate: checkBrandingField('portal_url') }}
      />
    </>
  );
}

/** The chosen file as an address an <img> can show, for as long as it is chosen. */
function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return undefined;
    }
    const address = URL.createObjectURL(file);
    setUrl(address);
    return () => URL.revokeObjectURL(address);
  }, [file]);
  return url;
}

const sizeText = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en')} KB`;

/** The logo: a preview of the chosen file, else of the logo in use; the server judges the file's content. */
export function LogoField({
  control,
  disabled,
  currentUrl,
}: {
  control: Control<SiteFormValues>;
  disabled: boolean;
  currentUrl: string;
}) {
  const inputRef = useRef<HTMLInputElement | null>(null);
  return (
    <Controller
      control={control}
      name="logo"
      rules={{ validate: checkLogoFile }}
      render={({ field, fieldState }) => (
        <LogoPicker
          file={field.value}
          onChange={field.onChange}
          buttonRef={field.ref}
          inputRef={inputRef}
          error={fieldState.error?.message}
          disabled={disabled}
          currentUrl={currentUrl}
        />
      )}
    />
  );
}

function LogoPicker({
  file,
  onChange,
  buttonRef,
  inputRef,
  error,
  disabled,
  currentUrl,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  buttonRef: (element: HTMLButtonElement | null) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  error: string | undefined;
  disabled: boolean;
  currentUrl: string;
}) {
  const preview = usePreview(file);
  const [broken, setBroken] = useState<string | null>(null);
  const shown = preview ?? (currentUrl || null);
  return (
    <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        Logo
      </Typography>
      <Stack direction="row" gap={2} alignItems="center" flexWrap="wrap">
        <Box
          sx={{
            width: 96,
            height: 96,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'grey.50',
            flexShrink: 0,
          }}
        >
          {shown && shown !== broken ? (
            <Box
              component="img"
              src={shown}
              alt={preview ? 'The chosen logo' : 'The logo in use'}
              onError={() => setBroken(shown)}
              sx={{ maxWidth: 88, maxHeight: 88, objectFit: 'contain' }}
            />
          ) : (
            <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center', px: 1 }}>
              No logo
            </Typography>
          )}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <input
            ref={inputRef}
            type="file"
            hidden
            accept={LOGO_ACCEPT}
            aria-label="Logo file"
            onChange={(event) => onChange(event.target.files?.[0] ?? null)}
          />
          <Stack direction="row" gap={1} alignItems="center" flexWrap="wrap">
            <Button
              ref={buttonRef}
              variant="outlined"
              size="small"
              startIcon={<UploadFileIcon />}
              disabled={disabled}
              aria-describedby="logo-help"
              onClick={() => inputRef.current?.click()}
            >
              Choose logo
            </Button>
            {file ? (
              <Button size="small" disabled={disabled} onClick={() => onChange(null)}>
                Remove the chosen file
              </Button>
            ) : null}
          </Stack>
          <Typography variant="body2" data-testid="chosen-logo" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
            {file ? `${file.name} (${sizeText(file.size)})` : 'No new file chosen'}
          </Typography>
          <FormHelperText id="logo-help" error={Boolean(error)}>
            {error ?? 'A PNG or JPEG image, at most 512 KB and 16 to 4096 pixels wide and high (SVG is not taken).'}
          </FormHelperText>
        </Box>
      </Stack>
    </Box>
  );
}
