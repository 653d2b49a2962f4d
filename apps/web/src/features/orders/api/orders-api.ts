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
import { api } from '../../../lib/api';

export interface OrderListArgs {
  queue: QueueName;
  page: number;
  limit: number;
  userName: string;
  /** Future queue only: 1-12. */
  month?: number;
}

export interface FutureMonthCount {
  month: number;
  label: string;
  count: number;
}

export type BulkResponse = ApiEnvelope<BulkResult>;

const emptyPage = (page: number, limit: number): OrderListPage => ({ rows: [], total: 0, page, limit });

/** A bulk move changes queues, their counts and the future months, so all of them reload. */
const AFTER_MOVE = ['OrderList', 'FolderCounts', 'FutureOrderCounts'] as const;

export const ordersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrdersList: build.query<OrderListPage, OrderListArgs>({
      query: ({ queue, page, limit, userName, month }) => ({
        url: `admin/get-orders-list/${queue}`,
        params: { page, limit, delay: 1, userName, month },
      }),
      transformResponse: (body: ApiEnvelope<OrderListPage>, _meta, { page, limit }) =>
        body.data ?? emptyPage(page, limit),
      providesTags: ['OrderList'],
    }),
    searchOrders: build.query<OrderListPage, SearchOrderBody>({
      query: (body) => ({ url: 'admin/search-order', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<OrderListPage>, _meta, { start, end }) =>
        body.data ?? emptyPage(Math.floor(start / Math.max(1, end - start)) + 1, end - start),
      providesTags: ['OrderList'],
    }),
    getFutureOrderCounts: build.query<FutureMonthCount[], void>({
      query: () => ({ url: 'admin/future-order-counts' }),
      transformResponse: (body: ApiEnvelope<FutureMonthCount[]>) => body.data ?? [],
      providesTags: ['FutureOrderCounts'],
    }),
    assignOrders: build.mutation<BulkResponse, AssignOrderBody>({
      query: (body) => ({ url: 'admin/assign-order-status', method: 'PUT', body }),
      invalidatesTags: [...AFTER_MOVE],
    }),
    changeOrderStatus: build.mutation<BulkResponse, ChangeOrderStatusBody>({
      query: (body) => ({ url: 'admin/change-order-status', method: 'PUT', body }),
      invalidatesTags: [...AFTER_MOVE],
    }),
    completeRefunds: build.mutation<BulkResponse, MoveToCompleteRefundBody>({
      query: (body) => ({ url: 'admin/move-to-complete-refund', method: 'PUT', body }),
      invalidatesTags: [...AFTER_MOVE],
    }),
  }),
});

export const {
  useGetOrdersListQuery,
  useSearchOrdersQuery,
  useGetFutureOrderCountsQuery,
  useAssignOrdersMutation,
  useChangeOrderStatusMutation,
  useCompleteRefundsMutation,
} = ordersApi;
