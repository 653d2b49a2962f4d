// Country Order Details and Processed By (spec §2, §7): the counts as JSON, and the same rows as CSV.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CountryReportResponse, ProcessedReportResponse, ReportRangeBody, ReportRangeQuery } from '@eta/contracts';
import { attachment } from '../../lib/csv.js';

const reportsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reports = app.services.reports;

  app.post(
    '/api/admin/get-country-order-count',
    { schema: { tags: ['reports'], body: ReportRangeBody, response: { 200: CountryReportResponse } } },
    async (request) => {
      const { rows, message } = await reports.countryReport(request.body);
      return { status: 1 as const, message, data: rows };
    },
  );

  app.get(
    '/api/admin/get-country-order-count/csv',
    { schema: { tags: ['reports'], querystring: ReportRangeQuery } },
    async (request, reply) => {
      const { fileName, stream } = await reports.countryCsv(request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(fileName))
        .send(stream);
    },
  );

  app.post(
    '/api/admin/get-processed-by-count',
    { schema: { tags: ['reports'], body: ReportRangeBody, response: { 200: ProcessedReportResponse } } },
    async (request) => {
      const { rows, message } = await reports.processedReport(request.body);
      return { status: 1 as const, message, data: rows };
    },
  );

  app.get(
    '/api/admin/get-processed-by-count/csv',
    { schema: { tags: ['reports'], querystring: ReportRangeQuery } },
    async (request, reply) => {
      const { fileName, stream } = await reports.processedCsv(request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(fileName))
        .send(stream);
    },
  );
};

export default reportsRoutes;
