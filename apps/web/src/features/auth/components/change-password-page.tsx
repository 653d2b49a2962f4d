// Update Password page (spec §2, §5): Enter New Password and an Update Password button; issue 34 adds the current
// password first, so a session left open cannot lock its owner out.
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { MIN_PASSWORD_LENGTH } from '@eta/contracts/domain';
import { FormTextField } from '../../../components/form-text-field';
import { PageHeader } from '../../../components/page-header';
import { useChangePassword } from '../hooks/use-change-password';

interface ChangePasswordValues {
  currentPassword: string;
  newPassword: string;
}

export function ChangePasswordPage() {
  const { updatePassword, isSaving } = useChangePassword();
  const { control, handleSubmit } = useForm<ChangePasswordValues>({
    defaultValues: { currentPassword: '', newPassword: '' },
  });

  return (
    <>
      <PageHeader title="Change Password" />
      <Paper sx={{ p: 3, maxWidth: 480 }}>
        <Stack
          component="form"
          noValidate
          gap={2}
          onSubmit={(event) =>
            void handleSubmit((values) => updatePassword(values.currentPassword, values.newPassword))(event)
          }
        >
          <FormTextField
            control={control}
            name="currentPassword"
            label="Current Password"
            type="password"
            autoComplete="current-password"
            fullWidth
            rules={{ required: 'Please enter your current password.' }}
          />
          <FormTextField
            control={control}
            name="newPassword"
            label="Enter New Password"
            type="password"
            autoComplete="new-password"
            fullWidth
            rules={{
              required: 'Please enter your New Password.',
              minLength: { value: MIN_PASSWORD_LENGTH, message: 'New Password must be at least 6 characters.' },
            }}
          />
          <Button type="submit" variant="contained" disabled={isSaving} sx={{ alignSelf: 'flex-start' }}>
            Update Password
          </Button>
        </Stack>
      </Paper>
    </>
  );
}
