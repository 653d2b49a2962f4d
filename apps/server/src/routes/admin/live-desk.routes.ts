// The live desk (DESIGN §6): the server-sent events stream, its ticket, and presence heartbeats on an order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fastifySSE } from '@fastify/sse';
import {
  EventsQuery,
  EventsTicketResponse,
  LIVE_EVENTS_PATH,
  PresenceBody,
  PresenceParams,
  PresenceResponse,
} from '@eta/contracts';
import { requireSession, requireStaff } from '../../plugins/auth.js';
import type { StreamMessage, StreamSink } from '../../modules/events/live-desk.hub.js';

/** Whether the Accept header admits server-sent events: none, a wildcard or text/event-stream, not with q=0. */
const acceptsEventStream = (accept: string | undefined) =>
  !accept ||
  accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const refused = params.some((param) => /^q=0(\.0*)?$/.test(param));
    return !refused && ['text/event-stream', 'text/*', '*/*'].includes(type);
  });

/** One message in the event stream format (each field a line, then a blank line); the data is one line of JSON. */
function eventText({ id, event, data, retry }: StreamMessage): string {
  return (
    (id ? `id: ${id}\n` : '') +
    (event ? `event: ${event}\n` : '') +
    (data !== undefined ? `data: ${JSON.stringify(data)}\n` : '') +
    (retry ? `retry: ${retry}\n` : '') +
    '\n'
  );
}

/** A client that refuses the stream gets the API's envelope (the plugin's own 406 body is not). */
const notAcceptable = () =>
  Object.assign(new Error('This call answers only with server-sent events (Accept: text/event-stream).'), {
    statusCode: 406,
  });

/**
 * Bytes an event stream may have waiting to be sent before it is ended: a tab that stops reading without closing (a
 * frozen laptop, a stalled proxy) would otherwise hold every event from then on in memory, with two listeners each. Its
 * browser reconnects with Last-Event-ID and a fresh snapshot. A reading tab has a few hundred bytes waiting at most.
 */
export const SLOW_READER_BYTES = 1024 * 1024;

const liveDeskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { liveDesk } = app.services;
  // The hub sends one heartbeat for all streams; the plugin's own timer per stream is turned off.
  await app.register(fastifySSE);

  app.post(
    '/api/admin/events/ticket',
    { schema: { tags: ['live desk'], response: { 200: EventsTicketResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await liveDesk.issueTicket(requireSession(request.session)),
    }),
  );

  // Authenticated by ?ticket= (browsers) or Authorization (other clients): plugins/auth.ts, TICKET_ROUTES.
  app.get(
    LIVE_EVENTS_PATH,
    {
      sse: { kind: 'only', heartbeat: false },
      schema: { tags: ['live desk'], querystring: EventsQuery },
      preHandler: async (request) => {
        if (!acceptsEventStream(request.headers.accept)) throw notAcceptable();
      },
    },
    async (request, reply) => {
      const session = requireSession(request.session);
      const stream = reply.sse;
      const sink: StreamSink = {
        send: (message) => {
          // A write to a stream that went away is dropped; its close callback removes it from the hub.
          if (!stream.isConnected) return;
          if (reply.raw.writableLength > SLOW_READER_BYTES) {
            request.log.info(
              { waiting: reply.raw.writableLength },
              'live desk: a stream that stopped reading is ended',
            );
            stream.close();
            return;
          }
          // Written here rather than with the plugin's send, which adds a 'drain' and an 'error' listener to every
          // write the socket has to hold (eleven at once warned MaxListenersExceeded under the soak's load); the bound
          // above is this stream's backpressure.
          stream.sendHeaders();
          reply.raw.write(eventText(message));
        },
        comment: (text) => {
          if (stream.isConnected) reply.raw.write(`: ${text}\n\n`);
        },
        end: () => stream.close(),
      };
      const remove = await liveDesk.openStream(session, sink);
      stream.keepAlive();
      stream.sendHeaders();
      if (stream.isConnected) stream.onClose(remove);
      else remove();
    },
  );

  app.put(
    '/api/admin/orders/:orderId/presence',
    {
      schema: { tags: ['live desk'], params: PresenceParams, body: PresenceBody, response: { 200: PresenceResponse } },
    },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await liveDesk.setPresence(requireStaff(request.staff), request.params.orderId, request.body.activity),
    }),
  );
};

export default liveDeskRoutes;
