// The mails of an order (spec §2 "Order detail": Email History's Resend, View Email Content; §7 resend-mail).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  MailContentParams,
  MailContentQuery,
  MailContentResponse,
  ResendMailBody,
  ResendMailResponse,
} from '@eta/contracts';
import { mailDelivery } from '../../modules/mail/mail-delivery.js';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const mailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { orderMails } = app.services;

  app.post(
    '/api/admin/resend-mail',
    { schema: { tags: ['mail'], body: ResendMailBody, response: { 200: ResendMailResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const mail = await orderMails.resendApprovalMail(actorOf(staff, request.ip), request.body);
      const delivery = mailDelivery(mail.state, mail.last_error);
      const message =
        delivery.state === 'not_sent'
          ? 'The mail was not sent: no mail provider is configured on this server. It is kept in Email History.'
          : `The approval mail will be sent again to ${mail.to}.`;
      return { status: 1 as const, message, data: { ...mail, delivery } };
    },
  );

  app.get(
    '/api/admin/email-content/:orderId',
    {
      schema: {
        tags: ['mail'],
        description:
          'Exactly what a mail of the order says: the mail named by mailId, else the latest approval mail, ' +
          'else (state "preview") the approval mail the order would get now.',
        params: MailContentParams,
        querystring: MailContentQuery,
        response: { 200: MailContentResponse },
      },
    },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await orderMails.mailContent(request.params.orderId, request.query.mailId),
    }),
  );
};

export default mailRoutes;
