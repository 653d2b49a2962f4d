// Order lists and bulk moves (spec §4 "Lists", "Assignment", "Deleting", "Refund"; DESIGN §3).
import type {
  ApiEnvelope,
  AssignOrderBody,
  BulkResult,
  ChangeOrderStatusBody,
  MoveToCompleteRefundBody,
  OrderListPage,
  QueueName,
  SearchOrderBody,
} from '@eta/contracts';
import { api, type ApiError, type ApiRequest } from '../../../lib/api';

export interface OrderListArgs {
  queue: QueueName;
  page: number;
  limit: number;
  userName: string;
  /** Future queue only: 1-12. */
  month?: number;
  /** The queue's urgent orders first (issue 35); absent: queue order. */
  sort?: 'urgent';
}

export interface WaitingTooLongArgs {
  page: number;
  limit: number;
}

export interface FutureMonthCount {
  month: number;
  label: string;
  count: number;
}

const emptyPage = (page: number, limit: number): OrderListPage => ({ rows: [], total: 0, page, limit });

/**
 * Frozen before it enters the store: Immer then takes it as it is, instead of walking every one of up to 5,000
 * rows for drafts to finalize and freeze (that walk was most of the time "All" took to appear).
 */
function frozenPage(page: OrderListPage): OrderListPage {
  page.rows.forEach((row) => Object.freeze(row));
  Object.freeze(page.rows);
  return Object.freeze(page);
}

/** A bulk move changes queues, their counts and the future months, so all of them reload (refused or not). */
const AFTER_MOVE = ['OrderList', 'FolderCounts', 'FutureOrderCounts'] as const;

function isBulkResult(value: unknown): value is BulkResult {
  if (typeof value !== 'object' || value === null) return false;
  const { updated, skipped } = value as Record<string, unknown>;
  return Array.isArray(updated) && Array.isArray(skipped);
}

/**
 * When no order of a bulk move could change, the server answers 409 and still names every skipped order with its
 * reason code; that answer is reported like any other skip (useOrderActions), not as a generic error.
 */
export function refusedMove(error: unknown): BulkResult | undefined {
  const data = typeof error === 'object' && error !== null ? (error as ApiError).data : undefined;
  return isBulkResult(data) ? data : undefined;
}

const bulkMove =
  <Body extends { orderId: string[] }>(url: string) =>
  (body: Body): ApiRequest => ({
    url,
    method: 'PUT',
    body,
    silent: (error) => refusedMove(error) !== undefined,
  });

/** A success without a result (not sent by this server) means every order moved. */
const bulkResult = (body: ApiEnvelope<BulkResult>, _meta: unknown, { orderId }: { orderId: string[] }): BulkResult =>
  body.data ?? { updated: orderId, skipped: [] };

export const ordersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrdersList: build.query<OrderListPage, OrderListArgs>({
      query: ({ queue, page, limit, userName, month, sort }) => ({
        url: `admin/get-orders-list/${queue}`,
        params: { page, limit, delay: 1, userName, month, sort },
      }),
      transformResponse: (body: ApiEnvelope<OrderListPage>, _meta, { page, limit }) =>
        frozenPage(body.data ?? emptyPage(page, limit)),
      providesTags: ['OrderList'],
    }),
    searchOrders: build.query<OrderListPage, SearchOrderBody>({
      query: (body) => ({ url: 'admin/search-order', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<OrderListPage>, _meta, { start, end }) =>
        frozenPage(body.data ?? emptyPage(Math.floor(start / Math.max(1, end - start)) + 1, end - start)),
      providesTags: ['OrderList'],
    }),
    // Open orders past their target time, oldest wait first, across the queues (issue 35).
    getWaitingTooLong: build.query<OrderListPage, WaitingTooLongArgs>({
      query: (params) => ({ url: 'admin/waiting-too-long', params: { ...params } }),
      transformResponse: (body: ApiEnvelope<OrderListPage>, _meta, { page, limit }) =>
        frozenPage(body.data ?? emptyPage(page, limit)),
      providesTags: ['OrderList'],
    }),
    getFutureOrderCounts: build.query<FutureMonthCount[], void>({
      query: () => ({ url: 'admin/future-order-counts' }),
      transformResponse: (body: ApiEnvelope<FutureMonthCount[]>) => body.data ?? [],
      providesTags: ['FutureOrderCounts'],
    }),
    // An array (not a function) of tags is invalidated after a failed move too: a 409 reloads the list and counts.
    assignOrders: build.mutation<BulkResult, AssignOrderBody>({
      query: bulkMove('admin/assign-order-status'),
      transformResponse: bulkResult,
      invalidatesTags: [...AFTER_MOVE],
    }),
    changeOrderStatus: build.mutation<BulkResult, ChangeOrderStatusBody>({
      query: bulkMove('admin/change-order-status'),
      transformResponse: bulkResult,
      invalidatesTags: [...AFTER_MOVE],
    }),
    completeRefunds: build.mutation<BulkResult, MoveToCompleteRefundBody>({
      query: bulkMove('admin/move-to-complete-refund'),
      transformResponse: bulkResult,
      invalidatesTags: [...AFTER_MOVE],
    }),
  }),
});

export const {
  useGetOrdersListQuery,
  useSearchOrdersQuery,
  useGetWaitingTooLongQuery,
  useGetFutureOrderCountsQuery,
  useAssignOrdersMutation,
  useChangeOrderStatusMutation,
  useCompleteRefundsMutation,
} = ordersApi;
