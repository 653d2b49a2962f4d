// Loads one page of a queue: the plain list (urgent first when the member sorts the queue so, issue 35), or the
// search results while the search box has text (spec §4 "Lists": search is sent only when the box is non-empty; a
// search keeps its own order).
import { useCallback, useMemo, useState } from 'react';
import type { OrderListPage, QueueName, SearchOrderBody } from '@eta/contracts';
import { MAX_PAGE_SIZE } from '@eta/contracts/domain';
import { useAppDispatch } from '../../../lib/store';
import { ordersApi, useGetOrdersListQuery, useSearchOrdersQuery, type OrderListArgs } from '../api/orders-api';
import type { ListParams } from './use-list-params';

interface UseOrderListOptions {
  queue: QueueName;
  userName: string;
  params: ListParams;
  month?: number;
  /** The list's order: `urgent` for urgent first. */
  sort?: 'urgent';
  /** False while the order is not known yet: the list waits rather than load twice. */
  isSortKnown?: boolean;
}

const clampLimit = (limit: number): number => Math.min(MAX_PAGE_SIZE, Math.max(1, limit));

function removeRows(page: OrderListPage, ids: readonly string[]): void {
  const before = page.rows.length;
  page.rows = page.rows.filter((row) => !ids.includes(row.order_id));
  page.total = Math.max(0, page.total - (before - page.rows.length));
}

export function useOrderList({ queue, userName, params, month, sort, isSortKnown = true }: UseOrderListOptions) {
  const dispatch = useAppDispatch();
  // "All" asks for the queue's total (spec §9); until a total is known, the largest page the server gives.
  const [knownTotal, setKnownTotal] = useState<number | undefined>(undefined);
  const limit = params.pageSize === 'all' ? clampLimit(knownTotal ?? MAX_PAGE_SIZE) : params.pageSize;
  const searchText = params.query.trim();
  const isSearching = searchText !== '';

  const listArgs = useMemo<OrderListArgs>(
    () => ({ queue, page: params.page, limit, userName, month, sort }),
    [queue, params.page, limit, userName, month, sort],
  );
  const searchArgs = useMemo<SearchOrderBody>(
    () => ({ start: (params.page - 1) * limit, end: params.page * limit, searchVal: searchText, folderName: queue }),
    [queue, params.page, limit, searchText],
  );
  const list = useGetOrdersListQuery(listArgs, { skip: isSearching || !isSortKnown, refetchOnMountOrArgChange: true });
  const search = useSearchOrdersQuery(searchArgs, { skip: !isSearching, refetchOnMountOrArgChange: true });
  const active = isSearching ? search : list;

  const listTotal = list.currentData?.total;
  const totalIsNews = params.pageSize !== 'all' || (knownTotal !== undefined && (listTotal ?? 0) > knownTotal);
  if (listTotal !== undefined && listTotal !== knownTotal && totalIsNews) setKnownTotal(listTotal);

  /** Takes moved orders out of the page in view at once; the refetch that follows brings the server's truth. */
  const removeFromView = useCallback(
    (ids: readonly string[]) => {
      if (ids.length === 0) return;
      if (isSearching) {
        dispatch(ordersApi.util.updateQueryData('searchOrders', searchArgs, (draft) => removeRows(draft, ids)));
      } else {
        dispatch(ordersApi.util.updateQueryData('getOrdersList', listArgs, (draft) => removeRows(draft, ids)));
      }
    },
    [dispatch, isSearching, listArgs, searchArgs],
  );

  const { refetch } = active;
  const reload = useCallback(() => {
    void refetch();
  }, [refetch]);

  return {
    page: active.currentData,
    limit,
    isSearching,
    isLoading: (active.isFetching && !active.currentData) || (!isSearching && !isSortKnown),
    isFetching: active.isFetching,
    error: active.error,
    removeFromView,
    reload,
  };
}
