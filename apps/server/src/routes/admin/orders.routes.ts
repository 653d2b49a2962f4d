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
  ProcessingTargets,
  QueueSettingsResponse,
  SearchOrderBody,
  UrgentFirstBody,
  WaitingTooLongQuery,
  plural,
  type BulkResult,
} from '@eta/contracts';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const bulkMessage = (verb: string, r: BulkResult) =>
  r.skipped.length === 0
    ? `${plural(r.updated.length, 'order')} ${verb}.`
    : `${plural(r.updated.length, 'order')} ${verb}; ${plural(r.skipped.length, 'order')} could not be changed.`;

const ordersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { orderQueries: orders, orderMoves: moves, queueSettings } = app.services;

  app.get(
    '/api/admin/get-folder-count',
    { schema: { tags: ['orders'], querystring: FolderCountQuery, response: { 200: FolderCountResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await orders.folderCounts(requireStaff(request.staff)),
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
      const { page = 1, limit = DEFAULT_PAGE_SIZE, month, sort } = request.query;
      const data = await orders.listQueue(requireStaff(request.staff), request.params.orderName, page, limit, {
        month,
        urgentFirst: sort === 'urgent',
      });
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
    '/api/admin/waiting-too-long',
    { schema: { tags: ['orders'], querystring: WaitingTooLongQuery, response: { 200: OrderListResponse } } },
    async (request) => {
      const { page = 1, limit = 50 } = request.query;
      const data = await orders.waitingTooLong(requireStaff(request.staff), page, limit);
      return { status: 1 as const, message: 'OK', data };
    },
  );

  app.get(
    '/api/admin/queue-settings',
    { schema: { tags: ['orders'], response: { 200: QueueSettingsResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await queueSettings.forMember(requireStaff(request.staff)),
    }),
  );

  app.put(
    '/api/admin/queue-settings/urgent-first',
    { schema: { tags: ['orders'], body: UrgentFirstBody, response: { 200: QueueSettingsResponse } } },
    async (request) => {
      const { queue, urgentFirst } = request.body;
      const data = await queueSettings.setUrgentFirst(requireStaff(request.staff), queue, urgentFirst);
      return { status: 1 as const, message: urgentFirst ? 'Urgent orders first.' : 'In queue order.', data };
    },
  );

  app.put(
    '/api/admin/processing-targets',
    { schema: { tags: ['orders'], body: ProcessingTargets, response: { 200: QueueSettingsResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await queueSettings.setTargets(staff, actorOf(staff, request.ip), request.body);
      return { status: 1 as const, message: 'Target times saved.', data };
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
      const actor = actorOf(staff, request.ip);
      // The spec's one call does two things: an empty assignee is "Move to New orders".
      if (assignto.trim() === '') {
        const data = await moves.moveToNew(staff, actor, orderId, versions);
        return { status: 1 as const, message: bulkMessage('moved to New orders', data), data };
      }
      const data = await moves.assignOrders(staff, actor, orderId, assignto, versions);
      const message =
        data.skipped.length === 0 ? 'Order has been assigned successfully' : bulkMessage('assigned', data);
      return { status: 1 as const, message, data };
    },
  );

  app.put(
    '/api/admin/change-order-status',
    { schema: { tags: ['orders'], body: ChangeOrderStatusBody, response: { 200: BulkResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const { orderId, updatingStatus, permanentDeletedFlag = false, versions } = request.body;
      const data = await moves.changeStatus(
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
      const data = await moves.moveToCompleteRefund(
        actorOf(staff, request.ip),
        request.body.orderId,
        request.body.versions,
      );
      return { status: 1 as const, message: bulkMessage('marked as refunded', data), data };
    },
  );
};

export default ordersRoutes;
