// Every read of personal data on the record (issue 24): a staff call named in RECORDED_READS that was answered with
// success writes one access record per order it opened (who, what, when, from where) through the batched writer,
// after the answer has gone; the writer writes what it holds when the app closes. The hooks are the recorded routes'
// own, so no other request runs them (docs/PERFORMANCE.md, run 21).
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onResponseHookHandler } from 'fastify';
import { readerOf, type AccessRecordWriter } from '../modules/access-records/access-record-writer.js';
import { RECORDED_READS } from '../modules/access-records/recorded-reads.js';

const kReadFrom = Symbol('readFrom');

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The orders a recorded answer opened, when only its handler knows them (a subject-access export: every order of
     * one e-mail address); RECORDED_READS turns them into one record each.
     */
    readOrders: readonly string[] | null;
    [kReadFrom]: string | null;
  }
}

/**
 * The address of a client that was gone before its recorded route's first hook: none can be read from a closed
 * connection (its answer then went nowhere, but the read was made and is recorded).
 */
const UNKNOWN_ADDRESS = 'unknown';

/**
 * The client's address as the request begins. Read again after the answer, it would be gone with a connection the
 * client had closed meanwhile (the answer sent, or sent into a closed socket), and a record without one is refused by
 * the table: its whole batch with it, every second, while reads piled up behind it.
 */
function rememberAddress(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  request[kReadFrom] = request.ip ?? null;
  done();
}

/** A route-level hook as a list, whatever form the route gave it in. */
const hooksOf = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

export default fp<{ writer: AccessRecordWriter }>(
  async (app, { writer }) => {
    app.decorateRequest('readOrders', null);
    app.decorateRequest(kReadFrom, null);
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        const describe = RECORDED_READS[`${method} ${route.url}`];
        if (!describe) continue;
        const record: onResponseHookHandler = (request, reply, done) => {
          if (request.method === method && request.staff && reply.statusCode < 300) {
            const reader = readerOf(request.staff, {
              ip: request[kReadFrom] ?? request.ip ?? UNKNOWN_ADDRESS,
              headers: request.headers,
            });
            const reads = describe(request);
            for (const read of Array.isArray(reads) ? reads : [reads]) writer.record(reader, read);
          }
          done();
        };
        route.onRequest = [...hooksOf(route.onRequest), rememberAddress];
        route.onResponse = [...hooksOf(route.onResponse), record];
      }
    });
    // After the server has drained (the last answers' reads are queued), before the database closes (server.ts).
    app.addHook('onClose', () => writer.close());
  },
  { name: 'access-records' },
);
