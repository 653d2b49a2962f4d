// Add landing site: its key (never changed later: orders and the portal's links carry it), branding, first legal
// texts and, if chosen, its logo. The site is added first; the logo follows as a second call, so a logo the server
// refuses leaves the site added without one (said in a toast; Edit branding takes another). Success shows the server's
// messages and the list reloads; a key or name another site has is said at its field.
import { toast } from 'react-toastify';
import { useForm } from 'react-hook-form';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { FormTextField } from '../../../components/form-text-field';
import { useCreateLandingSiteMutation, useUploadLogoMutation } from '../api/landing-sites-api';
import { checkLegalText, checkSiteKey, LEGAL_MESSAGES } from '../landing-site-rules';
import { BrandingFields, LogoField, showConflict, type SiteFormValues } from './site-form-fields';

const EMPTY: SiteFormValues = {
  key: '',
  display_name: '',
  mail_sender: '',
  footer_contact: '',
  support_phone: '',
  portal_url: '',
  disclaimer: '',
  fee_text: '',
  logo: null,
};

export function AddLandingSiteDialog({ onClose }: { onClose: () => void }) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const [create, creating] = useCreateLandingSiteMutation();
  const [uploadLogo, uploading] = useUploadLogoMutation();
  const busy = creating.isLoading || uploading.isLoading;
  const { control, handleSubmit, setError } = useForm<SiteFormValues>({ defaultValues: EMPTY });

  const submit = async ({ logo, ...values }: SiteFormValues) => {
    const key = values.key.trim();
    let created;
    try {
      created = await create({ ...values, key }).unwrap();
    } catch (error) {
      // A key or name taken is said at its field; any other refusal was a toast in the server's words.
      showConflict(error, setError);
      return;
    }
    toast.success(created.message);
    if (logo) {
      try {
        toast.success((await uploadLogo({ site: key, file: logo, version: created.site.version }).unwrap()).message);
      } catch {
        // The server's reason was a toast; the site stays, without a logo.
        toast.info(`${values.display_name.trim()} was added without a logo: choose one under Edit branding.`);
      }
    }
    onClose();
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      maxWidth="md"
      fullWidth
      fullScreen={isPhone}
      aria-labelledby="add-site-title"
    >
      <form noValidate aria-label="Add landing site" onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="add-site-title">Add landing site</DialogTitle>
        <DialogContent dividers>
          <Stack gap={2}>
            <FormTextField
              control={control}
              name="key"
              label="Key"
              required
              fullWidth
              disabled={busy}
              helperText="Lowercase letters, digits and hyphens, e.g. maple-visa. It names the site in its orders and links and cannot be changed later."
              rules={{ validate: checkSiteKey }}
            />
            <BrandingFields control={control} disabled={busy} />
            <LogoField control={control} disabled={busy} currentUrl="" />
            <Divider />
            <Typography variant="subtitle2" component="h3">
              Legal texts (version 1)
            </Typography>
            <FormTextField
              control={control}
              name="disclaimer"
              label="Disclaimer"
              required
              multiline
              minRows={3}
              maxRows={10}
              fullWidth
              disabled={busy}
              rules={{ validate: (value) => checkLegalText(LEGAL_MESSAGES.disclaimer)(String(value ?? '')) }}
            />
            <FormTextField
              control={control}
              name="fee_text"
              label="Fee text"
              required
              multiline
              minRows={2}
              maxRows={8}
              fullWidth
              disabled={busy}
              rules={{ validate: (value) => checkLegalText(LEGAL_MESSAGES.feeText)(String(value ?? '')) }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? 'Adding…' : 'Add site'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
