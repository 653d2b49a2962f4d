// Branding of the public portal per landing site (DESIGN §2 landing_sites).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LandingSiteParams, LandingSiteResponse } from '@eta/contracts';

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
};

export default landingSitesRoutes;
