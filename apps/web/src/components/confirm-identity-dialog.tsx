// "Confirm it's you" (issue 34): the current password, or a code from the authenticator app (or a recovery code),
// before a change that takes an account over. Good for a few minutes in this session.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { FormTextField } from './form-text-field';
import type { ApiError } from '../lib/api';
import { useConfirmIdentityMutation } from '../lib/auth/account-api';

interface ConfirmIdentityDialogProps {
  open: boolean;
  onDone: () => void;
  onCancel: () => void;
}

export function ConfirmIdentityDialog({ open, onDone, onCancel }: ConfirmIdentityDialogProps) {
  const [withCode, setWithCode] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirm, { isLoading }] = useConfirmIdentityMutation();
  const { control, handleSubmit, reset } = useForm<{ secret: string }>({ defaultValues: { secret: '' } });
  const finish = (done: boolean) => {
    reset({ secret: '' });
    setFailure(null);
    if (done) onDone();
    else onCancel();
  };
  const submit = handleSubmit(async ({ secret }) => {
    try {
      await confirm(withCode ? { code: secret.trim() } : { password: secret }).unwrap();
      finish(true);
    } catch (error) {
      setFailure((error as ApiError).message);
    }
  });

  return (
    <Dialog open={open} onClose={() => finish(false)} maxWidth="xs" fullWidth>
      <Stack component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle>Confirm it is you</DialogTitle>
        <DialogContent>
          <Stack gap={2} sx={{ pt: 1 }}>
            <Typography variant="body2">
              This change needs your {withCode ? 'code' : 'current password'} again.
            </Typography>
            {failure && <Alert severity="error">{failure}</Alert>}
            <FormTextField
              key={withCode ? 'code' : 'password'}
              control={control}
              name="secret"
              label={withCode ? 'Code from your app, or a recovery code' : 'Current password'}
              type={withCode ? 'text' : 'password'}
              autoComplete={withCode ? 'one-time-code' : 'current-password'}
              autoFocus
              fullWidth
              rules={{ required: withCode ? 'Please enter a code.' : 'Please enter your current password.' }}
            />
            <Link
              component="button"
              type="button"
              variant="body2"
              sx={{ alignSelf: 'flex-start' }}
              onClick={() => setWithCode((on) => !on)}
            >
              {withCode ? 'Use my password instead' : 'Use a code instead'}
            </Link>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => finish(false)} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            Confirm
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
