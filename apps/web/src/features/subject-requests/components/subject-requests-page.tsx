// Customer Requests (Admin, issue 24): an Admin answers a customer who asks what is held about them, or asks for it to
// be erased. Enter the e-mail address, see every order under it (with its mails, downloads and remarks counted, and
// whether it is erased, on legal hold or disputed), download the export as JSON or PDF, or erase after a
// confirmation. An erasure is refused while a dispute is open (the reason is shown before anyone clicks).
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { toast } from 'react-toastify';
import { useForm } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ErasureResult, SubjectOrder, SubjectSummary } from '@eta/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormTextField } from '../../../components/form-text-field';
import { PageHeader } from '../../../components/page-header';
import { TableMessageRow } from '../../../components/table-message-row';
import { TimeText } from '../../../components/time-text';
import { paths } from '../../../config/paths';
import { downloadExport, useEraseSubjectMutation, useSubjectSummaryMutation } from '../api/subject-requests-api';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function PersonalDataState({ order }: { order: SubjectOrder }) {
  if (order.erasedAt) {
    return (
      <>
        Erased <TimeText value={order.erasedAt} />
      </>
    );
  }
  const notes = [
    order.legalHold ? `Legal hold: ${order.legalHold.reason}` : null,
    order.openDispute ? `Open dispute ${order.openDispute}` : null,
  ].filter(Boolean);
  return <>{notes.length ? notes.join(' · ') : 'Held'}</>;
}

