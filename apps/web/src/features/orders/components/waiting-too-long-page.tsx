// "Waiting too long" (issue 35): the open orders past their processing type's target time, across every queue, the
// longest wait first, with who holds them; the target times above them (an Admin sets them here). Page and size are in
// the URL, so Back from an order comes back to the same page.
import { useMemo } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { OrderListRow, ProcessingTargets, ProcessingType } from '@eta/contracts';
import { UrgentChip } from '../../../components/order-timing-chips';
import { PageHeader } from '../../../components/page-header';
import { TableMessageRow } from '../../../components/table-message-row';
import type { ApiError } from '../../../lib/api';
import { formatFullName } from '../../../lib/format';
import { describeTimeInStatus, formatDuration } from '../../../lib/order-timing';
import { orderDetailPath, type OrderLinkState } from '../../../lib/order-links';
import { useGetWaitingTooLongQuery } from '../api/orders-api';
import { useGetQueueSettingsQuery } from '../api/queue-settings-api';
import { useListParams } from '../hooks/use-list-params';
import { OrderTablePagination } from './order-table-pagination';
import { TargetTimes } from './target-times';

export const WAITING_TOO_LONG_TITLE = 'Waiting too long';
const NO_LATE_ORDERS_TEXT = 'No order is waiting longer than its target time.';
const HEADINGS = ['Order Id', 'Name', 'Type', 'Status', 'Waited', 'Holder'];
/** The server's largest page of this list ("All" shows this many a page). */
const MAX_LIMIT = 500;
const MINUTE_MS = 60_000;

/** How long the order has waited (its target plus its lateness, when the target is known) and how late it is. */
function WaitedCell({ row, targets }: { row: OrderListRow; targets: ProcessingTargets | undefined }) {
  const overdueSince = row.overdue_since ? new Date(row.overdue_since).getTime() : Date.now();
  const late = Date.now() - overdueSince;
  const target = targets?.[row.processing_type as ProcessingType] ?? null;
  return (
    <>
      {target !== null ? (
        <Box component="span" sx={{ display: 'block' }}>
          {formatDuration(late + target * MINUTE_MS)}
        </Box>
      ) : null}
      <Typography variant="body2" component="span" color="error" sx={{ display: 'block' }}>
        Late by {formatDuration(late)}
      </Typography>
    </>
  );
}

export function WaitingTooLongPage({ canEditTargets }: { canEditTargets: boolean }) {
  const { params, setPage, setPageSize } = useListParams();
  const limit = params.pageSize === 'all' ? MAX_LIMIT : Math.min(params.pageSize, MAX_LIMIT);
  const list = useGetWaitingTooLongQuery({ page: params.page, limit }, { refetchOnMountOrArgChange: true });
  const targets = useGetQueueSettingsQuery().data?.targets;
  const rows = useMemo(() => list.currentData?.rows ?? [], [list.currentData]);
  const { pathname, search } = useLocation();
  // An order opened from here comes back here, and "Next order" walks this page.
  const linkState = useMemo<OrderLinkState>(
    () => ({
      fromList: { path: `${pathname}${search}`, title: WAITING_TOO_LONG_TITLE, orderIds: rows.map((r) => r.order_id) },
    }),
    [pathname, search, rows],
  );
  const error = list.error as ApiError | undefined;

  let body;
  if (list.isFetching && !list.currentData) {
    body = (
      <TableMessageRow colSpan={HEADINGS.length}>
        <CircularProgress size={28} aria-label="Loading orders" />
      </TableMessageRow>
    );
  } else if (error && !list.currentData) {
    body = <TableMessageRow colSpan={HEADINGS.length}>The orders could not be loaded. {error.message}</TableMessageRow>;
  } else if (rows.length === 0) {
    body = <TableMessageRow colSpan={HEADINGS.length}>{NO_LATE_ORDERS_TEXT}</TableMessageRow>;
  } else {
    body = rows.map((row) => (
      <TableRow key={row.order_id} hover>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <Link component={RouterLink} to={orderDetailPath(row.order_id)} state={linkState}>
            {row.order_id}
          </Link>
          {row.urgent ? (
            <Box sx={{ mt: 0.25 }}>
              <UrgentChip timing={row} />
            </Box>
          ) : null}
        </TableCell>
        <TableCell>{formatFullName(row.passport_first_name, row.passport_surname)}</TableCell>
        <TableCell>{row.processing_type}</TableCell>
        <TableCell>{describeTimeInStatus(row.process_status, row.status_since)}</TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <WaitedCell row={row} targets={targets} />
        </TableCell>
        <TableCell>
          {row.assign_to || (
            <Box component="span" sx={{ color: 'text.secondary' }}>
              Not assigned
            </Box>
          )}
        </TableCell>
      </TableRow>
    ));
  }

  return (
    <>
      <PageHeader
        title={WAITING_TOO_LONG_TITLE}
        actions={
          <Button variant="outlined" startIcon={<RefreshIcon />} onClick={() => void list.refetch()}>
            Refresh
          </Button>
        }
      />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Open orders past their processing type&apos;s target time, in every queue, the longest wait first.
      </Typography>
      <TargetTimes canEdit={canEditTargets} />
      <Paper variant="outlined">
        <TableContainer sx={{ maxHeight: 550, containerType: 'inline-size' }}>
          <Table stickyHeader size="small" aria-label={WAITING_TOO_LONG_TITLE}>
            <TableHead>
              <TableRow>
                {HEADINGS.map((heading) => (
                  <TableCell key={heading} sx={{ fontWeight: 600 }}>
                    {heading}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>{body}</TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <OrderTablePagination
        page={params.page}
        pageSize={params.pageSize}
        limit={limit}
        total={list.currentData?.total ?? 0}
        totalIsLowerBound={list.currentData?.totalCapped === true}
        shownRows={rows.length}
        onPageChange={(page) => setPage(page)}
        onPageSizeChange={setPageSize}
      />
    </>
  );
}
