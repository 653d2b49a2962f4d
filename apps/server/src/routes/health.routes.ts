// Liveness for load balancers and operators: 200 when the database answers, 503 when it does not.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HealthResponse, MessageOnly } from '@eta/contracts';
import { isDatabaseReachable } from '../db/database.js';

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/health',
    {
      schema: { tags: ['system'], response: { 200: HealthResponse, 503: MessageOnly } },
      config: { rateLimit: false },
    },
    async (_request, reply) => {
      if (await isDatabaseReachable(app.db)) {
        return { status: 1 as const, message: 'OK', data: { database: app.dbKind } };
      }
      return reply.code(503).send({ status: 0 as const, message: 'Database unreachable.' });
    },
  );
};

export default healthRoutes;
