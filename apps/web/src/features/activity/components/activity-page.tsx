// Activity (Admin): the audit trail newest first — who did what, when, from where — security events included
// (failed sign-ins, lockouts, refused calls). Filters: person, order id (also from the address, ?orderId=, as the
// order page links here), action, UTC dates. Pages go Older / Newer over keys (the server's cursor), never by deep
// offsets. The CSV holds every filtered row. Actions and changes are in words (AUDIT_ACTIONS, issue 33); each row's
// raw record is one click away under Details. Beside the changes, the reads of personal data (issue 24) and the
// alerts an unusual reading pattern raised.
import { Fragment, useState } from 'react';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import DownloadIcon from '@mui/icons-material/Download';
import type { ActivityRow } from '@eta/contracts';
import { AUDIT_ACTION_NAMES, STATUS_LABELS, auditActionLabel, can, type ProcessStatus } from '@eta/contracts/domain';
import { PageHeader } from '../../../components/page-header';
import { TableMessageRow } from '../../../components/table-message-row';
import { downloadFile } from '../../../lib/download-file';
import { formatUtcDateTime } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useActivityQuery, type ActivityFilters } from '../api/activity-api';
import {
  DateRangeFields,
  FilterForm,
  MemberSelect,
  NewerOlderButtons,
  useCursorPages,
  useFilterForm,
} from './filtered-pages';
import { AccessAlertsPanel } from './access-alerts-panel';
import { ReadsView } from './reads-view';

const PAGE_SIZE = 50;
const COLUMNS = 7;

