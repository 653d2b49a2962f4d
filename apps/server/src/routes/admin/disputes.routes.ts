// Chargebacks from the desk (issue 21): an order's disputes, the evidence preview and its submission, the
// Disputes report with its CSV, and the gateway page's health lines and unmatched webhooks.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DisputeListResponse,
  DisputeOrderParams,
  DisputesReportBody,
  DisputesReportResponse,
  EvidencePreviewQuery,
  EvidencePreviewResponse,
  GatewayHealthResponse,
  SubmitEvidenceBody,
  SubmitEvidenceResponse,
  UnmatchedEventsQuery,
  UnmatchedEventsResponse,
} from '@eta/contracts';
import { attachment, csvStream } from '../../lib/csv.js';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const disputesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const disputes = app.services.disputes;

  app.get(
    '/api/admin/disputes/:orderId',
    { schema: { tags: ['disputes'], params: DisputeOrderParams, response: { 200: DisputeListResponse } } },
    async (request) => ({ status: 1 as const, message: 'OK', data: await disputes.forOrder(request.params.orderId) }),
  );

  app.get(
    '/api/admin/disputes/:orderId/evidence',
    {
      schema: {
        tags: ['disputes'],
        params: DisputeOrderParams,
        querystring: EvidencePreviewQuery,
        response: { 200: EvidencePreviewResponse },
      },
    },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await disputes.preview(request.params.orderId, request.query.defencePackType),
    }),
  );

  app.get(
    '/api/admin/disputes/:orderId/evidence.pdf',
    {
      schema: {
        tags: ['disputes'],
        description: 'The defence pack PDF exactly as Submit evidence would upload it, shown inline.',
        params: DisputeOrderParams,
        querystring: EvidencePreviewQuery,
      },
    },
    async (request, reply) => {
      const { fileName, bytes } = await disputes.previewPdf(request.params.orderId, request.query.defencePackType);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  app.post(
    '/api/admin/disputes/:orderId/evidence',
    {
      schema: {
        tags: ['disputes'],
        params: DisputeOrderParams,
        body: SubmitEvidenceBody,
        response: { 200: SubmitEvidenceResponse },
      },
    },
    async (request) => {
      const staff = requireStaff(request.staff);
      const { defencePackType, submit } = request.body;
      const dispute = await disputes.submit(
        actorOf(staff, request.ip),
        request.params.orderId,
        defencePackType,
        submit,
      );
      return {
        status: 1 as const,
        message: submit
          ? `The evidence was submitted to ${dispute.gateway_name}.`
          : `The evidence was saved at ${dispute.gateway_name} as a draft.`,
        data: dispute,
      };
    },
  );

  app.post(
    '/api/admin/reports/disputes',
    { schema: { tags: ['disputes'], body: DisputesReportBody, response: { 200: DisputesReportResponse } } },
    async (request) => ({ status: 1 as const, message: 'OK', data: await disputes.report(request.body) }),
  );

  app.get(
    '/api/admin/reports/disputes/csv',
    { schema: { tags: ['disputes'], querystring: DisputesReportBody } },
    async (request, reply) => {
      const { rows } = await disputes.report(request.query);
      async function* lines() {
        for (const r of rows) {
          yield [
            r.month,
            r.landing_site,
            r.gateway_name,
            r.reason,
            r.opened,
            r.won,
            r.lost,
            r.open,
            r.win_rate === null ? '' : `${Math.round(r.win_rate * 100)}%`,
          ];
        }
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment('disputes-report.csv'))
        .send(
          csvStream(
            ['Month', 'Landing site', 'Gateway', 'Reason', 'Opened', 'Won', 'Lost', 'Open', 'Win rate'],
            lines(),
          ),
        );
    },
  );

  app.get(
    '/api/admin/payment-gateways/health',
    { schema: { tags: ['gateways'], response: { 200: GatewayHealthResponse } } },
    async () => ({ status: 1 as const, message: 'OK', data: await disputes.health() }),
  );

  app.get(
    '/api/admin/gateway-events/unmatched',
    { schema: { tags: ['gateways'], querystring: UnmatchedEventsQuery, response: { 200: UnmatchedEventsResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await disputes.unmatchedEvents(request.query.page ?? 1, request.query.limit ?? 20),
    }),
  );
};

export default disputesRoutes;
