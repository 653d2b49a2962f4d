// /login/sso (issue 34): where the single sign-on provider sends the browser back. The provider's answer (its query)
// goes to the server with the state this tab started with; the server checks both, and the member is in, or reads
// why not and starts again. The answer's code leaves the address bar at once.
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { toast } from 'react-toastify';
import { PageTitle } from '../../../components/page-title';
import { paths } from '../../../config/paths';
import { loginStep } from '../../../lib/auth/auth-slice';
import { takeSingleSignOnState } from '../../../lib/auth/single-sign-on';
import { useAppDispatch } from '../../../lib/store';

export function SsoCallbackPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Once: the answer is single use (React's development double effect would spend it twice).
    if (started.current) return;
    started.current = true;
    const callback = window.location.search;
    window.history.replaceState(null, '', paths.ssoCallback);
    const state = takeSingleSignOnState();
    if (!state) {
      setFailure('This sign-in did not start in this browser tab. Please start again.');
      return;
    }
    void dispatch(loginStep({ kind: 'sso', body: { callback, state } })).then((result) => {
      if (loginStep.fulfilled.match(result) && result.payload.status === 1) {
        toast.success(result.payload.message ?? 'Signed in.');
        void navigate(paths.dashboard, { replace: true });
        return;
      }
      const body = loginStep.fulfilled.match(result) ? result.payload : undefined;
      setFailure(body?.message ?? body?.error?.message ?? 'Single sign-on did not finish. Please start again.');
    });
  }, [dispatch, navigate]);

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}>
      <PageTitle title="Signing in" />
      <Paper elevation={3} sx={{ width: '100%', maxWidth: 480, p: { xs: 3, sm: 5 } }}>
        <Typography variant="h5" component="h1" gutterBottom>
          Single sign-on
        </Typography>
        {failure ? (
          <Stack gap={2}>
            <Alert severity="error">{failure}</Alert>
            <Button variant="contained" onClick={() => void navigate(paths.entry, { replace: true })}>
              Back to sign in
            </Button>
          </Stack>
        ) : (
          <Stack direction="row" gap={2} alignItems="center">
            <CircularProgress size={24} />
            <Typography>Signing you in…</Typography>
          </Stack>
        )}
      </Paper>
    </Box>
  );
}
