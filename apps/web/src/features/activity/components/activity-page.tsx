// Activity (Admin): the audit trail newest first — who did what, when, from where — security events included
// (failed sign-ins, lockouts, refused calls). Filters: person, order id, action, UTC dates. Pages go Older /
// Newer over keys (the server's cursor), never by deep offsets. The CSV holds every filtered row. Beside the
// changes, the reads of personal data (issue 24) and the alerts an unusual reading pattern raised.
import { useState } from 'react';
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
import { ACTIVITY_ACTIONS } from '@eta/contracts/domain';
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

const compact = (value: unknown): string => (value === null || value === undefined ? '' : JSON.stringify(value));

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
  const [view, setView] = useState<View>('changes');
  const [filters, setFilters] = useState<ActivityFilters>({});
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
      {view === 'changes' ? <ChangesView filters={filters} onFilters={setFilters} /> : <ReadsView />}
    </>
  );
}

/** The audit trail (every write and security event), filtered; the page's CSV holds the same filtered rows. */
function ChangesView({
  filters,
  onFilters,
}: {
  filters: ActivityFilters;
  onFilters: (filters: ActivityFilters) => void;
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
          {ACTIVITY_ACTIONS.map((action) => (
            <MenuItem key={action} value={action}>
              {action}
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
                <TableMessageRow colSpan={7}>Loading…</TableMessageRow>
              ) : page.isError ? (
                <TableMessageRow colSpan={7}>The activity could not be loaded.</TableMessageRow>
              ) : rows.length === 0 ? (
                <TableMessageRow colSpan={7}>No records found</TableMessageRow>
              ) : (
                rows.map((row) => (
                  <TableRow key={row.id} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatUtcDateTime(row.at)}</TableCell>
                    <TableCell>{row.actor_name ?? 'Not signed in'}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.action}</TableCell>
                    <TableCell>{row.order_id ?? ''}</TableCell>
                    <TableCell sx={{ wordBreak: 'break-all' }}>{row.target ?? ''}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all', minWidth: 200 }}>
                      {[compact(row.before), compact(row.after)].filter(Boolean).join(' → ')}
                    </TableCell>
                    <TableCell>{row.ip ?? ''}</TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <NewerOlderButtons pages={pages} next={page.data?.next} busy={page.isFetching} />
      </Paper>
    </>
  );
}
