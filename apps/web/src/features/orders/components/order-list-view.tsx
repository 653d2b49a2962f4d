// One order list with everything around it: title, Urgent first (queues that hold open orders), Refresh, search, bulk
// actions, the table, pagination and the confirmation dialog. Used by every queue page and by the Future Order month
// view.
import { useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { OrderListRow, QueueName } from '@eta/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { api } from '../../../lib/api';
import type { SessionUser } from '../../../lib/auth/session';
import type { OrderLinkState } from '../../../lib/order-links';
import { useAppDispatch } from '../../../lib/store';
import { columnsFor } from '../order-columns';
import { bulkActionsFor, canDeleteIn } from '../order-actions';
import { useListParams } from '../hooks/use-list-params';
import { useOrderActions } from '../hooks/use-order-actions';
import { useOrderList } from '../hooks/use-order-list';
import { toSelectedOrder, useRowSelection } from '../hooks/use-row-selection';
import { useUrgentFirst } from '../hooks/use-urgent-first';
import { BulkActionBar } from './bulk-action-bar';
import { OrderSearchBox } from './order-search-box';
import { OrderSearchNote } from './order-search-note';
import { OrderTable } from './order-table';
import { OrderTablePagination } from './order-table-pagination';
import { UrgentFirstSwitch } from './urgent-first-switch';

export const NO_DATA_TEXT = 'No data available in table';
export const NO_SEARCH_RESULTS_TEXT = 'No records found';

function errorMessage(error: object): string {
  return 'message' in error && typeof error.message === 'string' ? error.message : '';
}

interface OrderListViewProps {
  title: string;
  queue: QueueName;
  user: SessionUser;
  /** Future queue only: the month (1-12) in view. */
  month?: number;
  searchable?: boolean;
  extraActions?: ReactNode;
}

export function OrderListView({ title, queue, user, month, searchable = true, extraActions }: OrderListViewProps) {
  const dispatch = useAppDispatch();
  const { params, setPage, setPageSize, setQuery } = useListParams();
  const urgentFirst = useUrgentFirst(queue);
  const list = useOrderList({
    queue,
    userName: user.name,
    params,
    month,
    sort: urgentFirst.isOn ? 'urgent' : undefined,
    isSortKnown: urgentFirst.isReady,
  });
  const selection = useRowSelection(`${queue}|${month ?? ''}|${params.page}|${params.pageSize}|${params.query}`);
  const columns = useMemo(() => columnsFor(queue), [queue]);
  const actions = useOrderActions({
    userName: user.name,
    onChanged: (ids) => {
      list.removeFromView(ids);
      selection.remove(ids);
    },
  });

  const rows = useMemo(() => list.page?.rows ?? [], [list.page]);
  const { pathname, search } = useLocation();
  // View takes this list along, so the detail page's Back and "Next order" work from this very page.
  const linkState = useMemo<OrderLinkState>(
    () => ({ fromList: { path: `${pathname}${search}`, title, orderIds: rows.map((row) => row.order_id) } }),
    [pathname, search, title, rows],
  );
  const lastPage = Math.max(1, Math.ceil((list.page?.total ?? 0) / list.limit));
  const isPastLastPage = list.page !== undefined && rows.length === 0 && params.page > lastPage;

  useEffect(() => {
    // A shared link or a bulk move can leave the page beyond the end of the list: show the last page instead.
    if (isPastLastPage) setPage(lastPage, true);
  }, [isPastLastPage, lastPage, setPage]);

  const errorText =
    list.error && !list.page ? `The orders could not be loaded. ${errorMessage(list.error)}` : undefined;
  const canDelete = canDeleteIn(queue, user.type);
  const { requestAction } = actions;
  const deleteRow = useCallback(
    (row: OrderListRow) => requestAction('delete', [toSelectedOrder(row)]),
    [requestAction],
  );
  const refresh = () => {
    list.reload();
    dispatch(api.util.invalidateTags(['FolderCounts']));
  };

  return (
    <>
      <PageHeader
        title={title}
        actions={
          <>
            {extraActions}
            {urgentFirst.canSort ? (
              <UrgentFirstSwitch
                checked={urgentFirst.isOn}
                disabled={!urgentFirst.isSwitchable}
                onChange={urgentFirst.setOn}
              />
            ) : null}
            <Button variant="outlined" startIcon={<RefreshIcon />} onClick={refresh}>
              Refresh
            </Button>
          </>
        }
      />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        justifyContent="space-between"
        alignItems={{ sm: 'center' }}
        gap={2}
        sx={{ mb: 2 }}
      >
        {searchable ? <OrderSearchBox query={params.query} onSearch={setQuery} /> : <span />}
        <BulkActionBar
          actions={bulkActionsFor(queue, user.type)}
          selection={selection}
          onAction={(kind) => requestAction(kind, selection.orders())}
        />
      </Stack>
      {list.isSearching && urgentFirst.isOn ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Search results keep their own order; Urgent first applies to the list.
        </Typography>
      ) : null}
      {list.isSearching && <OrderSearchNote page={list.page} text={params.query.trim()} />}
      <OrderTable
        label={title}
        rows={rows}
        columns={columns}
        isLoading={list.isLoading}
        isFetching={list.isFetching}
        emptyText={list.isSearching ? NO_SEARCH_RESULTS_TEXT : NO_DATA_TEXT}
        errorText={errorText}
        selection={selection}
        linkState={linkState}
        canDelete={canDelete}
        onDelete={deleteRow}
      />
      <OrderTablePagination
        page={params.page}
        pageSize={params.pageSize}
        limit={list.limit}
        total={list.page?.total ?? 0}
        totalIsLowerBound={list.page?.totalCapped === true}
        shownRows={rows.length}
        onPageChange={(page) => setPage(page)}
        onPageSizeChange={setPageSize}
      />
      <ConfirmDialog {...actions.confirmDialog} />
    </>
  );
}
