// The guard for every /api route: looks the route up in PERMISSIONS (one table) and lets the request
// through only when the route is public or the signed-in staff member's type is listed. Unknown = denied.
import fp from 'fastify-plugin';
import type { Staff } from '../db/schema.js';
import { AppError } from '../lib/errors.js';
import { isAllowed, permissionFor } from '../modules/auth/permissions.js';
import type { Actor } from '../modules/audit/audit.repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    staff: Staff | null;
  }
}

/** The signed-in staff member, for handlers behind the guard. */
export function requireStaff(staff: Staff | null): Staff {
  if (!staff) throw new AppError('UNAUTHORIZED', 'Please sign in to continue.');
  return staff;
}

export const actorOf = (staff: Staff, ip: string): Actor => ({ id: staff.id, name: staff.name, ip });

export default fp(async (app) => {
  app.decorateRequest('staff', null);
  // A route without an entry in PERMISSIONS stops the server at start-up instead of being unreachable.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || !route.url.startsWith('/api/')) continue;
      if (permissionFor(method, route.url) === undefined) {
        throw new Error(`Route ${method} ${route.url} has no entry in PERMISSIONS (modules/auth/permissions.ts)`);
      }
    }
  });
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api/')) return; // the web app and static files
    const permission = permissionFor(request.method === 'HEAD' ? 'GET' : request.method, url);
    if (permission === 'public') return;
    if (permission === undefined) throw new AppError('FORBIDDEN', 'You do not have access to this action.');
    const staff = await app.services.auth.authenticate(request.headers.authorization);
    request.staff = staff;
    if (!isAllowed(permission, staff.type)) {
      throw new AppError('FORBIDDEN', `Your role (${staff.type}) does not allow this action.`);
    }
  });
});
