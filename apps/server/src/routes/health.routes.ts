// Liveness and readiness for load balancers and orchestrators. /api/health: the process answers (its event loop
// runs); a database outage does not make it "dead", or an orchestrator would restart every server at once.
// /api/ready: this server should get traffic: the database answers, every migration the code knows is applied,
// and the server is not shutting down (503 from SIGTERM on, so a balancer stops sending). The database is asked on a
// connection of the check's own with short bounds (issue 32): a pool full of slow statements, or a database that is
// away, gives a quick 503, never a wait.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { HealthResponse, MessageOnly, ReadyResponse } from '@eta/contracts';
import { isDatabaseReachable, READINESS_TIMEOUT_MS, type Database } from '../db/database.js';
import { LATEST_MIGRATION, pendingMigrations } from '../db/migrate.js';

const UNREACHABLE = 'Database unreachable.';

const healthRoutes: FastifyPluginAsyncTypebox<{ readinessDb: Database }> = async (app, { readinessDb }) => {
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });
  // Migrations only go forward: once every one is applied, that stays true for this database.
  let migrationsCurrent = false;

  /** Why the database is not ready for this server, or null when it is. */
  const databaseNotReady = async (): Promise<string | null> => {
    if (!(await isDatabaseReachable(readinessDb))) return UNREACHABLE;
    if (!migrationsCurrent) {
      const pending = await pendingMigrations(readinessDb as Kysely<unknown>).catch(() => null);
      if (pending === null) return UNREACHABLE;
      if (pending.length > 0) {
        return `Database schema is behind this server: migrations not applied: ${pending.join(', ')}.`;
      }
      migrationsCurrent = true;
    }
    return null;
  };
  // One check at a time, whatever the number of probes: those arriving meanwhile share its answer.
  let checking: Promise<string | null> | undefined;
  const checkDatabase = (): Promise<string | null> => {
    checking ??= databaseNotReady().finally(() => (checking = undefined));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(
        () => resolve(`Database did not answer within ${READINESS_TIMEOUT_MS} ms.`),
        READINESS_TIMEOUT_MS,
      );
    });
    return Promise.race([checking, late]).finally(() => clearTimeout(timer));
  };

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
      const notReady = await checkDatabase();
      if (notReady) return unavailable(notReady);
      return { status: 1 as const, message: 'OK', data: { database: app.dbKind, migration: LATEST_MIGRATION } };
    },
  );
};

export default healthRoutes;
