// Branding of the public portal per landing site (DESIGN §2 landing_sites).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope } from '@eta/contracts';
import { AppError } from '../../lib/errors.js';
import { findBranding } from '../../modules/landing-sites/landing-sites.repository.js';

const Branding = Type.Object({
  key: Type.String(),
  display_name: Type.String(),
  logo_url: Type.String(),
  menu_links: Type.Array(Type.Object({ label: Type.String(), url: Type.String() })),
  footer_contact: Type.String(),
  support_phone: Type.Union([Type.String(), Type.Null()]),
});

const landingSitesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/front/landing-sites/:key',
    {
      schema: {
        tags: ['public'],
        params: Type.Object({ key: Type.String({ pattern: '^[a-z0-9-]{1,40}$' }) }),
        response: { 200: Envelope(Branding) },
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
