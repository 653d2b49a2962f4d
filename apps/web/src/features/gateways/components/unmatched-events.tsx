// "Webhooks the desk could not match" (issue 21, Admin): verified events about payments no order has, newest first,
// kept and shown rather than dropped, so someone can find the order (or the payment taken outside the desk).
import { useState } from 'react';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { ListPagination } from '../../../components/list-pagination';
import { TableMessageRow } from '../../../components/table-message-row';
import type { ApiError } from '../../../lib/api';
import { formatUtcDateTime } from '../../../lib/format';
import { useUnmatchedEventsQuery } from '../api/gateways-api';

const PAGE_SIZES = [10, 20, 50, 100] as const;
const HEADINGS = ['Received (UTC)', 'Gateway', 'Event id', 'Type', 'Why it did not match'];

export function UnmatchedEvents() {
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(20);
  const events = useUnmatchedEventsQuery({ page: page + 1, limit }, { refetchOnMountOrArgChange: true });
  const rows = events.data?.rows ?? [];
  const error = events.error as ApiError | undefined;

  let body;
  if (events.isFetching && rows.length === 0) {
    body = <TableMessageRow colSpan={HEADINGS.length}>Loading…</TableMessageRow>;
  } else if (error && !events.data) {
    body = (
      <TableMessageRow colSpan={HEADINGS.length}>
        The unmatched webhooks could not be loaded. {error.message}
      </TableMessageRow>
    );
  } else if (rows.length === 0) {
    body = (
      <TableMessageRow colSpan={HEADINGS.length}>None: every webhook received so far matched an order.</TableMessageRow>
    );
  } else {
    body = rows.map((event) => (
      <TableRow key={event.id} hover>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatUtcDateTime(event.received_at)}</TableCell>
        <TableCell>{event.gateway_name}</TableCell>
        <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all', minWidth: 140 }}>{event.event_id}</TableCell>
        <TableCell sx={{ wordBreak: 'break-word' }}>{event.type}</TableCell>
        <TableCell sx={{ minWidth: 200 }}>{event.note}</TableCell>
      </TableRow>
    ));
  }

  return (
    <Paper component="section" aria-labelledby="unmatched-events-heading" sx={{ p: { xs: 1, sm: 2 }, minWidth: 0 }}>
      <Typography id="unmatched-events-heading" variant="h6" component="h2" sx={{ px: 1 }}>
        Webhooks the desk could not match
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ px: 1, mb: 1 }}>
        Verified events about a payment no order has. Look the payment up in the gateway&apos;s dashboard.
      </Typography>
      <TableContainer sx={{ maxHeight: 550, containerType: 'inline-size' }}>
        <Table stickyHeader size="small" aria-label="Webhooks the desk could not match">
          <TableHead>
            <TableRow>
              {HEADINGS.map((heading) => (
                <TableCell key={heading} sx={{ whiteSpace: 'nowrap' }}>
                  {heading}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </TableContainer>
      <ListPagination
        count={events.data?.total ?? 0}
        page={page}
        limit={limit}
        sizes={PAGE_SIZES}
        onPageChange={setPage}
        onLimitChange={(next) => {
          setLimit(next);
          setPage(0);
        }}
      />
    </Paper>
  );
}
