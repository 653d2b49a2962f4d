// The ten recovery codes, shown once (issue 34): each signs in once when the phone is lost. Copy or download them and
// keep them somewhere safe, away from the phone.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { toast } from 'react-toastify';

interface RecoveryCodesPanelProps {
  codes: string[];
  continueLabel: string;
  onContinue: () => void;
}

export function RecoveryCodesPanel({ codes, continueLabel, onContinue }: RecoveryCodesPanelProps) {
  const text = `eTA Desk recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Recovery codes copied.');
    } catch {
      toast.error('Could not copy: select the codes and copy them by hand.');
    }
  };
  const download = () => {
    const href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = href;
    link.download = 'eta-desk-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
  };
  return (
    <Stack gap={2}>
      <Alert severity="warning">
        Save these recovery codes now: they are shown only this once. Each signs you in once if you lose your phone.
      </Alert>
      <Box
        component="ol"
        aria-label="Recovery codes"
        sx={{
          m: 0,
          pl: 4,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          columnGap: 4,
          rowGap: 0.5,
          fontFamily: 'monospace',
          fontSize: 15,
        }}
      >
        {codes.map((code) => (
          <li key={code}>
            <Typography component="span" sx={{ fontFamily: 'inherit', fontSize: 'inherit' }}>
              {code}
            </Typography>
          </li>
        ))}
      </Box>
      <Stack direction="row" gap={1} flexWrap="wrap">
        <Button variant="outlined" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="outlined" onClick={download}>
          Download
        </Button>
        <Button variant="contained" onClick={onContinue} sx={{ ml: { sm: 'auto' } }}>
          {continueLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
