import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sql } from 'kysely';

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        response: {
          200: Type.Object({
            status: Type.Literal(1),
            message: Type.String(),
            data: Type.Object({ database: Type.String() }),
          }),
          503: Type.Object({ status: Type.Literal(0), message: Type.String() }),
        },
      },
      config: { rateLimit: false },
    },
    async (_request, reply) => {
      try {
        await sql`SELECT 1`.execute(app.db);
        return { status: 1 as const, message: 'OK', data: { database: app.dbKind } };
      } catch {
        return reply.code(503).send({ status: 0 as const, message: 'Database unreachable.' });
      }
    },
  );
};

export default healthRoutes;
