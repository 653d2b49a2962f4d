// The order detail page (spec §7 "Staff orders"): details, remarks, one-order status moves, transaction details.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddRemarkBody,
  AddRemarkResponse,
  MoveOrderStatusBody,
  OrderChangeResponse,
  OrderDetailsParams,
  OrderDetailsResponse,
  SaveTransactionBody,
  STATUS_LABELS,
} from '@eta/contracts';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const orderDetailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const detail = app.services.orderDetail;

  app.get(
    '/api/admin/get-orders-details/:orderId',
    { schema: { tags: ['order detail'], params: OrderDetailsParams, response: { 200: OrderDetailsResponse } } },
    async (request) => ({ status: 1 as const, message: 'OK', data: await detail.details(request.params.orderId) }),
  );

  app.post(
    '/api/admin/add-new-remark',
    { schema: { tags: ['order detail'], body: AddRemarkBody, response: { 200: AddRemarkResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await detail.addRemark(staff, actorOf(staff, request.ip), request.body);
      return { status: 1 as const, message: 'Comment added.', data };
    },
  );

  app.put(
    '/api/admin/move-order-status',
    { schema: { tags: ['order detail'], body: MoveOrderStatusBody, response: { 200: OrderChangeResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await detail.moveStatus(staff, actorOf(staff, request.ip), request.body);
      const to = request.body.updatingStatus;
      const message = to === 'Deleted' ? 'Order has been deleted successfully' : `Order moved to ${STATUS_LABELS[to]}.`;
      return { status: 1 as const, message, data };
    },
  );

  app.post(
    '/api/admin/save-transaction-details',
    { schema: { tags: ['order detail'], body: SaveTransactionBody, response: { 200: OrderChangeResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await detail.saveTransactionDetails(actorOf(staff, request.ip), request.body);
      return { status: 1 as const, message: 'Transaction details saved.', data };
    },
  );
};

export default orderDetailRoutes;
