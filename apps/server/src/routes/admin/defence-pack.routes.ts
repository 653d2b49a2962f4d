// Defence Pack 1 and 2 on the order detail page (spec §7): the PDF, opened in a new tab, and its facts as JSON.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DefencePackBody, DefencePackDetailsResponse, PdfFile } from '@eta/contracts';

const defencePackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const packs = app.services.defencePack;

  app.post(
    '/api/admin/get-defence-pack-pdf',
    {
      schema: {
        tags: ['order detail'],
        description: 'The defence pack as a PDF, shown inline.',
        body: DefencePackBody,
        response: {
          200: {
            description: 'The defence pack',
            content: { 'application/pdf': { schema: PdfFile } },
          },
        },
      },
    },
    async (request, reply) => {
      const { fileName, bytes } = await packs.pdf(request.body.orderId, request.body.defencePackType);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  app.post(
    '/api/admin/defence-pack-details',
    { schema: { tags: ['order detail'], body: DefencePackBody, response: { 200: DefencePackDetailsResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await packs.details(request.body.orderId, request.body.defencePackType),
    }),
  );
};

export default defencePackRoutes;
