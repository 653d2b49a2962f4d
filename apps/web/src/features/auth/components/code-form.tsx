// The second step of a sign-in, and the first code of an app being set up (issue 34): the 6-digit code from the
// authenticator app, or (signing in) one of the recovery codes instead.
import { useState } from 'react';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form-text-field';

interface CodeValues {
  code: string;
}

interface CodeFormProps {
  /** Offers "Use a recovery code instead" (signing in; not while setting up an app). */
  allowRecoveryCode: boolean;
  /** The member has no authenticator app (a passkey only): a recovery code is the only code to type. */
  recoveryOnly?: boolean;
  isSubmitting: boolean;
  submitLabel: string;
  onSubmit: (proof: { code?: string; recoveryCode?: string }) => Promise<void> | void;
  onCancel?: () => void;
}

export function CodeForm({
  allowRecoveryCode,
  recoveryOnly = false,
  isSubmitting,
  submitLabel,
  onSubmit,
  onCancel,
}: CodeFormProps) {
  const [useRecovery, setUseRecovery] = useState(recoveryOnly);
  const { control, handleSubmit, reset } = useForm<CodeValues>({ defaultValues: { code: '' } });
  const toggle = () => {
    setUseRecovery((on) => !on);
    reset({ code: '' });
  };

  return (
    <Stack
      component="form"
      noValidate
      gap={2}
      onSubmit={(event) =>
        void handleSubmit(async ({ code }) => {
          await onSubmit(useRecovery ? { recoveryCode: code.trim() } : { code: code.replace(/\s+/g, '') });
          reset({ code: '' });
        })(event)
      }
    >
      {useRecovery ? (
        <FormTextField
          key="recovery"
          control={control}
          name="code"
          label="Recovery code"
          autoComplete="off"
          placeholder="xxxx-xxxx-xxxx-xxxx"
          autoFocus
          fullWidth
          rules={{ required: 'Please enter one of your recovery codes.' }}
        />
      ) : (
        <FormTextField
          key="code"
          control={control}
          name="code"
          label="6-digit code"
          autoComplete="one-time-code"
          autoFocus
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
          rules={{
            required: 'Please enter the code from your authenticator app.',
            pattern: { value: /^\s*\d{3}\s?\d{3}\s*$/, message: 'The code is 6 digits.' },
          }}
        />
      )}
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        {submitLabel}
      </Button>
      <Stack direction="row" justifyContent="space-between" flexWrap="wrap" gap={1}>
        {allowRecoveryCode && !recoveryOnly && (
          <Link component="button" type="button" variant="body2" onClick={toggle}>
            {useRecovery ? 'Use the authenticator app' : 'Use a recovery code instead'}
          </Link>
        )}
        {onCancel && (
          <Link component="button" type="button" variant="body2" onClick={onCancel}>
            Back to sign in
          </Link>
        )}
      </Stack>
    </Stack>
  );
}