function OrdersTable({ summary }: { summary: SubjectSummary }) {
  return (
    <TableContainer sx={{ containerType: 'inline-size' }}>
      <Table size="small" aria-label="Orders of this person">
        <TableHead>
          <TableRow>
            <TableCell>Order</TableCell>
            <TableCell>Placed (UTC)</TableCell>
            <TableCell>Site</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Personal data</TableCell>
            <TableCell align="right">Mails</TableCell>
            <TableCell align="right">Downloads</TableCell>
            <TableCell align="right">Remarks</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {summary.orders.length === 0 ? (
            <TableMessageRow colSpan={8}>No order has this e-mail address.</TableMessageRow>
          ) : (
            summary.orders.map((order) => (
              <TableRow key={order.orderId}>
                <TableCell>
                  <Link component={RouterLink} to={paths.viewOrder.build(order.orderId)}>
                    {order.orderId}
                  </Link>
                </TableCell>
                <TableCell>
                  <TimeText value={order.createdAt} />
                </TableCell>
                <TableCell>{order.landingSite}</TableCell>
                <TableCell>{order.status}</TableCell>
                <TableCell>
                  <PersonalDataState order={order} />
                </TableCell>
                <TableCell align="right">{order.mails}</TableCell>
                <TableCell align="right">{order.downloads}</TableCell>
                <TableCell align="right">{order.remarks}</TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function ErasureOutcome({ result }: { result: ErasureResult }) {
  return (
    <Alert severity={result.skipped.length ? 'warning' : 'success'} role="status">
      {result.erased.length === 1 ? '1 order' : `${result.erased.length} orders`} erased
      {result.erased.length ? `: ${result.erased.join(', ')}` : ''}.
      {result.skipped.length ? (
        <Box component="ul" sx={{ m: 0, pl: 2 }}>
          {result.skipped.map((s) => (
            <li key={s.orderId}>
              {s.orderId} kept: {s.reason}
            </li>
          ))}
        </Box>
      ) : null}
    </Alert>
  );
}

export function SubjectRequestsPage() {
  const { control, handleSubmit } = useForm<{ email: string }>({ defaultValues: { email: '' } });
  const [findSummary, summaryState] = useSubjectSummaryMutation();
  const [erase, eraseState] = useEraseSubjectMutation();
  const [summary, setSummary] = useState<SubjectSummary | null>(null);
  const [erasure, setErasure] = useState<ErasureResult | null>(null);
  const [isConfirming, setIsConfirming] = useState(false);
  const [downloading, setDownloading] = useState<'json' | 'pdf' | null>(null);

  const find = async ({ email }: { email: string }) => {
    setErasure(null);
    try {
      setSummary(await findSummary({ email: email.trim() }).unwrap());
    } catch {
      setSummary(null);
    }
  };
  const save = async (format: 'json' | 'pdf') => {
    if (!summary) return;
    setDownloading(format);
    try {
      await downloadExport(format, summary.email);
    } finally {
      setDownloading(null);
    }
  };
  const confirmErase = async () => {
    if (!summary) return;
    setIsConfirming(false);
    try {
      const { message, result } = await erase({ email: summary.email }).unwrap();
      toast.success(message);
      setErasure(result);
      setSummary(await findSummary({ email: summary.email }).unwrap());
    } catch {
      // Shown by the API layer in the server's words (an open dispute says which).
    }
  };
  const erasable = summary?.orders.filter((o) => !o.erasedAt) ?? [];

  return (
    <>
      <PageHeader title="Customer Requests" />
      <Stack gap={3}>
        <Paper component="section" aria-labelledby="find-heading" sx={{ p: { xs: 2, md: 3 } }}>
          <Typography id="find-heading" variant="h6" component="h2">
            Find a customer’s data
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            For a subject-access or erasure request: every order placed with this e-mail address, with its mails,
            downloads and remarks. Each look-up, export and erasure is recorded in the activity trail.
          </Typography>
          <Box
            component="form"
            noValidate
            aria-label="Find by e-mail address"
            onSubmit={(event) => void handleSubmit(find)(event)}
            sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
          >
            <FormTextField
              control={control}
              name="email"
              label="Customer e-mail address"
              type="email"
              size="small"
              sx={{ width: { xs: '100%', sm: 360 } }}
              disabled={summaryState.isLoading}
              rules={{
                validate: (value: string) => (EMAIL.test(value.trim()) ? true : 'Please enter a valid email address.'),
              }}
            />
            <Button type="submit" variant="contained" disabled={summaryState.isLoading}>
              Find
            </Button>
          </Box>
        </Paper>
        {summary ? (
          <Paper component="section" aria-labelledby="summary-heading" sx={{ p: { xs: 2, md: 3 } }}>
            <Typography id="summary-heading" variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
              {summary.email}: {summary.orders.length === 1 ? '1 order' : `${summary.orders.length} orders`}
            </Typography>
            <Stack direction="row" gap={1} flexWrap="wrap" sx={{ my: 2 }}>
              <Button variant="outlined" disabled={downloading !== null} onClick={() => void save('json')}>
                Download JSON
              </Button>
              <Button variant="outlined" disabled={downloading !== null} onClick={() => void save('pdf')}>
                {downloading === 'pdf' ? 'Preparing PDF…' : 'Download PDF'}
              </Button>
              <Button
                variant="contained"
                color="error"
                disabled={Boolean(summary.erasureRefusal) || erasable.length === 0 || eraseState.isLoading}
                onClick={() => setIsConfirming(true)}
              >
                Erase personal data
              </Button>
            </Stack>
            {summary.erasureRefusal ? (
              <Alert severity="warning" sx={{ mb: 2 }}>
                {summary.erasureRefusal}
              </Alert>
            ) : null}
            {erasure ? (
              <Box sx={{ mb: 2 }}>
                <ErasureOutcome result={erasure} />
              </Box>
            ) : null}
            <OrdersTable summary={summary} />
          </Paper>
        ) : null}
      </Stack>
      <ConfirmDialog
        open={isConfirming}
        text={`Erase the personal data of ${erasable.length === 1 ? '1 order' : `${erasable.length} orders`} of ${summary?.email ?? ''}? This cannot be undone. Orders on legal hold are kept.`}
        busy={eraseState.isLoading}
        onConfirm={() => void confirmErase()}
        onCancel={() => setIsConfirming(false)}
      />
    </>
  );
}
