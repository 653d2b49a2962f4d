// Submit evidence (issue 21, Admin and Manager): the defence pack to answer a chargeback with, the fields the gateway
// would get (by its own names) and the PDF it would get, then "Save draft" (kept at the gateway, still editable
// there) or "Submit" (sent for review: final, so it asks first). A refusal stays in the dialog in the server's words;
// evidence someone else submitted meanwhile closes it, and the panel shows what was sent.
import { useState } from 'react';
import { toast } from 'react-toastify';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import type { DefencePackType, Dispute, EvidencePreview } from '@eta/contracts';
import { DEFENCE_PACK_TYPES } from '@eta/contracts/domain';
import type { ApiError } from '../../../lib/api';
import { useGetEvidencePreviewQuery, useSubmitEvidenceMutation } from '../api/disputes-api';
import { openPdfTab } from '../hooks/pdf-tab';

/** What each pack puts first (apps/server/src/modules/defence-pack/README.md "Layout"). */
const PACK_HINTS: Record<DefencePackType, string> = {
  1: 'the e-mails sent to the customer first',
  2: 'the customer’s downloads first',
};

function PreviewFields({ preview }: { preview: EvidencePreview }) {
  return (
    <Box component="dl" aria-label="Evidence fields" sx={{ m: 0, display: 'grid', gap: 1.5 }}>
      {preview.fields.map((field) => (
        <Box key={field.name} sx={{ minWidth: 0 }}>
          <Typography component="dt" variant="body2" sx={{ fontFamily: 'monospace', color: 'text.secondary' }}>
            {field.name}
          </Typography>
          <Box
            component="dd"
            tabIndex={0}
            sx={{
              m: 0,
              mt: 0.5,
              p: 1,
              maxHeight: 128,
              overflowY: 'auto',
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              bgcolor: 'grey.50',
              fontSize: '0.8125rem',
              whiteSpace: 'pre-wrap',
              overflowWrap: 'anywhere',
            }}
          >
            {field.value || (
              <Typography component="span" variant="body2" color="text.secondary">
                (empty)
              </Typography>
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

interface SubmitEvidenceDialogProps {
  orderId: string;
  dispute: Dispute;
  onClose: () => void;
}

/** Rendered while open; it loads the preview of the pack chosen. */
export function SubmitEvidenceDialog({ orderId, dispute, onClose }: SubmitEvidenceDialogProps) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const [packType, setPackType] = useState<DefencePackType>(
    dispute.evidence_pack_type === 2 ? 2 : DEFENCE_PACK_TYPES[0],
  );
  const [isConfirming, setIsConfirming] = useState(false);
  const [isOpeningPdf, setIsOpeningPdf] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const preview = useGetEvidencePreviewQuery({ orderId, defencePackType: packType });
  const [submitEvidence, sending] = useSubmitEvidenceMutation();
  const previewError = preview.error as ApiError | undefined;
  const gateway = dispute.gateway_name;
  const isBusy = sending.isLoading;
  const canSend = Boolean(preview.data) && !preview.isFetching && !isBusy;

  const send = async (submit: boolean) => {
    setIsConfirming(false);
    setRefusal(null);
    try {
      const { message } = await submitEvidence({ orderId, defencePackType: packType, submit }).unwrap();
      toast.success(message);
      onClose();
    } catch (error) {
      const { code, message } = error as ApiError;
      if (code === 'EVIDENCE_SUBMITTED') {
        // Sent by someone else meanwhile (the panel reloads and shows it): nothing is left to do here.
        toast.warning(message, { autoClose: false });
        onClose();
        return;
      }
      setRefusal(message);
    }
  };

  const openPdf = async () => {
    setIsOpeningPdf(true);
    await openPdfTab({
      request: {
        url: `admin/disputes/${encodeURIComponent(orderId)}/evidence.pdf`,
        params: { defencePackType: packType },
      },
      title: `Evidence for ${dispute.dispute_id} | ${orderId}`,
      preparingText: `Preparing the evidence PDF (defence pack ${packType}) for dispute ${dispute.dispute_id}…`,
      readyText: `The evidence PDF for dispute ${dispute.dispute_id} is ready: open it`,
    });
    setIsOpeningPdf(false);
  };

  return (
    <>
      <Dialog
        open
        onClose={isBusy ? undefined : onClose}
        maxWidth="md"
        fullWidth
        fullScreen={isPhone}
        aria-labelledby="submit-evidence-title"
      >
        <DialogTitle id="submit-evidence-title">Submit evidence</DialogTitle>
        <DialogContent dividers>
          <Stack gap={2}>
            <Typography variant="body2">
              Dispute <strong>{dispute.dispute_id}</strong> at {gateway}. {gateway} gets the fields below and the
              defence pack as one PDF.
            </Typography>
            <FormControl disabled={isBusy}>
              <FormLabel id="evidence-pack-label">Defence pack</FormLabel>
              <RadioGroup
                aria-labelledby="evidence-pack-label"
                value={String(packType)}
                onChange={(event) => {
                  setPackType(Number(event.target.value) as DefencePackType);
                  setRefusal(null);
                }}
              >
                {DEFENCE_PACK_TYPES.map((type) => (
                  <FormControlLabel
                    key={type}
                    value={String(type)}
                    control={<Radio />}
                    label={`Defence pack ${type}: ${PACK_HINTS[type]}`}
                  />
                ))}
              </RadioGroup>
            </FormControl>
            {refusal ? (
              <Alert severity="error" onClose={() => setRefusal(null)}>
                {refusal}
              </Alert>
            ) : null}
            {preview.isFetching ? <LinearProgress aria-label="Loading the evidence preview" /> : null}
            {previewError && !preview.isFetching ? (
              <Alert
                severity="error"
                action={
                  <Button color="inherit" size="small" onClick={() => void preview.refetch()}>
                    Try again
                  </Button>
                }
              >
                The evidence could not be prepared. {previewError.message}
              </Alert>
            ) : null}
            {preview.data && !preview.isFetching ? (
              <>
                <Stack direction="row" alignItems="center" gap={1} flexWrap="wrap">
                  <Button
                    variant="outlined"
                    startIcon={isOpeningPdf ? <CircularProgress size={16} aria-hidden="true" /> : <PictureAsPdfIcon />}
                    disabled={isOpeningPdf}
                    onClick={() => void openPdf()}
                  >
                    Open the PDF
                  </Button>
                  <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {preview.data.fileName}
                  </Typography>
                </Stack>
                <PreviewFields preview={preview.data} />
              </>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          {isBusy ? <CircularProgress size={20} aria-label={`Sending to ${gateway}`} sx={{ mr: 'auto' }} /> : null}
          <Button onClick={onClose} disabled={isBusy}>
            Cancel
          </Button>
          {preview.data?.drafts === false ? null : (
            <Button variant="outlined" disabled={!canSend} onClick={() => void send(false)}>
              Save draft
            </Button>
          )}
          <Button variant="contained" disabled={!canSend} onClick={() => setIsConfirming(true)}>
            Submit
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={isConfirming}
        onClose={() => setIsConfirming(false)}
        maxWidth="xs"
        fullWidth
        aria-labelledby="confirm-submit-title"
        aria-describedby="confirm-submit-text"
      >
        <DialogTitle id="confirm-submit-title">Submit the evidence to {gateway}?</DialogTitle>
        <DialogContent>
          <DialogContentText id="confirm-submit-text">
            This is final: {gateway} sends defence pack {packType} to the card issuer for review, and it cannot be
            changed or sent again.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setIsConfirming(false)}>No</Button>
          <Button variant="contained" autoFocus onClick={() => void send(true)}>
            Yes, submit
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
