// The console's entry (DESIGN §7): shown at '/' and in place of any /admin page while signed out.
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { BrandLogo } from '../../../components/brand-logo';
import { PageTitle } from '../../../components/page-title';
import { CONSOLE_TITLE } from '../../../config/brand';
import { useSignIn } from '../hooks/use-sign-in';
import { SignInForm } from './sign-in-form';

const MOBILE = '@media (max-width: 767px)';

export function SignInPage({ redirectTo }: { redirectTo: string }) {
  const { signIn, isSigningIn } = useSignIn(redirectTo);

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
            Sign In
          </Typography>
          <SignInForm isSubmitting={isSigningIn} onSubmit={signIn} />
        </Box>
      </Paper>
    </Box>
  );
}
