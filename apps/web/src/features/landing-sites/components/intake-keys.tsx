// A site's intake keys: the ones that still work (the current key and any replaced key in its grace period), and
// Create key (no working key) or Rotate key (asks first, and how long the old key keeps working so the landing
// site has time to switch). The new key is shown once, in IntakeKeyDialog.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import type { IntakeKeyInfo, LandingSiteAdmin } from '@eta/contracts';
import { formatUtcDateTime } from '../../../lib/format';
import { useCreateIntakeKey } from '../hooks/use-create-intake-key';
import { DEFAULT_GRACE_MINUTES, GRACE_CHOICES } from '../landing-site-rules';
import { IntakeKeyDialog } from './intake-key-dialog';

/** What tells whether the site can send orders comes first; the rest may scroll sideways on a phone. */
const KEY_HEADINGS = ['Key id', 'Status', 'Last used (UTC)', 'Orders', 'Created (UTC)', 'Created by'];

function KeyStatus({ intakeKey }: { intakeKey: IntakeKeyInfo }) {
  if (!intakeKey.retires_at) return <Chip size="small" color="success" label="Current" />;
  // Plain text, not a chip: the time may go under "Retires" on a phone.
  return (
    <Box component="span" sx={{ color: 'warning.dark', fontWeight: 500 }}>
      Retires {formatUtcDateTime(intakeKey.retires_at)}
    </Box>
  );
}

function KeyTable({ site }: { site: LandingSiteAdmin }) {
  return (
    <TableContainer
      sx={{ overflowX: 'auto', border: 1, borderColor: 'divider', '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } }}
    >
      <Table size="small" aria-label={`Intake keys of ${site.display_name}`}>
        <TableHead>
          <TableRow>
            {KEY_HEADINGS.map((heading) => (
              <TableCell key={heading} sx={{ whiteSpace: 'nowrap' }} align={heading === 'Orders' ? 'right' : 'left'}>
                {heading}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {site.intakeKeys.map((intakeKey) => (
            <TableRow key={intakeKey.id} hover>
              <TableCell sx={{ fontFamily: 'monospace' }}>{intakeKey.id}</TableCell>
              <TableCell sx={{ minWidth: 90 }}>
                <KeyStatus intakeKey={intakeKey} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {intakeKey.last_used_at ? formatUtcDateTime(intakeKey.last_used_at) : 'Never'}
              </TableCell>
              <TableCell align="right">{intakeKey.orders.toLocaleString('en')}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatUtcDateTime(intakeKey.created_at)}</TableCell>
              <TableCell>{intakeKey.created_by ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

interface RotateKeyDialogProps {
  site: LandingSiteAdmin;
  busy: boolean;
  onCancel: () => void;
  onRotate: (graceMinutes: number) => void;
}

function RotateKeyDialog({ site, busy, onCancel, onRotate }: RotateKeyDialogProps) {
  const [graceMinutes, setGraceMinutes] = useState<number>(DEFAULT_GRACE_MINUTES);
  const current = site.intakeKeys.find((intakeKey) => !intakeKey.retires_at) ?? site.intakeKeys[0];
  return (
    <Dialog open onClose={busy ? undefined : onCancel} maxWidth="xs" fullWidth aria-labelledby="rotate-key-title">
      <DialogTitle id="rotate-key-title">Rotate the intake key?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {site.display_name} gets a new key, shown once. Its forms must switch to it; until they do, the old key{' '}
          {current ? <code>{current.id}</code> : null} can keep working for a while.
        </DialogContentText>
        <TextField
          select
          fullWidth
          label="The old key"
          value={graceMinutes}
          disabled={busy}
          onChange={(event) => setGraceMinutes(Number(event.target.value))}
          helperText={graceMinutes === 0 ? 'Orders sent with the old key are refused from now on.' : 'Then it stops.'}
        >
          {GRACE_CHOICES.map((choice) => (
            <MenuItem key={choice.minutes} value={choice.minutes}>
              {choice.minutes === 0 ? choice.label : `Keeps working for ${choice.label}`}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" disabled={busy} onClick={() => onRotate(graceMinutes)}>
          Rotate key
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function IntakeKeys({ site }: { site: LandingSiteAdmin }) {
  const keys = useCreateIntakeKey();
  const [isRotating, setIsRotating] = useState(false);
  const hasKey = site.intakeKeys.length > 0;

  return (
    <Box component="section" aria-label={`Intake key of ${site.display_name}`}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" gap={1} flexWrap="wrap" sx={{ mb: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Intake key
        </Typography>
        {hasKey ? (
          <Button
            variant="outlined"
            size="small"
            startIcon={<AutorenewIcon />}
            disabled={keys.isCreating}
            onClick={() => setIsRotating(true)}
          >
            Rotate key
          </Button>
        ) : (
          <Button
            variant="contained"
            size="small"
            startIcon={<AddIcon />}
            disabled={keys.isCreating}
            onClick={() => void keys.create(site)}
          >
            Create key
          </Button>
        )}
      </Stack>
      {hasKey ? (
        <KeyTable site={site} />
      ) : (
        <Alert severity="warning">No intake key yet: this site&apos;s forms cannot send orders.</Alert>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        For the landing site&apos;s developer: the call is described at{' '}
        <Link href="/api/docs" target="_blank" rel="noopener noreferrer">
          /api/docs
        </Link>{' '}
        and in docs/INTAKE.md.
      </Typography>
      {isRotating ? (
        <RotateKeyDialog
          site={site}
          busy={keys.isCreating}
          onCancel={() => setIsRotating(false)}
          onRotate={(graceMinutes) =>
            void keys.create(site, graceMinutes).then((made) => {
              if (made) setIsRotating(false);
            })
          }
        />
      ) : null}
      {keys.created ? <IntakeKeyDialog created={keys.created} onClose={keys.forget} /> : null}
    </Box>
  );
}
