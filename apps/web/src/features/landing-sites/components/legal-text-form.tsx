// Edit legal texts: both texts start as the current version's and are saved as a NEW version (the server never
// changes one: orders keep the version their customer agreed to). Success shows the server's message ("Saved as
// version N.") and the list reloads; a refusal keeps what was typed.
import { toast } from 'react-toastify';
import { useForm, useWatch } from 'react-hook-form';
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
import { FormTextField } from '../../../components/form-text-field';
import { useSaveLegalTextMutation } from '../api/landing-sites-api';
import { LEGAL_MESSAGES, LEGAL_TEXT_MAX_LENGTH, checkLegalText } from '../landing-site-rules';

interface LegalValues {
  disclaimer: string;
  fee_text: string;
}

const counter = (value: string) =>
  `${value.length.toLocaleString('en')} / ${LEGAL_TEXT_MAX_LENGTH.toLocaleString('en')}`;

export function LegalTextForm({ site, onClose }: { site: LandingSiteAdmin; onClose: () => void }) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const [save, { isLoading }] = useSaveLegalTextMutation();
  const { control, handleSubmit } = useForm<LegalValues>({
    defaultValues: { disclaimer: site.legal.disclaimer, fee_text: site.legal.fee_text },
  });
  const [disclaimer, feeText] = useWatch({ control, name: ['disclaimer', 'fee_text'] });
  const nextVersion = Math.max(...site.legalHistory.map((entry) => entry.version), site.legal.version) + 1;

  const submit = async (values: LegalValues) => {
    try {
      toast.success(await save({ site: site.key, ...values }).unwrap());
      onClose();
    } catch {
      // The API layer showed the server's message; what was typed stays.
    }
  };

  return (
    <Dialog
      open
      onClose={isLoading ? undefined : onClose}
      maxWidth="md"
      fullWidth
      fullScreen={isPhone}
      aria-labelledby="legal-form-title"
    >
      <form noValidate aria-label="Edit legal texts" onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="legal-form-title">Edit legal texts: {site.display_name}</DialogTitle>
        <DialogContent dividers>
          <Stack gap={2}>
            <Alert severity="info">
              Saving changed texts makes version {nextVersion}. Orders already placed keep the version their customer
              agreed to; the landing site sends {nextVersion} as <code>consent.legal_version</code> once its forms show
              the new texts.
            </Alert>
            <FormTextField
              control={control}
              name="disclaimer"
              label="Disclaimer"
              multiline
              minRows={4}
              maxRows={14}
              fullWidth
              disabled={isLoading}
              helperText={counter(disclaimer)}
              rules={{ validate: checkLegalText(LEGAL_MESSAGES.disclaimer) }}
            />
            <FormTextField
              control={control}
              name="fee_text"
              label="Fee text"
              multiline
              minRows={3}
              maxRows={10}
              fullWidth
              disabled={isLoading}
              helperText={counter(feeText)}
              rules={{ validate: checkLegalText(LEGAL_MESSAGES.feeText) }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            Save as new version
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
