// Each payment gateway's health (issue 21, Admin): whether its credentials are set, what the desk can do through
// it, the webhook URL to paste into its dashboard, the last webhook received (and whether its signature held), the
// last error and a note on anything missing. Never a secret: only whether one is set.
import { useState, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import type { GatewayHealth } from '@eta/contracts';
import { formatUtcDateTime } from '../../../lib/format';

const SUPPORTS: [keyof Pick<GatewayHealth, 'verifiesPayments' | 'refunds' | 'disputes'>, string][] = [
  ['verifiesPayments', 'Verifies payments'],
  ['refunds', 'Refunds'],
  ['disputes', 'Dispute evidence'],
];

function WebhookUrl({ url, gatewayName }: { url: string; gatewayName: string }) {
  const [isCopied, setIsCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setIsCopied(true);
    } catch {
      // No clipboard (an insecure page, a refused permission): the address is selectable text.
      toast.error('The address could not be copied: select it and copy it by hand.');
    }
  };
  return (
    <Stack direction="row" alignItems="center" gap={1} sx={{ minWidth: 0 }}>
      <Box
        component="code"
        sx={{
          flex: 1,
          minWidth: 0,
          p: 0.75,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'grey.50',
          fontSize: '0.8125rem',
          overflowWrap: 'anywhere',
          userSelect: 'all',
        }}
      >
        {url}
      </Box>
      <Button
        size="small"
        variant="outlined"
        startIcon={isCopied ? <CheckIcon /> : <ContentCopyIcon />}
        aria-label={isCopied ? `Copied the ${gatewayName} webhook URL` : `Copy the ${gatewayName} webhook URL`}
        onClick={() => void copy()}
        sx={{ flexShrink: 0 }}
      >
        {isCopied ? 'Copied' : 'Copy'}
      </Button>
    </Stack>
  );
}

function LastWebhook({ gateway }: { gateway: GatewayHealth }) {
  if (!gateway.lastWebhookAt) return <>None received yet</>;
  return (
    <Stack direction="row" alignItems="center" gap={1} flexWrap="wrap" component="span">
      <span>{formatUtcDateTime(gateway.lastWebhookAt)} UTC</span>
      {gateway.lastWebhookVerified === false ? (
        <Chip size="small" color="error" label="Signature did not hold" />
      ) : gateway.lastWebhookVerified ? (
        <Chip size="small" color="success" variant="outlined" label="Signature verified" />
      ) : null}
    </Stack>
  );
}

function GatewayCard({ gateway, isActive }: { gateway: GatewayHealth; isActive: boolean }) {
  const headingId = `gateway-${gateway.gateway_name.replace(/\W+/g, '-').toLowerCase()}-health`;
  const rows: [string, ReactNode][] = [
    [
      'Supports',
      <Stack key="supports" direction="row" gap={0.5} flexWrap="wrap" component="span">
        {SUPPORTS.map(([key, label]) => (
          <Chip
            key={key}
            size="small"
            variant="outlined"
            color={gateway[key] ? 'success' : 'default'}
            icon={gateway[key] ? <CheckIcon /> : <CloseIcon />}
            label={label}
            aria-label={`${label}: ${gateway[key] ? 'yes' : 'no'}`}
          />
        ))}
      </Stack>,
    ],
    [
      'Webhook URL',
      gateway.webhookUrl ? (
        <WebhookUrl key="url" url={gateway.webhookUrl} gatewayName={gateway.gateway_name} />
      ) : (
        'This gateway sends no webhooks to the desk.'
      ),
    ],
    ['Last webhook', <LastWebhook key="webhook" gateway={gateway} />],
    [
      'Last error',
      gateway.lastError ? (
        <Box key="error" component="span" sx={{ color: 'error.main' }}>
          {gateway.lastErrorAt ? `${formatUtcDateTime(gateway.lastErrorAt)} UTC: ` : ''}
          {gateway.lastError}
        </Box>
      ) : (
        'None'
      ),
    ],
  ];
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <Stack direction="row" alignItems="center" gap={1} flexWrap="wrap" sx={{ mb: 1.5 }}>
        <Typography id={headingId} variant="h6" component="h3">
          {gateway.gateway_name}
        </Typography>
        {isActive && gateway.configured ? <Chip size="small" color="primary" label="Active" /> : null}
        {gateway.configured ? (
          <Chip size="small" color="success" label="Configured" />
        ) : (
          <Chip size="small" color="warning" label={isActive ? 'Active — not configured' : 'Not configured'} />
        )}
      </Stack>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' },
          columnGap: 2,
          rowGap: { xs: 0, sm: 1 },
          alignItems: 'center',
        }}
      >
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {gateway.note ? (
        // Environment variable names are long words: they break rather than run out of the box on a phone.
        <Alert severity={gateway.configured ? 'info' : 'warning'} sx={{ mt: 2, overflowWrap: 'anywhere' }}>
          {gateway.note}
        </Alert>
      ) : null}
    </Paper>
  );
}

export function GatewayHealthList({
  gateways,
  activeName,
}: {
  gateways: readonly GatewayHealth[];
  /** The active gateway's name: its card says so. */
  activeName?: string | undefined;
}) {
  if (gateways.length === 0) return <Alert severity="info">No payment gateways are set up.</Alert>;
  return (
    <Box
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' } }}
    >
      {gateways.map((gateway) => (
        <GatewayCard key={gateway.gateway_name} gateway={gateway} isActive={gateway.gateway_name === activeName} />
      ))}
    </Box>
  );
}