/** A recorded state's field, when the row has it as text. */
function fieldOf(state: unknown, name: string): string | undefined {
  const value = state !== null && typeof state === 'object' ? (state as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

const statusText = (status: string | undefined) =>
  status === undefined ? undefined : (STATUS_LABELS[status as ProcessStatus] ?? status);

/** "from → to" of one field, "→ to" when only the new value is recorded; '' when the row does not change it. */
function moveOf(from: string | undefined, to: string | undefined): string {
  if (to === undefined || from === to) return '';
  return from === undefined ? `→ ${to}` : `${from} → ${to}`;
}

/** What the row changed, in words: the order's status, or its payment's; the rest is under Details. */
function changeOf(row: ActivityRow): string {
  const status = moveOf(
    statusText(fieldOf(row.before, 'process_status')),
    statusText(fieldOf(row.after, 'process_status')),
  );
  if (status) return `Status: ${status}`;
  const payment = moveOf(fieldOf(row.before, 'payment_status'), fieldOf(row.after, 'payment_status'));
  return payment ? `Payment: ${payment}` : '';
}

/** The row as the trail stores it: its action's name, target and the before and after records. */
const rawRecordOf = (row: ActivityRow): string =>
  JSON.stringify({ action: row.action, target: row.target, before: row.before, after: row.after }, null, 2);

interface FormState {
  actorId: string;
  orderId: string;
  action: string;
  fromDate: string;
  toDate: string;
}
const EMPTY: FormState = { actorId: '', orderId: '', action: '', fromDate: '', toDate: '' };

function toFilters(form: FormState): ActivityFilters {
  return {
    ...(form.actorId ? { actorId: Number(form.actorId) } : {}),
    ...(form.orderId.trim() ? { orderId: form.orderId.trim() } : {}),
    ...(form.action ? { action: form.action } : {}),
    ...(form.fromDate ? { fromDate: form.fromDate } : {}),
    ...(form.toDate ? { toDate: form.toDate } : {}),
  };
}

type View = 'changes' | 'reads';

export function ActivityPage() {
  const user = useCurrentUser();
  const [searchParams] = useSearchParams();
  const [view, setView] = useState<View>('changes');
  // An order's page links here with its id: the trail of that order.
  const [filters, setFilters] = useState<ActivityFilters>(() => {
    const orderId = searchParams.get('orderId')?.trim();
    return orderId ? { orderId } : {};
  });
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    await downloadFile(
      'admin/activity/csv',
      { ...filters },
      `activity-${filters.fromDate ?? 'start'}-to-${filters.toDate ?? 'today'}.csv`,
    );
    setExporting(false);
  };

  return (
    <>
      <PageHeader
        title="Activity"
        actions={
          view === 'changes' ? (
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={exporting}
              onClick={() => void exportCsv()}
            >
              Download CSV
            </Button>
          ) : undefined
        }
      />
      {user ? <AccessAlertsPanel role={user.type} /> : null}
      <Tabs value={view} onChange={(_event, next: View) => setView(next)} aria-label="Activity views" sx={{ mb: 2 }}>
        <Tab value="changes" label="Changes" />
        <Tab value="reads" label="Reads" />
      </Tabs>
      {view === 'changes' ? (
        <ChangesView
          filters={filters}
          onFilters={setFilters}
          showsRawRecords={user ? can(user.type, 'viewActivity') : false}
        />
      ) : (
        <ReadsView />
      )}
    </>
  );
}

/** The audit trail (every write and security event), filtered; the page's CSV holds the same filtered rows. */
function ChangesView({
  filters,
  onFilters,
  showsRawRecords,
}: {
  filters: ActivityFilters;
  onFilters: (filters: ActivityFilters) => void;
  /** Details with each row's raw record: for those who may read the trail itself (Admin). */
  showsRawRecords: boolean;
}) {
  // The form shows the filters in force (they outlive a visit to the Reads tab).
  const { form, setForm, field } = useFilterForm<FormState>(() => ({
    actorId: filters.actorId ? String(filters.actorId) : '',
    orderId: filters.orderId ?? '',
    action: filters.action ?? '',
    fromDate: filters.fromDate ?? '',
    toDate: filters.toDate ?? '',
  }));
  const pages = useCursorPages();
  const page = useActivityQuery({ ...filters, ...(pages.cursor ? { cursor: pages.cursor } : {}), limit: PAGE_SIZE });
  const rows = page.data?.rows ?? [];
  const [openRow, setOpenRow] = useState<number | null>(null);

  return (
    <>
      <FilterForm
        label="Activity filters"
        onApply={() => {
          onFilters(toFilters(form));
          pages.restart();
        }}
        onClear={() => {
          setForm(EMPTY);
          onFilters({});
          pages.restart();
        }}
      >
        <MemberSelect label="Person" {...field('actorId')} />
        <TextField size="small" label="Order ID" autoComplete="off" {...field('orderId')} />
        <TextField select size="small" label="Action" sx={{ minWidth: 200 }} {...field('action')}>
          <MenuItem value="">All actions</MenuItem>
          {AUDIT_ACTION_NAMES.map((action) => (
            <MenuItem key={action} value={action}>
              {auditActionLabel(action)}
            </MenuItem>
          ))}
        </TextField>
        <DateRangeFields from={field('fromDate')} to={field('toDate')} />
      </FilterForm>
      <Paper sx={{ p: 1 }}>
        <TableContainer sx={{ maxHeight: 550, containerType: 'inline-size' }}>
          <Table stickyHeader size="small" aria-label="Activity">
            <TableHead>
              <TableRow>
                <TableCell>Time (UTC)</TableCell>
                <TableCell>Person</TableCell>
                <TableCell>Action</TableCell>
                <TableCell>Order ID</TableCell>
                <TableCell>Target</TableCell>
                <TableCell>Change</TableCell>
                <TableCell>IP address</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {page.isFetching && rows.length === 0 ? (
                <TableMessageRow colSpan={COLUMNS}>Loading…</TableMessageRow>
              ) : page.isError ? (
                <TableMessageRow colSpan={COLUMNS}>The activity could not be loaded.</TableMessageRow>
              ) : rows.length === 0 ? (
                <TableMessageRow colSpan={COLUMNS}>No records found</TableMessageRow>
              ) : (
                rows.map((row) => {
                  const isOpen = showsRawRecords && openRow === row.id;
                  const detailsId = `activity-record-${row.id}`;
                  return (
                    <Fragment key={row.id}>
                      <TableRow hover>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatUtcDateTime(row.at)}</TableCell>
                        <TableCell>{row.actor_name ?? 'Not signed in'}</TableCell>
                        <TableCell sx={{ minWidth: 160 }}>{auditActionLabel(row.action)}</TableCell>
                        <TableCell>{row.order_id ?? ''}</TableCell>
                        <TableCell sx={{ wordBreak: 'break-all' }}>{row.target ?? ''}</TableCell>
                        <TableCell sx={{ minWidth: 160 }}>
                          {changeOf(row)}
                          {showsRawRecords ? (
                            <Button
                              size="small"
                              aria-expanded={isOpen}
                              aria-controls={isOpen ? detailsId : undefined}
                              onClick={() => setOpenRow(isOpen ? null : row.id)}
                              sx={{ display: 'block', px: 0, minWidth: 0 }}
                            >
                              {isOpen ? 'Hide details' : 'Details'}
                            </Button>
                          ) : null}
                        </TableCell>
                        <TableCell>{row.ip ?? ''}</TableCell>
                      </TableRow>
                      {isOpen ? (
                        <TableRow>
                          <TableCell colSpan={COLUMNS} sx={{ bgcolor: 'action.hover' }}>
                            <Box
                              component="pre"
                              id={detailsId}
                              aria-label="Recorded as"
                              sx={{ m: 0, fontFamily: 'monospace', fontSize: 12, whiteSpace: 'pre-wrap' }}
                            >
                              {rawRecordOf(row)}
                            </Box>
                          </TableCell>
                        </TableRow>
                      ) : null}
                    </Fragment>
                  );
                })
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <NewerOlderButtons pages={pages} next={page.data?.next} busy={page.isFetching} />
      </Paper>
    </>
  );
}
