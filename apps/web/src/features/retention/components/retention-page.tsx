// Data Retention (Admin, issue 24): how long each landing site keeps an order's personal data (editable, audited by
// the server), the retention job's last runs with their progress, and Dry run / Run now. A dry run's report says how
// many and which orders would be erased per site and which are skipped and why; the page polls while a run goes on.
import { useState } from 'react';
import { toast } from 'react-toastify';
import { useForm } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { RetentionPolicy, RetentionRun } from '@eta/contracts';
import { RETENTION_MONTHS_MAX, RETENTION_MONTHS_MIN } from '@eta/contracts/domain';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormTextField } from '../../../components/form-text-field';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { TableMessageRow } from '../../../components/table-message-row';
import { TimeText } from '../../../components/time-text';
import type { ApiError } from '../../../lib/api';
import {
  useRetentionOverviewQuery,
  useStartRetentionRunMutation,
  useUpdateRetentionPolicyMutation,
} from '../api/retention-api';

/** While a run is going on, the page reads its progress this often. */
export const RUN_POLL_MS = 2_000;

const RUN_NOW_TEXT =
  'Erase the personal data of every order past its landing site’s retention period now? This cannot be undone. ' +
  'Orders on legal hold or with an open dispute are kept.';

const SKIP_LABELS: Record<string, string> = {
  LEGAL_HOLD: 'Legal hold',
  DISPUTE_OPEN: 'Open dispute',
  ALREADY_ERASED: 'Already erased',
  ORDER_NOT_FOUND: 'Not found',
};

function monthsRule(value: string): true | string {
  const months = Number(value);
  return Number.isInteger(months) && months >= RETENTION_MONTHS_MIN && months <= RETENTION_MONTHS_MAX
    ? true
    : `Months must be a whole number from ${RETENTION_MONTHS_MIN} to ${RETENTION_MONTHS_MAX}.`;
}

function PolicyRow({ policy }: { policy: RetentionPolicy }) {
  const [save, { isLoading }] = useUpdateRetentionPolicyMutation();
  const { control, handleSubmit, formState } = useForm<{ months: string }>({
    values: { months: String(policy.months) },
  });
  const submit = async ({ months }: { months: string }) => {
    try {
      toast.success(await save({ key: policy.key, months: Number(months) }).unwrap());
    } catch {
      // The API layer showed the server's message; what was typed stays.
    }
  };
  return (
    <TableRow>
      <TableCell>
        {policy.displayName}
        <Typography variant="body2" color="text.secondary" component="div">
          <code>{policy.key}</code>
        </Typography>
      </TableCell>
      <TableCell>
        <Box
          component="form"
          noValidate
          aria-label={`Retention of ${policy.displayName}`}
          onSubmit={(event) => void handleSubmit(submit)(event)}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
        >
          <FormTextField
            control={control}
            name="months"
            id={`months-${policy.key}`}
            label="Months"
            size="small"
            type="number"
            sx={{ width: 120 }}
            disabled={isLoading}
            rules={{ validate: monthsRule }}
          />
          <Button type="submit" variant="outlined" disabled={isLoading || !formState.isDirty}>
            Save
          </Button>
        </Box>
      </TableCell>
    </TableRow>
  );
}

const kindOf = (run: RetentionRun) =>
  `${run.dryRun ? 'Dry run' : 'Erasure'} · ${run.trigger === 'daily' ? 'daily job' : `by ${run.startedBy ?? 'someone'}`}`;

function RunState({ run }: { run: RetentionRun }) {
  if (run.state === 'running') {
    return (
      <Box sx={{ minWidth: 120 }}>
        Running{run.resumed > 0 ? ' (resumed)' : ''}
        <LinearProgress aria-label={`Run ${run.id} in progress`} sx={{ mt: 0.5 }} />
      </Box>
    );
  }
  if (run.state === 'failed') return <Box sx={{ color: 'error.main' }}>Failed: {run.error ?? 'see the log'}</Box>;
  return <>Finished{run.resumed > 0 ? ` (resumed ${run.resumed}×)` : ''}</>;
}

