// Branding of the public portal per landing site (DESIGN §2 landing_sites), and the logo an Admin uploaded for it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LandingSiteParams, LandingSiteResponse, LogoQuery } from '@eta/contracts';

const landingSitesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/front/landing-sites/:key',
    { schema: { tags: ['public'], params: LandingSiteParams, response: { 200: LandingSiteResponse } } },
    async (request, reply) => {
      const data = await app.services.landingSites.branding(request.params.key);
      // Public, the same for everyone: cacheable, unlike every signed-in answer (no-store).
      reply.header('cache-control', 'public, max-age=300');
      return { status: 1 as const, message: 'OK', data };
    },
  );

  // A logo an Admin uploaded (issue 33), for the portal and the mails, wherever they are read. Only PNG and JPEG are
  // ever stored (judged by content on upload), sent with their own type, never sniffed, never run as a document.
  app.get(
    '/api/front/landing-sites/:key/logo',
    { schema: { tags: ['public'], params: LandingSiteParams, querystring: LogoQuery } },
    async (request, reply) => {
      const logo = await app.services.landingSites.logo(request.params.key);
      // The address names the logo's hash: the one it names never changes, any other is the current logo for now.
      const isCurrent = request.query.v === logo.sha256.slice(0, 16);
      return reply
        .header('content-type', logo.contentType)
        .header('content-disposition', 'inline; filename="logo"')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('cache-control', isCurrent ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
        .send(logo.content);
    },
  );
};

export default landingSitesRoutes;
