// Branding of the public portal per landing site (DESIGN §2 landing_sites).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LandingSiteParams, LandingSiteResponse } from '@eta/contracts';
import { AppError } from '../../lib/errors.js';
import { findBranding } from '../../modules/landing-sites/landing-sites.repository.js';

const landingSitesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/front/landing-sites/:key',
    {
      schema: {
        tags: ['public'],
        params: LandingSiteParams,
        response: { 200: LandingSiteResponse },
      },
    },
    async (request, reply) => {
      const site = await findBranding(app.db, request.params.key);
      if (!site) throw new AppError('NOT_FOUND', 'Unknown landing site.');
      reply.header('cache-control', 'public, max-age=300');
      return { status: 1 as const, message: 'OK', data: site };
    },
  );
};

export default landingSitesRoutes;
