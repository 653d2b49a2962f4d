// Reads (issue 24): every read of personal data on the record — who opened which order's detail, defence pack or
// signature, or exported a CSV, when and from where — newest first. Filters: member, order id, kind, UTC dates.
// Pages go Older / Newer over the server's cursor.
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
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
import { useAccessRecordsQuery, useActivityPeopleQuery, type ReadsFilters } from '../api/activity-api';

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
  const [form, setForm] = useState<FormState>(EMPTY);
  const [filters, setFilters] = useState<ReadsFilters>({});
  // Cursors of the pages before this one (newest page: none); the last entry is this page's cursor.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const people = useActivityPeopleQuery();
  const page = useAccessRecordsQuery({ ...filters, ...(cursor ? { cursor } : {}), limit: PAGE_SIZE });
  const rows = page.data?.rows ?? [];
  const field = (name: keyof FormState) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: event.target.value })),
  });

  return (
    <>
      <Paper sx={{ p: 2, mb: 2 }}>
        <Box
          component="form"
          aria-label="Reads filters"
          onSubmit={(event) => {
            event.preventDefault();
            setFilters(toFilters(form));
            setCursors([]);
          }}
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(6, auto)' },
          }}
        >
          <TextField select size="small" label="Member" sx={{ minWidth: 180 }} {...field('staffId')}>
            <MenuItem value="">Everyone</MenuItem>
            {(people.data ?? []).map((p) => (
              <MenuItem key={p.id} value={String(p.id)}>
                {p.name}
                {p.active ? '' : ' (deleted)'}
              </MenuItem>
            ))}
          </TextField>
          <TextField size="small" label="Order ID" autoComplete="off" {...field('orderId')} />
          <TextField select size="small" label="Kind" sx={{ minWidth: 160 }} {...field('kind')}>
            <MenuItem value="">All kinds</MenuItem>
            {ACCESS_KINDS.map((kind) => (
              <MenuItem key={kind} value={kind}>
                {ACCESS_KIND_LABELS[kind]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            type="date"
            size="small"
            label="From"
            slotProps={{ inputLabel: { shrink: true } }}
            {...field('fromDate')}
          />
          <TextField
            type="date"
            size="small"
            label="To"
            slotProps={{ inputLabel: { shrink: true } }}
            {...field('toDate')}
          />
          <Stack direction="row" gap={1}>
            <Button type="submit" variant="contained">
              Apply
            </Button>
            <Button
              onClick={() => {
                setForm(EMPTY);
                setFilters({});
                setCursors([]);
              }}
            >
              Clear
            </Button>
          </Stack>
        </Box>
      </Paper>
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
        <Stack direction="row" gap={1} justifyContent="flex-end" sx={{ p: 1 }}>
          <Button disabled={cursors.length === 0 || page.isFetching} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Newer
          </Button>
          <Button
            disabled={!page.data?.next || page.isFetching}
            onClick={() => {
              const next = page.data?.next;
              if (next) setCursors((c) => [...c, next]);
            }}
          >
            Older
          </Button>
        </Stack>
      </Paper>
    </>
  );
}
