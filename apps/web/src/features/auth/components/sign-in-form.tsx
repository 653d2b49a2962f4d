// Sign-in form of spec §2/§5: Email ID and Password with the spec's exact validation messages.
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import type { LoginBody } from '@eta/contracts';
import { FormTextField } from '../../../components/form-text-field';

export const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;

interface SignInFormProps {
  isSubmitting: boolean;
  onSubmit: (credentials: LoginBody) => Promise<void>;
}

export function SignInForm({ isSubmitting, onSubmit }: SignInFormProps) {
  const { control, handleSubmit } = useForm<LoginBody>({ defaultValues: { email: '', password: '' } });

  return (
    <Stack
      component="form"
      noValidate
      gap={2.5}
      onSubmit={(event) =>
        void handleSubmit((values) => onSubmit({ email: values.email.trim(), password: values.password }))(event)
      }
    >
      <FormTextField
        control={control}
        name="email"
        label="Email ID"
        type="email"
        autoComplete="username"
        fullWidth
        rules={{
          required: 'Email Address is required',
          pattern: { value: EMAIL_PATTERN, message: 'Invalid email address' },
        }}
      />
      <FormTextField
        control={control}
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        fullWidth
        rules={{ required: 'Password is required' }}
      />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        Sign In
      </Button>
    </Stack>
  );
}
