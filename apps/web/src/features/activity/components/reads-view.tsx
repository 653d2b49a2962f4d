// Reads (issue 24): every read of personal data on the record — who opened which order's detail, defence pack or
// signature, or exported a CSV, when and from where — newest first. Filters: member, order id, kind, UTC dates.
// Pages go Older / Newer over the server's cursor.
import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { ACCESS_KIND_LABELS, ACCESS_KINDS, type AccessKind } from '@eta/contracts/domain';
import { TableMessageRow } from '../../../components/table-message-row';
import { formatUtcDateTime } from '../../../lib/format';
import { useAccessRecordsQuery, type ReadsFilters } from '../api/activity-api';
import {
  DateRangeFields,
  FilterForm,
  MemberSelect,
  NewerOlderButtons,
  useCursorPages,
  useFilterForm,
} from './filtered-pages';

const PAGE_SIZE = 50;
const COLUMNS = 5;

interface FormState {
  staffId: string;
  orderId: string;
  kind: string;
  fromDate: string;
  toDate: string;
}
const EMPTY: FormState = { staffId: '', orderId: '', kind: '', fromDate: '', toDate: '' };

function toFilters(form: FormState): ReadsFilters {
  return {
    ...(form.staffId ? { staffId: Number(form.staffId) } : {}),
    ...(form.orderId.trim() ? { orderId: form.orderId.trim() } : {}),
    ...(form.kind ? { kind: form.kind as AccessKind } : {}),
    ...(form.fromDate ? { fromDate: form.fromDate } : {}),
    ...(form.toDate ? { toDate: form.toDate } : {}),
  };
}

export function ReadsView() {
  const { form, setForm, field } = useFilterForm<FormState>(EMPTY);
  const [filters, setFilters] = useState<ReadsFilters>({});
  const pages = useCursorPages();
  const page = useAccessRecordsQuery({
    ...filters,
    ...(pages.cursor ? { cursor: pages.cursor } : {}),
    limit: PAGE_SIZE,
  });
  const rows = page.data?.rows ?? [];

  return (
    <>
      <FilterForm
        label="Reads filters"
        onApply={() => {
          setFilters(toFilters(form));
          pages.restart();
        }}
        onClear={() => {
          setForm(EMPTY);
          setFilters({});
          pages.restart();
        }}
      >
        <MemberSelect label="Member" {...field('staffId')} />
        <TextField size="small" label="Order ID" autoComplete="off" {...field('orderId')} />
        <TextField select size="small" label="Kind" sx={{ minWidth: 160 }} {...field('kind')}>
          <MenuItem value="">All kinds</MenuItem>
          {ACCESS_KINDS.map((kind) => (
            <MenuItem key={kind} value={kind}>
              {ACCESS_KIND_LABELS[kind]}
            </MenuItem>
          ))}
        </TextField>
        <DateRangeFields from={field('fromDate')} to={field('toDate')} />
      </FilterForm>
      <Paper sx={{ p: 1 }}>
        <TableContainer sx={{ maxHeight: 550, containerType: 'inline-size' }}>
          <Table stickyHeader size="small" aria-label="Reads">
            <TableHead>
              <TableRow>
                <TableCell>Time (UTC)</TableCell>
                <TableCell>Member</TableCell>
                <TableCell>What</TableCell>
                <TableCell>Order ID</TableCell>
                <TableCell>From where</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {page.isFetching && rows.length === 0 ? (
                <TableMessageRow colSpan={COLUMNS}>Loading…</TableMessageRow>
              ) : page.isError ? (
                <TableMessageRow colSpan={COLUMNS}>The reads could not be loaded.</TableMessageRow>
              ) : rows.length === 0 ? (
                <TableMessageRow colSpan={COLUMNS}>No reads on record</TableMessageRow>
              ) : (
                rows.map((row) => (
                  <TableRow key={row.id} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatUtcDateTime(row.at)}</TableCell>
                    <TableCell>{row.staff_name}</TableCell>
                    <TableCell>
                      {ACCESS_KIND_LABELS[row.kind]}
                      {row.detail ? `: ${row.detail}` : ''}
                    </TableCell>
                    <TableCell>{row.order_id ?? ''}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      {row.ip} ({row.browser} on {row.os}, {row.device_type})
                    </TableCell>
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
