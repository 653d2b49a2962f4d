// Each request's statements run in a scope of its own (db/statement-budget.ts) that knows whether its client is still
// there: when the client goes away before the answer is sent, the statement then running is cancelled on the server
// and no other starts, instead of going on for seconds for nobody (issue 31).
import fp from 'fastify-plugin';
import type { ServerResponse } from 'node:http';
import { ClientPresence, inStatementScope, requestScope, type StatementScope } from '../db/statement-budget.js';

const kScope = Symbol('statementScope');
const kPresence = Symbol('clientPresence');

declare module 'fastify' {
  interface FastifyRequest {
    [kScope]: StatementScope | null;
  }
}

type WatchedResponse = ServerResponse & { [kPresence]?: ClientPresence };

/** 'close' comes after 'finish' when the answer was sent; before it, the connection was closed under it. */
function onResponseClose(this: WatchedResponse): void {
  if (!this.writableFinished) this[kPresence]?.left();
}

export default fp(
  async (app) => {
    app.decorateRequest(kScope, null);
    // Plain callback hooks, one listener shared by every response and one scope object per request: this runs for
    // every request, and each promise or allocation here is paid on all of them (docs/PERFORMANCE.md, run 21).
    app.addHook('onRequest', (request, reply, done) => {
      const client = new ClientPresence();
      const response = reply.raw as WatchedResponse;
      response[kPresence] = client;
      response.on('close', onResponseClose);
      const scope = requestScope(client);
      request[kScope] = scope;
      inStatementScope(scope, done);
    });
    // A body is read in the socket's own async context, so the route is brought back into the request's (a request
    // without one is still in it, and this only calls done).
    app.addHook('preValidation', (request, _reply, done) => {
      const scope = request[kScope];
      if (scope) inStatementScope(scope, done);
      else done();
    });
  },
  { name: 'request-statements' },
);
