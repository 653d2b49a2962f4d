// Customers' requests (Admin, issue 24): a subject-access request by e-mail address (summary, JSON and PDF
// exports) and an erasure request. E-mail addresses travel in the body, never in a URL that access logs keep.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErasureRequestBody, ErasureResultResponse, SubjectRequestBody, SubjectSummaryResponse } from '@eta/contracts';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const subjectRequestsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const requests = app.services.subjectRequests;

  app.post(
    '/api/admin/subject-requests/summary',
    { schema: { tags: ['subject requests'], body: SubjectRequestBody, response: { 200: SubjectSummaryResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      return {
        status: 1 as const,
        message: 'OK',
        data: await requests.summary(actorOf(staff, request.ip), request.body.email),
      };
    },
  );

  app.post(
    '/api/admin/subject-requests/export.json',
    {
      schema: {
        tags: ['subject requests'],
        description: 'Every order of the person with its mails, downloads and remarks, as a JSON file.',
        body: SubjectRequestBody,
      },
    },
    async (request, reply) => {
      const staff = requireStaff(request.staff);
      const { fileName, body, orderIds } = await requests.exportJson(actorOf(staff, request.ip), request.body.email);
      request.readOrders = orderIds; // one access record per exported order (plugins/access-records.ts)
      return (
        reply
          // JSON under its own type: a file to save, not an API envelope.
          .type('application/vnd.eta-desk.subject-access+json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .send(body)
      );
    },
  );

  app.post(
    '/api/admin/subject-requests/export.pdf',
    {
      schema: {
        tags: ['subject requests'],
        description: 'The same export as a readable PDF.',
        body: SubjectRequestBody,
      },
    },
    async (request, reply) => {
      const staff = requireStaff(request.staff);
      const { fileName, bytes, orderIds } = await requests.exportPdf(actorOf(staff, request.ip), request.body.email);
      request.readOrders = orderIds;
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  app.post(
    '/api/admin/subject-requests/erase',
    {
      schema: {
        tags: ['subject requests'],
        description:
          'Erases the personal data of every order of the person at once; refused while a dispute is open, orders ' +
          'on legal hold are skipped with the reason.',
        body: ErasureRequestBody,
        response: { 200: ErasureResultResponse },
      },
    },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await requests.erase(actorOf(staff, request.ip), request.body.email);
      const n = data.erased.length;
      return {
        status: 1 as const,
        message: `${n === 1 ? '1 order' : `${n} orders`} erased${data.skipped.length ? `, ${data.skipped.length} kept` : ''}.`,
        data,
      };
    },
  );
};

export default subjectRequestsRoutes;
