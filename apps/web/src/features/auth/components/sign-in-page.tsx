// The console's entry (DESIGN §7): shown at '/' and in place of any /admin page while signed out.
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BrandLogo } from '../../../components/brand-logo';
import { PageTitle } from '../../../components/page-title';
import { CONSOLE_TITLE } from '../../../config/brand';
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

export function SignInPage({ redirectTo }: { redirectTo: string }) {
  const { signIn, submitCode, finish, restart, step, isSigningIn } = useSignIn(redirectTo);

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
          {step.kind === 'password' && <SignInForm isSubmitting={isSigningIn} onSubmit={signIn} />}
          {step.kind === 'code' && (
            <Stack gap={2}>
              <Typography variant="body2">Enter the 6-digit code from your authenticator app.</Typography>
              <CodeForm
                allowRecoveryCode
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
