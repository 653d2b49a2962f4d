// Helmet's security headers (CSP, HSTS, frame and sniffing rules, …) on every answer. They do not depend on the
// request, so they are worked out once at start-up by running Helmet against a recording response, and each
// request only copies them. (@fastify/helmet built a new Helmet middleware, CSP parsing included, for every
// request: about 3 % of a list request's CPU in the issue-11 profile; docs/decisions/requests-and-errors.md.)
// Everything is same-origin except the public images under the given paths (the landing sites' logos), which the
// mails reference from wherever they are read: a webmail, or the console's sandboxed mail preview, whose opaque
// origin a `Cross-Origin-Resource-Policy: same-origin` logo is refused to.
import fp from 'fastify-plugin';
import type { onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The headers Helmet would set with these options, as name → value. */
function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/** A route-level hook as a list, whatever form the route gave it in. */
const hooksOf = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/** After the shared headers (route hooks run after the app's): any origin may load this answer. */
const allowAnyOrigin: onRequestHookHandler = (_request, reply, done) => {
  reply.header('cross-origin-resource-policy', 'cross-origin');
  done();
};

export default fp<{ helmet: HelmetOptions; crossOriginPaths?: readonly string[] }>(
  async (app, opts) => {
    const headers = helmetHeaders(opts.helmet);
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
    // Decided per route as it is registered (its path pattern, never the request's own URL), so no other answer pays.
    const crossOriginPaths = opts.crossOriginPaths ?? [];
    app.addHook('onRoute', (route) => {
      if (crossOriginPaths.some((prefix) => route.url.startsWith(prefix))) {
        route.onRequest = [...hooksOf(route.onRequest), allowAnyOrigin];
      }
    });
  },
  { name: 'security-headers' },
);
