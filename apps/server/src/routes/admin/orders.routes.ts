// Staff order queues (spec §7 "Staff orders"): folder counts, lists, search, bulk moves, future months.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AssignOrderBody,
  BulkResponse,
  ChangeOrderStatusBody,
  DEFAULT_PAGE_SIZE,
  FolderCountQuery,
  FolderCountResponse,
  FutureMonthCountsResponse,
  MoveToCompleteRefundBody,
  OrderListParams,
  OrderListQuery,
  OrderListResponse,
  SearchOrderBody,
  type BulkResult,
} from '@eta/contracts';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const bulkMessage = (verb: string, r: BulkResult) =>
  r.skipped.length === 0
    ? `${r.updated.length} order(s) ${verb}.`
    : `${r.updated.length} order(s) ${verb}; ${r.skipped.length} could not be changed.`;

const ordersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const orders = app.services.orders;

  app.get(
    '/api/admin/get-folder-count',
    { schema: { tags: ['orders'], querystring: FolderCountQuery, response: { 200: FolderCountResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await orders.folderCounts(requireStaff(request.staff).id),
    }),
  );

  app.get(
    '/api/admin/get-orders-list/:orderName',
    {
      schema: {
        tags: ['orders'],
        params: OrderListParams,
        querystring: OrderListQuery,
        response: { 200: OrderListResponse },
      },
    },
    async (request) => {
      const { page = 1, limit = DEFAULT_PAGE_SIZE, month } = request.query;
      const data = await orders.listQueue(requireStaff(request.staff), request.params.orderName, page, limit, month);
      return { status: 1 as const, message: 'OK', data };
    },
  );

  app.post(
    '/api/admin/search-order',
    { schema: { tags: ['orders'], body: SearchOrderBody, response: { 200: OrderListResponse } } },
    async (request) => {
      const { folderName, searchVal, start, end } = request.body;
      const data = await orders.searchQueue(requireStaff(request.staff), folderName, searchVal, start, end);
      return { status: 1 as const, message: 'OK', data };
    },
  );

  app.get(
    '/api/admin/future-order-counts',
    { schema: { tags: ['orders'], response: { 200: FutureMonthCountsResponse } } },
    async () => ({ status: 1 as const, message: 'OK', data: await orders.futureMonthCounts() }),
  );

  app.put(
    '/api/admin/assign-order-status',
    { schema: { tags: ['orders'], body: AssignOrderBody, response: { 200: BulkResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const { orderId, assignto, versions } = request.body;
      const data = await orders.assignOrders(staff, actorOf(staff, request.ip), orderId, assignto, versions);
      const assigning = assignto.trim() !== '';
      const message =
        assigning && data.skipped.length === 0
          ? 'Order has been assigned successfully'
          : bulkMessage(assigning ? 'assigned' : 'moved to New orders', data);
      return { status: 1 as const, message, data };
    },
  );

  app.put(
    '/api/admin/change-order-status',
    { schema: { tags: ['orders'], body: ChangeOrderStatusBody, response: { 200: BulkResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const { orderId, updatingStatus, permanentDeletedFlag = false, versions } = request.body;
      const data = await orders.changeStatus(
        staff,
        actorOf(staff, request.ip),
        orderId,
        updatingStatus,
        permanentDeletedFlag,
        versions,
      );
      const message =
        updatingStatus === 'Deleted' && data.skipped.length === 0
          ? 'Order has been deleted successfully'
          : bulkMessage(`moved to ${updatingStatus}`, data);
      return { status: 1 as const, message, data };
    },
  );

  app.put(
    '/api/admin/move-to-complete-refund',
    { schema: { tags: ['orders'], body: MoveToCompleteRefundBody, response: { 200: BulkResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await orders.moveToCompleteRefund(
        actorOf(staff, request.ip),
        request.body.orderId,
        request.body.versions,
      );
      return { status: 1 as const, message: bulkMessage('marked as refunded', data), data };
    },
  );
};

export default ordersRoutes;
