// The landing sites' public read of the active payment gateway's name (issue 10); nothing else about it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ActiveGatewayResponse } from '@eta/contracts';

const activeGatewayRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/front/active-gateway',
    { schema: { tags: ['public'], response: { 200: ActiveGatewayResponse } } },
    async (_request, reply) => {
      const data = await app.services.gateways.active();
      // The same for everyone; a switch shows within a minute.
      reply.header('cache-control', 'public, max-age=60');
      return { status: 1 as const, message: 'OK', data };
    },
  );
};

export default activeGatewayRoutes;
