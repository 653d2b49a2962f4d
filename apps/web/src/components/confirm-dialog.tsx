// Yes/No confirmation of spec §8; the default text is the delete question.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';

export const DEFAULT_CONFIRM_TEXT = 'Are you sure you want to delete?';

interface ConfirmDialogProps {
  open: boolean;
  text?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  open,
  text = DEFAULT_CONFIRM_TEXT,
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={onCancel} aria-describedby="confirm-dialog-text" maxWidth="xs" fullWidth>
      <DialogContent>
        <DialogContentText id="confirm-dialog-text">{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          No
        </Button>
        <Button onClick={onConfirm} variant="contained" disabled={busy} autoFocus>
          Yes
        </Button>
      </DialogActions>
    </Dialog>
  );
}
