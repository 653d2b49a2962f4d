// Change Gateway (spec §2, §5): a select of the payment gateways and the Active Gateway button. The active one
// is named; switching shows the server's message. Admins also see each gateway's health and the webhooks the
// desk could not match (issue 21).
import { useState } from 'react';
import { toast } from 'react-toastify';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { StaffType } from '@eta/contracts';
import { can, GATEWAY_REQUIRED } from '@eta/contracts/domain';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import type { ApiError } from '../../../lib/api';
import { useActivateGatewayMutation, useGatewayHealthQuery, useGatewaysQuery } from '../api/gateways-api';
import { GatewayHealthList } from './gateway-health';
import { UnmatchedEvents } from './unmatched-events';

function GatewayHealthSection() {
  const health = useGatewayHealthQuery(undefined, { refetchOnMountOrArgChange: true });
  const error = health.error as ApiError | undefined;
  return (
    <Stack component="section" aria-labelledby="gateway-health-heading" gap={2} sx={{ minWidth: 0 }}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" gap={1} flexWrap="wrap">
        <Typography id="gateway-health-heading" variant="h6" component="h2">
          Gateway health
        </Typography>
        <Button
          variant="outlined"
          size="small"
          startIcon={<RefreshIcon />}
          disabled={health.isFetching}
          onClick={() => void health.refetch()}
        >
          Refresh
        </Button>
      </Stack>
      {health.isLoading ? (
        <PageLoader />
      ) : !health.data ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void health.refetch()}>
              Try again
            </Button>
          }
        >
          The gateways&apos; health could not be loaded. {error?.message ?? ''}
        </Alert>
      ) : (
        <GatewayHealthList gateways={health.data} />
      )}
    </Stack>
  );
}

export function GatewaySettingPage({ callerType }: { callerType: StaffType }) {
  const gateways = useGatewaysQuery();
  const [activate, { isLoading }] = useActivateGatewayMutation();
  const [chosen, setChosen] = useState<string>('');
  const [error, setError] = useState<string | null>(null);
  const active = gateways.data?.find((g) => g.is_active === '1');

  const submit = async () => {
    if (chosen === '') {
      setError(GATEWAY_REQUIRED);
      return;
    }
    try {
      toast.success(await activate(Number(chosen)).unwrap());
      setChosen('');
    } catch {
      // The API layer showed the server's message.
    }
  };

  return (
    <>
      <PageHeader title="Change Gateway" />
      <Paper sx={{ p: 3, maxWidth: 560 }}>
        {/* Part of the page, not an alert: only a change the person makes is announced (the toast after saving). */}
        {active ? (
          <Typography sx={{ mb: 2 }}>
            Active gateway: <strong>{active.gateway_name}</strong>
          </Typography>
        ) : null}
        <Stack
          component="form"
          noValidate
          gap={2}
          aria-label="Change Gateway"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <TextField
            select
            label="Gateway"
            value={chosen}
            disabled={isLoading || gateways.isLoading}
            error={error !== null}
            helperText={error ?? ' '}
            onChange={(event) => {
              setChosen(event.target.value);
              setError(null);
            }}
          >
            {(gateways.data ?? []).map((g) => (
              <MenuItem key={g.id} value={String(g.id)}>
                {g.gateway_name}
                {g.is_active === '1' ? ' (active)' : ''}
              </MenuItem>
            ))}
          </TextField>
          <Button type="submit" variant="contained" disabled={isLoading} sx={{ alignSelf: 'flex-start' }}>
            Active Gateway
          </Button>
        </Stack>
      </Paper>
      {can(callerType, 'viewGatewayHealth') ? (
        <Stack gap={3} sx={{ mt: 3 }}>
          <GatewayHealthSection />
          <UnmatchedEvents />
        </Stack>
      ) : null}
    </>
  );
}
