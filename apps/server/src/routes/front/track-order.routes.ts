// The customer portal's calls (spec §7 "Public"): track an order, read its download history, download the
// approved eTA. No staff session: the order id AND e-mail prove the order, then the proof track-order issued.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DownloadDocumentBody,
  DownloadDocumentResponse,
  DownloadHistoryBody,
  DownloadHistoryResponse,
  DownloadTicketQuery,
  TRACK_PROOF_HEADER,
  TrackOrderBody,
  TrackOrderResponse,
} from '@eta/contracts';

const proofOf = (headers: Record<string, string | string[] | undefined>) => {
  const value = headers[TRACK_PROOF_HEADER];
  return typeof value === 'string' ? value : undefined;
};

const trackOrderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const portal = app.services.portal;

  app.post(
    '/api/front/track-order',
    { schema: { tags: ['public'], security: [], body: TrackOrderBody, response: { 200: TrackOrderResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'Your order has been found.',
      data: await portal.track(request.body, request.ip),
    }),
  );

  app.post(
    '/api/front/get-download-history',
    {
      schema: { tags: ['public'], security: [], body: DownloadHistoryBody, response: { 200: DownloadHistoryResponse } },
    },
    async (request) => portal.history(proofOf(request.headers), request.body.orderId),
  );

  app.post(
    '/api/front/download-passport-doc-pdf',
    {
      schema: {
        tags: ['public'],
        security: [],
        body: DownloadDocumentBody,
        response: { 200: DownloadDocumentResponse },
      },
    },
    async (request) => ({
      status: 1 as const,
      message: 'Your download will start in a moment.',
      data: await portal.prepareDownload(proofOf(request.headers), request.body),
    }),
  );

  // The link download-passport-doc-pdf answered with: the document itself, streamed, logged as it starts.
  app.get(
    '/api/front/download',
    { schema: { tags: ['public'], security: [], querystring: DownloadTicketQuery } },
    async (request, reply) => {
      const file = await portal.download(request.query.ticket, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );
};

export default trackOrderRoutes;
