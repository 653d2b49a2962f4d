// Reads of personal data on the record (issue 24): an order's "Viewed by" (Admin and Manager), every read for the
// Activity page and its unusual-reading alerts (Admin), and an alert's acknowledgement.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AccessAlertParams,
  AccessAlertResponse,
  AccessAlertsQuery,
  AccessAlertsResponse,
  AccessRecordPageResponse,
  AccessRecordsQuery,
  OrderAccessParams,
  OrderAccessQuery,
} from '@eta/contracts';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const accessRecordsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const accessRecords = app.services.accessRecords;

  app.get(
    '/api/admin/orders/:orderId/access-records',
    {
      schema: {
        tags: ['access records'],
        params: OrderAccessParams,
        querystring: OrderAccessQuery,
        response: { 200: AccessRecordPageResponse },
      },
    },
    async (request) => {
      const { cursor, limit = 10 } = request.query;
      const data = await accessRecords.forOrder(request.params.orderId, { cursor, limit });
      return { status: 1 as const, message: 'OK', data };
    },
  );

  app.get(
    '/api/admin/access-records',
    {
      schema: {
        tags: ['access records'],
        querystring: AccessRecordsQuery,
        response: { 200: AccessRecordPageResponse },
      },
    },
    async (request) => {
      const { limit = 50, ...filter } = request.query;
      return { status: 1 as const, message: 'OK', data: await accessRecords.page({ ...filter, limit }) };
    },
  );

  app.get(
    '/api/admin/access-alerts',
    { schema: { tags: ['access records'], querystring: AccessAlertsQuery, response: { 200: AccessAlertsResponse } } },
    async (request) => {
      const { page = 1, limit = 10 } = request.query;
      return { status: 1 as const, message: 'OK', data: await accessRecords.alerts({ page, limit }) };
    },
  );

  app.post(
    '/api/admin/access-alerts/:alertId/acknowledge',
    { schema: { tags: ['access records'], params: AccessAlertParams, response: { 200: AccessAlertResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await accessRecords.acknowledge(staff, actorOf(staff, request.ip), request.params.alertId);
      return { status: 1 as const, message: `The alert about ${data.staff_name} is acknowledged.`, data };
    },
  );
};

export default accessRecordsRoutes;
