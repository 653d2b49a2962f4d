// Edit branding: the site's name, mail sender, footer contact, support phone and portal URL, and its logo with a
// preview. Changed fields are saved over the version the page showed (a change made meanwhile is refused in the
// server's words, never overwritten), then a chosen logo; each success is the server's message in a toast, and the
// list reloads. What was typed stays after a refusal.
import { useState } from 'react';
import { toast } from 'react-toastify';
import { useForm } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { LandingSiteAdmin } from '@eta/contracts';
import type { ApiError } from '../../../lib/api';
import { useSaveBrandingMutation, useUploadLogoMutation } from '../api/landing-sites-api';
import { BrandingFields, LogoField, showConflict, type SiteFormValues } from './site-form-fields';

const BRANDING_FIELDS = ['display_name', 'mail_sender', 'footer_contact', 'support_phone', 'portal_url'] as const;

const brandingValues = (site: LandingSiteAdmin) => ({
  display_name: site.display_name,
  mail_sender: site.mail_sender,
  footer_contact: site.footer_contact,
  support_phone: site.support_phone ?? '',
  portal_url: site.portal_url ?? '',
});

export function BrandingForm({ site, onClose }: { site: LandingSiteAdmin; onClose: () => void }) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const [saveBranding, saving] = useSaveBrandingMutation();
  const [uploadLogo, uploading] = useUploadLogoMutation();
  const busy = saving.isLoading || uploading.isLoading;
  // The version the next call carries: the page's, then each saved change's (the list may not have reloaded yet).
  const [version, setVersion] = useState(site.version);
  const { control, handleSubmit, setError } = useForm<SiteFormValues>({
    defaultValues: { ...brandingValues(site), key: site.key, disclaimer: '', fee_text: '', logo: null },
  });

  const submit = async (values: SiteFormValues) => {
    let current = Math.max(version, site.version);
    const saved = brandingValues(site);
    const isChanged = BRANDING_FIELDS.some((field) => values[field].trim() !== saved[field]);
    if (!isChanged && !values.logo) {
      toast.info('Nothing was changed.');
      onClose();
      return;
    }
    if (isChanged) {
      try {
        const outcome = await saveBranding({
          site: site.key,
          version: current,
          display_name: values.display_name,
          mail_sender: values.mail_sender,
          footer_contact: values.footer_contact,
          support_phone: values.support_phone,
          portal_url: values.portal_url,
        }).unwrap();
        toast.success(outcome.message);
        current = outcome.site.version;
        setVersion(current);
      } catch (error) {
        showConflict(error, setError);
        return;
      }
    }
    if (values.logo) {
      try {
        toast.success((await uploadLogo({ site: site.key, file: values.logo, version: current }).unwrap()).message);
      } catch (error) {
        // Also a toast (the API layer's); said at the field too, where another file is chosen.
        setError('logo', { message: (error as ApiError).message });
        return;
      }
    }
    onClose();
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      maxWidth="sm"
      fullWidth
      fullScreen={isPhone}
      aria-labelledby="branding-form-title"
    >
      <form noValidate aria-label="Edit branding" onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="branding-form-title">Edit branding: {site.display_name}</DialogTitle>
        <DialogContent dividers>
          <Stack gap={2}>
            <Alert severity="info">
              Mails queued from now on and the portal use the new branding; mails already queued keep their sender and
              texts. The key <code>{site.key}</code> stays.
            </Alert>
            <BrandingFields control={control} disabled={busy} />
            <LogoField control={control} disabled={busy} currentUrl={site.logo_url} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
