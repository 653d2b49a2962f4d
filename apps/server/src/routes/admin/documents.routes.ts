// The approved document of an order (spec §7 upload-visa-document, and the HEAD check of whether it exists).
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OrderDocumentParams, OrderDocumentResponse, UPLOAD_FIELDS, UploadVisaDocumentResponse } from '@eta/contracts';
import { readUploadForm, refuseDeclaredOversize, UPLOAD_FORM_LIMITS } from '../../modules/documents/upload-form.js';
import { mailDelivery } from '../../modules/mail/mail-delivery.js';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const documentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { documents } = app.services;
  const { maxUploadMb } = app.config;
  // Multipart for this area only; the file is capped here, so a larger one is refused while it streams in.
  await app.register(multipart, { limits: { ...UPLOAD_FORM_LIMITS, fileSize: maxUploadMb * 1024 * 1024 } });

  app.post(
    '/api/admin/upload-visa-document',
    {
      schema: {
        tags: ['documents'],
        consumes: ['multipart/form-data'],
        description:
          `multipart/form-data: ${Object.values(UPLOAD_FIELDS).join(', ')}. The file (a PDF or an image, judged by ` +
          `its content, at most MAX_UPLOAD_MB) becomes the order's approved document; the order is set Completed ` +
          `and the approval mail is queued through the chosen provider.`,
        response: { 200: UploadVisaDocumentResponse },
      },
      // After sign-in (the app's onRequest), before a byte of the body is read.
      onRequest: async (request, reply) => refuseDeclaredOversize(request, reply, maxUploadMb),
    },
    async (request, reply) => {
      const staff = requireStaff(request.staff);
      const form = await readUploadForm(request, reply, maxUploadMb);
      const data = await documents.uploadApprovedDocument(staff, actorOf(staff, request.ip), form);
      const delivery = mailDelivery(data.mail.state, data.mail.last_error);
      const message =
        delivery.state === 'not_sent'
          ? `Document uploaded and order ${data.orderId} completed. The approval mail was not sent: no mail provider is configured on this server.`
          : `Document uploaded and order ${data.orderId} completed. The approval mail to ${data.mail.to} is on its way.`;
      return { status: 1 as const, message, data: { ...data, delivery } };
    },
  );

  // HEAD (answered by Fastify from this GET, with the same permission): 200 when the document exists, else 404.
  app.get(
    '/api/admin/order-document/:orderId',
    { schema: { tags: ['documents'], params: OrderDocumentParams, response: { 200: OrderDocumentResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await documents.approvedDocument(request.params.orderId),
    }),
  );

  // The customer's signature image, for the order detail page (staff only; never cached, never public).
  app.get(
    '/api/admin/order-signature/:orderId',
    { schema: { tags: ['documents'], params: OrderDocumentParams } },
    async (request, reply) => {
      const { content, contentType } = await documents.signature(request.params.orderId);
      return reply
        .header('content-type', contentType)
        .header('content-disposition', 'inline; filename="signature"')
        .send(content);
    },
  );
};

export default documentsRoutes;
