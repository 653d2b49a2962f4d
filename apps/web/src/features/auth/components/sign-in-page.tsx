// The console's entry (DESIGN §7): shown at '/' and in place of any /admin page while signed out.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BrandLogo } from '../../../components/brand-logo';
import { PageTitle } from '../../../components/page-title';
import { CONSOLE_TITLE } from '../../../config/brand';
import { useSignInOptionsQuery } from '../../../lib/auth/account-api';
import { passkeysSupported } from '../../../lib/auth/passkeys';
import { useSignIn } from '../hooks/use-sign-in';
import { SignInForm } from './sign-in-form';
import { CodeForm } from './code-form';
import { EnrolStep } from './enrol-step';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import type { SignInStep } from '../hooks/use-sign-in';

const STEP_TITLE: Record<SignInStep['kind'], string> = {
  password: 'Sign In',
  code: 'Two-step verification',
  enrol: 'Set up two-step verification',
  'recovery-codes': 'Your recovery codes',
};

const MOBILE = '@media (max-width: 767px)';

/** Besides the password: single sign-on, and a passkey alone, where this desk offers them. */
function OtherWays({ disabled, onSso, onPasskey }: { disabled: boolean; onSso: () => void; onPasskey: () => void }) {
  const { data: options } = useSignInOptionsQuery();
  const passkeys = Boolean(options?.passkeys) && passkeysSupported();
  if (!options?.sso && !passkeys) return null;
  return (
    <Stack gap={1.5} sx={{ mt: 3 }}>
      <Divider>or</Divider>
      {options?.sso && (
        <Button variant="outlined" size="large" disabled={disabled} onClick={onSso}>
          Sign in with {options.sso.name}
        </Button>
      )}
      {passkeys && (
        <Button variant="outlined" size="large" disabled={disabled} onClick={onPasskey}>
          Sign in with a passkey
        </Button>
      )}
    </Stack>
  );
}

export function SignInPage({ redirectTo }: { redirectTo: string }) {
  const { signIn, submitCode, submitPasskey, signInWithPasskey, signInWithSso, finish, restart, step, isSigningIn } =
    useSignIn(redirectTo);

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2, [MOBILE]: { p: 0 } }}
    >
      <PageTitle title="Sign In" />
      <Paper
        elevation={3}
        sx={{
          width: '100%',
          maxWidth: 810,
          display: 'grid',
          gridTemplateColumns: '1fr 1fr',
          overflow: 'hidden',
          [MOBILE]: { gridTemplateColumns: '1fr', borderRadius: 0, minHeight: '100vh' },
        }}
      >
        <Box
          sx={{
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
            p: 5,
            display: 'flex',
            flexDirection: 'column',
            justifyContent: 'center',
            gap: 2,
            [MOBILE]: { p: 3 },
          }}
        >
          <BrandLogo size={56} />
          <Typography variant="h5" component="p">
            {CONSOLE_TITLE}
          </Typography>
          <Typography variant="body2">Staff console for Canada Electronic Travel Authorization orders.</Typography>
        </Box>
        <Box sx={{ p: 5, [MOBILE]: { p: 3 } }}>
          <Typography variant="h5" component="h1" gutterBottom>
            {STEP_TITLE[step.kind]}
          </Typography>
          {step.kind === 'password' && (
            <>
              <SignInForm isSubmitting={isSigningIn} onSubmit={signIn} />
              <OtherWays
                disabled={isSigningIn}
                onSso={() => void signInWithSso()}
                onPasskey={() => void signInWithPasskey()}
              />
            </>
          )}
          {step.kind === 'code' && (
            <Stack gap={2}>
              {step.methods.includes('passkey') && (
                <Button
                  variant={step.methods.includes('totp') ? 'outlined' : 'contained'}
                  size="large"
                  disabled={isSigningIn}
                  onClick={() => void submitPasskey()}
                >
                  Use your passkey
                </Button>
              )}
              <Typography variant="body2">
                {step.methods.includes('totp')
                  ? `Enter the 6-digit code from your authenticator app${step.methods.includes('passkey') ? ', or use your passkey' : ''}.`
                  : 'Lost your passkey? Enter one of your recovery codes instead.'}
              </Typography>
              <CodeForm
                allowRecoveryCode
                recoveryOnly={!step.methods.includes('totp')}
                isSubmitting={isSigningIn}
                submitLabel="Verify"
                onSubmit={submitCode}
                onCancel={restart}
              />
            </Stack>
          )}
          {step.kind === 'enrol' && (
            <EnrolStep challenge={step.challenge} isSubmitting={isSigningIn} onSubmit={submitCode} onCancel={restart} />
          )}
          {step.kind === 'recovery-codes' && (
            <RecoveryCodesPanel
              codes={step.recoveryCodes}
              continueLabel="I have saved them: continue"
              onContinue={finish}
            />
          )}
        </Box>
      </Paper>
    </Box>
  );
}
