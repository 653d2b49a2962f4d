// The new intake key, shown this once: the server keeps only its hash, so closing the dialog loses it for good.
// Only the Close button closes it (not a click beside it, not Escape), so a stray click does not throw the key away.
import { useState } from 'react';
import { toast } from 'react-toastify';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { formatUtcDateTime } from '../../../lib/format';
import type { CreatedIntakeKey } from '../hooks/use-create-intake-key';

/** What became of the keys this one replaced. */
function retiringText(created: CreatedIntakeKey): string | null {
  if (created.retiring.length === 0) return null;
  const ids = created.retiring.map((old) => old.id).join(', ');
  if (created.graceMinutes === 0) return `The previous key (${ids}) no longer works.`;
  const until = created.retiring.map((old) => `${formatUtcDateTime(old.retires_at)} UTC`);
  return `The previous key (${ids}) keeps working until ${[...new Set(until)].join(', ')}.`;
}

export function IntakeKeyDialog({ created, onClose }: { created: CreatedIntakeKey; onClose: () => void }) {
  const [isCopied, setIsCopied] = useState(false);
  const retiring = retiringText(created);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.intakeKey);
      setIsCopied(true);
    } catch {
      // No clipboard (an insecure page, a refused permission): the key is selectable text.
      toast.error('The key could not be copied: select it and copy it by hand.');
    }
  };

  return (
    <Dialog
      open
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick' && reason !== 'escapeKeyDown') onClose();
      }}
      maxWidth="sm"
      fullWidth
      aria-labelledby="intake-key-title"
      aria-describedby="intake-key-warning"
    >
      <DialogTitle id="intake-key-title">New intake key for {created.siteName}</DialogTitle>
      <DialogContent dividers>
        <Stack gap={2}>
          <Alert id="intake-key-warning" severity="warning">
            Copy this key now: it will not be shown again. The server stores only a hash of it, so a lost key cannot be
            recovered, only replaced by rotating.
          </Alert>
          <Box
            component="code"
            data-testid="intake-key"
            sx={{
              display: 'block',
              fontFamily: 'monospace',
              fontSize: '0.95rem',
              p: 1.5,
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              bgcolor: 'grey.50',
              // Break anywhere, never after the key's own hyphens, so no character of it reads as a line break.
              wordBreak: 'break-all',
              userSelect: 'all',
            }}
          >
            {created.intakeKey}
          </Box>
          <Typography variant="body2" color="text.secondary">
            Give it to the landing site&apos;s developer over a safe channel; the site sends it as{' '}
            <code>Authorization: Bearer &lt;key&gt;</code>. Its id is <code>{created.id}</code>.
          </Typography>
          {retiring ? <Alert severity="info">{retiring}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button
          variant="outlined"
          startIcon={isCopied ? <CheckIcon /> : <ContentCopyIcon />}
          onClick={() => void copy()}
        >
          {isCopied ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
