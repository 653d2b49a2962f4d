// Each request's statements run in a scope of its own (db/statement-budget.ts) that knows whether its client is still
// there: when the client goes away before the answer is sent, the statement then running is cancelled on the server
// and no other starts, instead of going on for seconds for nobody (issue 31).
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { ClientPresence, withRequestClient } from '../db/statement-budget.js';

const clients = new WeakMap<FastifyRequest, ClientPresence>();

export default fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      const client = new ClientPresence();
      // 'close' comes after 'finish' when the answer was sent; before it, the connection was closed under it.
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) client.left();
      });
      clients.set(request, client);
      withRequestClient(client, done);
    });
    // The body is read in the socket's own async context, so the route is brought back into the request's.
    app.addHook('preValidation', (request, _reply, done) => {
      const client = clients.get(request);
      if (client) withRequestClient(client, done);
      else done();
    });
  },
  { name: 'request-statements' },
);
