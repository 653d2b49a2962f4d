// What an authenticator app needs while it is set up (issue 34): the QR code, and the secret in text for an app
// that cannot scan. Shown once: the desk never returns the secret after the first code confirms it.
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TotpSetup } from '@eta/contracts';

export function TotpSetupCard({ setup }: { setup: TotpSetup }) {
  const grouped = setup.secret.match(/.{1,4}/g)?.join(' ') ?? setup.secret;
  return (
    <Stack gap={1.5} alignItems="flex-start">
      <Typography variant="body2">
        Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password …), then
        enter the 6-digit code it shows.
      </Typography>
      <Box
        component="img"
        alt="QR code for your authenticator app"
        src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrSvg)}`}
        sx={{ width: 180, height: 180, bgcolor: 'common.white', p: 1, border: 1, borderColor: 'divider' }}
      />
      <Typography variant="body2">Or type this key into the app:</Typography>
      <Typography
        component="code"
        data-testid="totp-secret"
        sx={{ fontFamily: 'monospace', fontSize: 15, wordBreak: 'break-all', bgcolor: 'grey.100', px: 1, py: 0.5 }}
      >
        {grouped}
      </Typography>
    </Stack>
  );
}
