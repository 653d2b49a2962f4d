// Change Gateway (spec §2, §5): a select of the payment gateways and the Active Gateway button. The active one
// is named; switching shows the server's message. A gateway this server has no keys for is marked so, as the active
// one too, and activating it asks first (issue 33). Admins also see each gateway's health and the webhooks the desk
// could not match (issue 21).
import { useState } from 'react';
import { toast } from 'react-toastify';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { Gateway, StaffType } from '@eta/contracts';
import { can, GATEWAY_REQUIRED } from '@eta/contracts/domain';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import type { ApiError } from '../../../lib/api';
import { useActivateGatewayMutation, useGatewayHealthQuery, useGatewaysQuery } from '../api/gateways-api';
import { GatewayHealthList } from './gateway-health';
import { UnmatchedEvents } from './unmatched-events';

/** What a gateway without keys means for the desk (the server's messages say the same). */
const notConfiguredMeaning = (name: string) =>
  `${name} is not configured on this server: until its keys are set, payments made through it are not verified, and refunds and dispute evidence cannot go through it.`;

const activateAnywayQuestion = (name: string) =>
  `${notConfiguredMeaning(name)} Make ${name} the active gateway anyway?`;

function optionLabel(g: Gateway): string {
  const notes = [g.is_active === '1' ? 'active' : null, g.configured ? null : 'not configured'].filter(Boolean);
  return notes.length > 0 ? `${g.gateway_name} (${notes.join(', ')})` : g.gateway_name;
}

/** The active gateway, marked in a warning colour when it cannot do its work here. */
function ActiveGatewayLine({ active }: { active: Gateway }) {
  return (
    <Stack gap={1} sx={{ mb: 2 }}>
      <Stack direction="row" alignItems="center" gap={1} flexWrap="wrap">
        <Typography>
          Active gateway: <strong>{active.gateway_name}</strong>
        </Typography>
        {active.configured ? null : <Chip size="small" color="warning" label="Active — not configured" />}
      </Stack>
      {/* Part of the page, not an alert: only a change the person makes is announced (the toast after saving). */}
      {active.configured ? null : (
        <Alert severity="warning" role="note">
          {notConfiguredMeaning(active.gateway_name)}
        </Alert>
      )}
    </Stack>
  );
}

function GatewayHealthSection({ activeName }: { activeName: string | undefined }) {
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
        <GatewayHealthList gateways={health.data} activeName={activeName} />
      )}
    </Stack>
  );
}

export function GatewaySettingPage({ callerType }: { callerType: StaffType }) {
  const gateways = useGatewaysQuery();
  const [activate, { isLoading }] = useActivateGatewayMutation();
  const [chosen, setChosen] = useState<string>('');
  const [error, setError] = useState<string | null>(null);
  /** The gateway without keys waiting for the person's Yes. */
  const [unconfigured, setUnconfigured] = useState<Gateway | null>(null);
  const active = gateways.data?.find((g) => g.is_active === '1');

  const switchTo = async (gateway: Gateway, isWarned: boolean) => {
    try {
      const message = await activate({
        gatewayId: gateway.id,
        ...(isWarned ? { activateNotConfigured: true } : {}),
      }).unwrap();
      if (gateway.configured) toast.success(message);
      else toast.warning(message);
      setChosen('');
    } catch (failure) {
      // The keys went away since the list was read: the server's refusal becomes the same question.
      if ((failure as ApiError).code === 'GATEWAY_NOT_CONFIGURED') {
        void gateways.refetch();
        setUnconfigured({ ...gateway, configured: false });
      }
      // Any other failure: the API layer showed the server's message.
    }
  };

  const submit = () => {
    const gateway = gateways.data?.find((g) => String(g.id) === chosen);
    if (!gateway) {
      setError(GATEWAY_REQUIRED);
      return;
    }
    if (!gateway.configured && gateway.is_active !== '1') setUnconfigured(gateway);
    else void switchTo(gateway, false);
  };

  return (
    <>
      <PageHeader title="Change Gateway" />
      <Paper sx={{ p: 3, maxWidth: 560 }}>
        {active ? <ActiveGatewayLine active={active} /> : null}
        <Stack
          component="form"
          noValidate
          gap={2}
          aria-label="Change Gateway"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
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
                {optionLabel(g)}
              </MenuItem>
            ))}
          </TextField>
          <Button type="submit" variant="contained" disabled={isLoading} sx={{ alignSelf: 'flex-start' }}>
            Active Gateway
          </Button>
        </Stack>
        <ConfirmDialog
          open={unconfigured !== null}
          text={unconfigured ? activateAnywayQuestion(unconfigured.gateway_name) : undefined}
          busy={isLoading}
          onCancel={() => setUnconfigured(null)}
          onConfirm={() => {
            const gateway = unconfigured;
            setUnconfigured(null);
            if (gateway) void switchTo(gateway, true);
          }}
        />
      </Paper>
      {can(callerType, 'viewGatewayHealth') ? (
        <Stack gap={3} sx={{ mt: 3 }}>
          <GatewayHealthSection activeName={active?.gateway_name} />
          <UnmatchedEvents />
        </Stack>
      ) : null}
    </>
  );
}
