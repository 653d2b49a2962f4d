// Liveness and readiness for load balancers and orchestrators. /api/health: the process answers (its event loop
// runs); a database outage does not make it "dead", or an orchestrator would restart every server at once.
// /api/ready: this server should get traffic: the database answers, every migration the code knows is applied,
// and the server is not shutting down (503 from SIGTERM on, so a balancer stops sending).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { HealthResponse, MessageOnly, ReadyResponse } from '@eta/contracts';
import { isDatabaseReachable } from '../db/database.js';
import { LATEST_MIGRATION, pendingMigrations } from '../db/migrate.js';

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });
  // Migrations only go forward: once every one is applied, that stays true for this database.
  let migrationsCurrent = false;

  app.get(
    '/api/health',
    {
      schema: { tags: ['system'], response: { 200: HealthResponse } },
      config: { rateLimit: false },
    },
    async () => ({ status: 1 as const, message: 'OK', data: { database: app.dbKind } }),
  );

  app.get(
    '/api/ready',
    {
      schema: { tags: ['system'], response: { 200: ReadyResponse, 503: MessageOnly } },
      config: { rateLimit: false },
    },
    async (_request, reply) => {
      const unavailable = (message: string) => reply.code(503).send({ status: 0 as const, message });
      if (shuttingDown) return unavailable('Shutting down.');
      if (!(await isDatabaseReachable(app.db))) return unavailable('Database unreachable.');
      if (!migrationsCurrent) {
        const pending = await pendingMigrations(app.db as Kysely<unknown>).catch(() => null);
        if (pending === null) return unavailable('Database unreachable.');
        if (pending.length > 0) {
          return unavailable(`Database schema is behind this server: migrations not applied: ${pending.join(', ')}.`);
        }
        migrationsCurrent = true;
      }
      return { status: 1 as const, message: 'OK', data: { database: app.dbKind, migration: LATEST_MIGRATION } };
    },
  );
};

export default healthRoutes;
