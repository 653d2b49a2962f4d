// Unusual reading (issue 24): one member opening hundreds of orders within an hour raises an alert, shown here until
// an Admin acknowledges it (audited); acknowledged alerts stay listed with who acknowledged them and when.
import { useState } from 'react';
import { toast } from 'react-toastify';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AccessAlert } from '@eta/contracts';
import { can, plural, type StaffType } from '@eta/contracts/domain';
import { formatUtcDateTime } from '../../../lib/format';
import { useAccessAlertsQuery, useAcknowledgeAlertMutation } from '../api/activity-api';

const PAGE_SIZE = 5;

const windowText = (alert: AccessAlert): string =>
  `${alert.staff_name} opened ${plural(alert.order_count, 'order')} between ${formatUtcDateTime(alert.window_start)} ` +
  `and ${formatUtcDateTime(alert.window_end)} UTC.`;

export function AccessAlertsPanel({ role }: { role: StaffType }) {
  const [page, setPage] = useState(1);
  const alerts = useAccessAlertsQuery({ page, limit: PAGE_SIZE });
  const [acknowledge, acknowledging] = useAcknowledgeAlertMutation();
  const data = alerts.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  const onAcknowledge = async (alert: AccessAlert) => {
    const result = await acknowledge(alert.id);
    if ('data' in result && result.data) toast.success(result.data.message);
    void alerts.refetch();
  };

  return (
    <Paper component="section" aria-labelledby="access-alerts-heading" sx={{ p: 2, mb: 2 }}>
      <Typography id="access-alerts-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        Unusual reading{data && data.open > 0 ? ` (${data.open} open)` : ''}
      </Typography>
      {alerts.isError ? (
        <Typography color="text.secondary">The alerts could not be loaded.</Typography>
      ) : !data ? (
        <Typography color="text.secondary">Loading…</Typography>
      ) : data.rows.length === 0 ? (
        <Typography color="text.secondary">No unusual reading.</Typography>
      ) : (
        <Stack gap={1}>
          {data.rows.map((alert) => (
            <Alert
              key={alert.id}
              severity={alert.acknowledged_at ? 'info' : 'warning'}
              variant={alert.acknowledged_at ? 'outlined' : 'standard'}
              action={
                !alert.acknowledged_at && can(role, 'acknowledgeAccessAlerts') ? (
                  <Button
                    color="inherit"
                    size="small"
                    disabled={acknowledging.isLoading}
                    aria-label={`Acknowledge the alert about ${alert.staff_name}`}
                    onClick={() => void onAcknowledge(alert)}
                  >
                    Acknowledge
                  </Button>
                ) : undefined
              }
            >
              {windowText(alert)}{' '}
              {alert.acknowledged_at
                ? `Acknowledged by ${alert.acknowledged_by ?? 'someone'} on ${formatUtcDateTime(alert.acknowledged_at)} UTC.`
                : `Raised ${formatUtcDateTime(alert.raised_at)} UTC.`}
            </Alert>
          ))}
          {pages > 1 ? (
            <Stack direction="row" gap={1} justifyContent="flex-end" alignItems="center">
              <Button size="small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Newer alerts
              </Button>
              <Typography variant="body2">
                {page} / {pages}
              </Typography>
              <Button size="small" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                Older alerts
              </Button>
            </Stack>
          ) : null}
        </Stack>
      )}
    </Paper>
  );
}
