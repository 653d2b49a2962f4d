// The guard for every /api route: looks the route up in PERMISSIONS and lets the request through only when
// the route is public or the signed-in staff member's role holds the capability it names. Unknown = denied.
// Every refusal (403), here or in a service, is written to the audit trail.
import fp from 'fastify-plugin';
import type { Staff } from '../db/schema.js';
import { AppError } from '../lib/errors.js';
import { TICKET_ROUTES, isAllowed, permissionFor } from '../modules/auth/permissions.js';
import type { FastifyRequest } from 'fastify';
import type { Client, Session } from '../modules/auth/auth.service.js';
import type { Actor } from '../modules/audit/audit.repository.js';
import type { IntakeCaller } from '../modules/intake/intake.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    staff: Staff | null;
    session: Session | null;
    /** The landing site behind an intake key (intake routes only). */
    intakeCaller: IntakeCaller | null;
  }
  interface FastifyInstance {
    /** "METHOD /url" of every /api route, as registered: the permission and fuzz tests walk this list. */
    apiRoutes: { method: string; url: string; schema: unknown }[];
  }
}

/** The landing site that sent an intake request, for handlers behind the guard. */
export function requireIntakeCaller(caller: IntakeCaller | null): IntakeCaller {
  if (!caller) throw new AppError('UNAUTHORIZED', 'A valid intake key is required.');
  return caller;
}

/** The signed-in staff member, for handlers behind the guard. */
export function requireStaff(staff: Staff | null): Staff {
  if (!staff) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
  return staff;
}

export function requireSession(session: Session | null): Session {
  if (!session) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
  return session;
}

export const actorOf = (staff: Staff, ip: string): Actor => ({ id: staff.id, name: staff.name, ip });

/** Who is signing in, as a session records them: the client address and the browser's User-Agent. */
export const clientOf = (request: FastifyRequest): Client => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? '',
});

export default fp(async (app) => {
  app.decorateRequest('staff', null);
  app.decorateRequest('session', null);
  app.decorateRequest('intakeCaller', null);
  app.decorate('apiRoutes', []);
  // A route without an entry in PERMISSIONS stops the server at start-up instead of being unreachable.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || !route.url.startsWith('/api/')) continue;
      if (permissionFor(method, route.url) === undefined) {
        throw new Error(`Route ${method} ${route.url} has no entry in PERMISSIONS (modules/auth/permissions.ts)`);
      }
      app.apiRoutes.push({ method, url: route.url, schema: route.schema });
    }
  });
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api/')) return; // the web app and static files
    const permission = permissionFor(request.method === 'HEAD' ? 'GET' : request.method, url);
    if (permission === 'public') return;
    if (permission === 'intakeKey') {
      request.intakeCaller = await app.services.intake.authenticate(request.headers.authorization, request.ip);
      return;
    }
    if (permission === undefined) throw new AppError('FORBIDDEN', 'You do not have access to this action.');
    const ticket = TICKET_ROUTES.has(`GET ${url}`) ? (request.query as { ticket?: unknown }).ticket : undefined;
    const session =
      typeof ticket === 'string'
        ? await app.services.liveDesk.redeemTicket(ticket)
        : await app.services.auth.authenticate(request.headers.authorization);
    request.session = session;
    request.staff = session.staff;
    if (!isAllowed(permission, session.staff.type)) {
      throw new AppError('FORBIDDEN', `Your role (${session.staff.type}) does not allow this action.`);
    }
  });
  app.addHook('onError', async (request, _reply, error) => {
    if (!(error instanceof AppError) || error.code !== 'FORBIDDEN') return;
    const actor: Actor = request.staff ? actorOf(request.staff, request.ip) : { id: null, name: null, ip: request.ip };
    const what = `${request.method} ${request.url.split('?')[0]!.slice(0, 300)}`;
    // A refusal is answered whether or not its audit row could be written.
    await app.services.auth.recordRefusal(actor, what, error.message).catch((err: unknown) => {
      request.log.error({ err }, 'could not audit a refused call');
    });
  });
});
