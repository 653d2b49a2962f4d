// Helmet's security headers (CSP, HSTS, frame and sniffing rules, …) on every answer. They do not depend on the
// request, so they are worked out once at start-up by running Helmet against a recording response, and each
// request only copies them. (@fastify/helmet built a new Helmet middleware, CSP parsing included, for every
// request: about 3 % of a list request's CPU in the issue-11 profile; docs/ARCHITECTURE.md.)
import fp from 'fastify-plugin';
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

export default fp<{ helmet: HelmetOptions }>(
  async (app, opts) => {
    const headers = helmetHeaders(opts.helmet);
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
