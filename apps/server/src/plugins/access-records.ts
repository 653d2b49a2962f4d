// Every read of personal data on the record (issue 24): a staff call named in RECORDED_READS that was answered with
// success writes one access record per order it opened (who, what, when, from where) through the batched writer,
// after the answer has gone; the writer writes what it holds when the app closes.
import fp from 'fastify-plugin';
import { readerOf, type AccessRecordWriter } from '../modules/access-records/access-record-writer.js';
import { RECORDED_READS } from '../modules/access-records/recorded-reads.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The orders a recorded answer opened, when only its handler knows them (a subject-access export: every order of
     * one e-mail address); RECORDED_READS turns them into one record each.
     */
    readOrders: readonly string[] | null;
  }
}

export default fp<{ writer: AccessRecordWriter }>(
  async (app, { writer }) => {
    app.decorateRequest('readOrders', null);
    app.addHook('onResponse', async (request, reply) => {
      if (!request.staff || reply.statusCode >= 300) return;
      const describe = RECORDED_READS[`${request.method} ${request.routeOptions.url}`];
      if (!describe) return;
      const reader = readerOf(request.staff, request);
      const reads = describe(request);
      for (const read of Array.isArray(reads) ? reads : [reads]) writer.record(reader, read);
    });
    // After the server has drained (the last answers' reads are queued), before the database closes (server.ts).
    app.addHook('onClose', () => writer.close());
  },
  { name: 'access-records' },
);
