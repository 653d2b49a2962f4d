// Send Invoice (spec §2, §7 `POST /admin/send-invoice {orderId}`): the invoice PDF mailed through the outbox.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SendInvoiceBody, SendInvoiceResponse } from '@eta/contracts';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const invoicesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const invoices = app.services.invoices;

  app.post(
    '/api/admin/send-invoice',
    { schema: { tags: ['invoices'], body: SendInvoiceBody, response: { 200: SendInvoiceResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const { invoice, message } = await invoices.send(staff, actorOf(staff, request.ip), request.body.orderId);
      return { status: 1 as const, message, data: invoice };
    },
  );
};

export default invoicesRoutes;