function RunReportDialog({ run, onClose }: { run: RetentionRun; onClose: () => void }) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const report = run.report;
  const verb = run.dryRun ? 'Would erase' : 'Erased';
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth fullScreen={isPhone} aria-labelledby="run-report-title">
      <DialogTitle id="run-report-title">
        {run.dryRun ? 'Dry run' : 'Retention run'} {run.id}: report
      </DialogTitle>
      <DialogContent dividers>
        {!report ? (
          <Typography>No report yet.</Typography>
        ) : (
          <Stack gap={2}>
            <Typography>
              Orders past their date on <TimeText value={run.cutoffAt} />: {verb.toLowerCase()}{' '}
              {report.bySite.reduce((n, s) => n + s.erased, 0)}, skipped{' '}
              {report.bySite.reduce((n, s) => n + s.skipped, 0)}.
              {report.truncated ? ' The lists below show the first 500 of each.' : ''}
            </Typography>
            <TableContainer sx={{ containerType: 'inline-size' }}>
              <Table size="small" aria-label="Per landing site">
                <TableHead>
                  <TableRow>
                    <TableCell>Landing site</TableCell>
                    <TableCell align="right">{verb}</TableCell>
                    <TableCell align="right">Skipped</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.bySite.length === 0 ? (
                    <TableMessageRow colSpan={3} py={2}>
                      No order was past its date.
                    </TableMessageRow>
                  ) : (
                    report.bySite.map((s) => (
                      <TableRow key={s.site}>
                        <TableCell>{s.site}</TableCell>
                        <TableCell align="right">{s.erased}</TableCell>
                        <TableCell align="right">{s.skipped}</TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </TableContainer>
            <Typography variant="subtitle1" component="h3">
              Skipped, and why
            </Typography>
            <TableContainer sx={{ containerType: 'inline-size' }}>
              <Table size="small" aria-label="Skipped orders">
                <TableHead>
                  <TableRow>
                    <TableCell>Order</TableCell>
                    <TableCell>Site</TableCell>
                    <TableCell>Reason</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.skips.length === 0 ? (
                    <TableMessageRow colSpan={3} py={2}>
                      No order was skipped.
                    </TableMessageRow>
                  ) : (
                    report.skips.map((s) => (
                      <TableRow key={s.orderId}>
                        <TableCell>{s.orderId}</TableCell>
                        <TableCell>{s.site}</TableCell>
                        <TableCell>
                          {SKIP_LABELS[s.code] ?? s.code}: {s.reason}
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </TableContainer>
            <Typography variant="subtitle1" component="h3">
              {verb}
            </Typography>
            <TableContainer sx={{ containerType: 'inline-size' }}>
              <Table size="small" aria-label={run.dryRun ? 'Orders that would be erased' : 'Orders erased'}>
                <TableHead>
                  <TableRow>
                    <TableCell>Order</TableCell>
                    <TableCell>Site</TableCell>
                    <TableCell>Counted from</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.orders.length === 0 ? (
                    <TableMessageRow colSpan={3} py={2}>
                      None.
                    </TableMessageRow>
                  ) : (
                    report.orders.map((o) => (
                      <TableRow key={o.orderId}>
                        <TableCell>{o.orderId}</TableCell>
                        <TableCell>{o.site}</TableCell>
                        <TableCell>{o.dueFrom}</TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </TableContainer>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function RunsTable({ runs, onReport }: { runs: RetentionRun[]; onReport: (run: RetentionRun) => void }) {
  return (
    <TableContainer sx={{ containerType: 'inline-size' }}>
      <Table size="small" aria-label="Retention runs">
        <TableHead>
          <TableRow>
            <TableCell>Started (UTC)</TableCell>
            <TableCell>Kind</TableCell>
            <TableCell>State</TableCell>
            <TableCell align="right">Erased</TableCell>
            <TableCell align="right">Skipped</TableCell>
            <TableCell align="right">Files deleted</TableCell>
            <TableCell>Report</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {runs.length === 0 ? (
            <TableMessageRow colSpan={7}>No retention run yet.</TableMessageRow>
          ) : (
            runs.map((run) => (
              <TableRow key={run.id}>
                <TableCell>
                  <TimeText value={run.startedAt} />
                </TableCell>
                <TableCell>{kindOf(run)}</TableCell>
                <TableCell>
                  <RunState run={run} />
                </TableCell>
                <TableCell align="right">
                  {run.dryRun ? `${run.report?.bySite.reduce((n, s) => n + s.erased, 0) ?? 0} due` : run.erased}
                </TableCell>
                <TableCell align="right">
                  {run.dryRun ? (run.report?.bySite.reduce((n, s) => n + s.skipped, 0) ?? 0) : run.skipped}
                </TableCell>
                <TableCell align="right">
                  {run.dryRun ? '—' : run.filesDeleted}
                  {run.fileFailures > 0 ? ` (${run.fileFailures} to retry)` : ''}
                </TableCell>
                <TableCell>
                  <Button size="small" onClick={() => onReport(run)} aria-label={`Report of run ${run.id}`}>
                    View
                  </Button>
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function RetentionPage() {
  const [isPolling, setIsPolling] = useState(false);
  const overview = useRetentionOverviewQuery(undefined, { pollingInterval: isPolling ? RUN_POLL_MS : 0 });
  const [start, { isLoading: isStarting }] = useStartRetentionRunMutation();
  const [isConfirming, setIsConfirming] = useState(false);
  const [reportRunId, setReportRunId] = useState<number | null>(null);
  const data = overview.data;
  const isRunning = Boolean(data?.runs.some((r) => r.state === 'running'));
  const isErasing = Boolean(data?.runs.some((r) => r.state === 'running' && !r.dryRun));
  if (isRunning !== isPolling) setIsPolling(isRunning);
  const error = overview.error as ApiError | undefined;
  const reportRun = data?.runs.find((r) => r.id === reportRunId);

  const startRun = async (dryRun: boolean) => {
    setIsConfirming(false);
    try {
      const { message, run } = await start({ dryRun }).unwrap();
      toast.success(message);
      if (dryRun) setReportRunId(run.id);
    } catch {
      // Shown by the API layer (a run already erasing says so).
    }
  };

  return (
    <>
      <PageHeader
        title="Data Retention"
        actions={
          <>
            <Button
              variant="outlined"
              startIcon={<RefreshIcon />}
              disabled={overview.isFetching}
              onClick={() => void overview.refetch()}
            >
              Refresh
            </Button>
            <Button variant="outlined" disabled={isStarting} onClick={() => void startRun(true)}>
              Dry run
            </Button>
            <Button
              variant="contained"
              color="error"
              disabled={isStarting || isErasing}
              onClick={() => setIsConfirming(true)}
            >
              Run now
            </Button>
          </>
        }
      />
      {overview.isLoading ? (
        <PageLoader />
      ) : !data ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void overview.refetch()}>
              Try again
            </Button>
          }
        >
          The retention settings could not be loaded. {error?.message ?? ''}
        </Alert>
      ) : (
        <Stack gap={3}>
          <Paper component="section" aria-labelledby="policies-heading" sx={{ p: { xs: 2, md: 3 } }}>
            <Typography id="policies-heading" variant="h6" component="h2">
              Policy per landing site
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              An order’s personal data (names, contact details, passport data, answers, signature and documents) is
              erased this many months after its travel date, or after its order date when no travel date is known. Order
              facts for accounting are kept. Orders on legal hold or with an open dispute are skipped until released.
              The job runs once a day.
            </Typography>
            <TableContainer sx={{ containerType: 'inline-size' }}>
              <Table size="small" aria-label="Retention policies">
                <TableHead>
                  <TableRow>
                    <TableCell>Landing site</TableCell>
                    <TableCell>Keep personal data (months)</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.policies.length === 0 ? (
                    <TableMessageRow colSpan={2}>No landing sites.</TableMessageRow>
                  ) : (
                    data.policies.map((policy) => <PolicyRow key={policy.key} policy={policy} />)
                  )}
                </TableBody>
              </Table>
            </TableContainer>
          </Paper>
          <Paper component="section" aria-labelledby="runs-heading" sx={{ p: { xs: 2, md: 3 } }}>
            <Typography id="runs-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
              Last runs
            </Typography>
            <RunsTable runs={data.runs} onReport={(run) => setReportRunId(run.id)} />
          </Paper>
        </Stack>
      )}
      <ConfirmDialog
        open={isConfirming}
        text={RUN_NOW_TEXT}
        busy={isStarting}
        onConfirm={() => void startRun(false)}
        onCancel={() => setIsConfirming(false)}
      />
      {reportRun ? <RunReportDialog run={reportRun} onClose={() => setReportRunId(null)} /> : null}
    </>
  );
}
