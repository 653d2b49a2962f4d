// The HTTP server behind Fastify (its serverFactory), whose close() drains instead of cutting: it stops accepting at
// once, lets every connection already accepted deliver its request and get its answer, closes connections left idle,
// and cuts whatever is still open after the timeout. Fastify calls close() after its preClose hooks (the live desk
// ends its streams there) and runs its onClose hooks (workers, event bus) only once this has finished.
import http from 'node:http';
import net from 'node:net';
import type { FastifyServerFactory } from 'fastify';

/** How often a draining server closes connections that carry no request (keep-alive ones, silent ones). */
const SWEEP_MS = 500;
/** Loop turns a closing server waits at most for one that accepts no new connection. */
const QUIET_TURNS = 20;

export function drainingServerFactory(timeoutMs: number): FastifyServerFactory {
  return (handler, options) => {
    // Answers not sent yet: once closing begins, each says `Connection: close`, so a client does not send its next
    // request down a connection that is about to go (it opens a new one, to another server).
    const unanswered = new Set<http.ServerResponse>();
    let draining = false;
    let accepted = 0;
    const server = http.createServer((req, res) => {
      if (draining) res.setHeader('connection', 'close');
      else {
        unanswered.add(res);
        res.once('close', () => unanswered.delete(res));
      }
      handler(req, res);
    });
    server.on('connection', () => (accepted += 1));
    // What Fastify sets on a server of its own making.
    const opts = options as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number };
    server.keepAliveTimeout = opts.keepAliveTimeout ?? 72_000;
    server.requestTimeout = opts.requestTimeout ?? 0;
    server.setTimeout(opts.connectionTimeout ?? 0);

    let closed: Promise<Error | undefined> | null = null;
    server.close = (callback?: (err?: Error) => void) => {
      closed ??= new Promise((resolve) => {
        draining = true;
        for (const res of unanswered) if (!res.headersSent) res.setHeader('connection', 'close');
        unanswered.clear();
        // net.Server's close, not http.Server's: the latter first cuts every connection without a request in
        // progress, which includes connections accepted a moment ago whose request is still in the socket buffer
        // (14 of 20 requests in flight were lost that way, issue 23). net's close stops accepting and calls back
        // once every connection has ended.
        // From the check phase, after the loop's poll: a request already in a socket's buffer has been read by then,
        // so its connection no longer counts as idle (from a timer it could still, and would be cut).
        const sweep = setInterval(() => setImmediate(() => server.closeIdleConnections()), SWEEP_MS);
        const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
        const stopListening = () =>
          net.Server.prototype.close.call(server, (err?: Error) => {
            clearInterval(sweep);
            clearTimeout(deadline);
            resolve(err);
          });
        // The listener closes only after a poll of the event loop that accepted nothing new (at most QUIET_TURNS
        // tries): connections the kernel has already completed (a busy loop may not have accepted them yet) carry
        // requests already sent, and closing the listener would reset them. An immediate queued from an immediate
        // runs in the next loop iteration, after its poll phase.
        const closeWhenQuiet = (turnsLeft: number) => {
          const before = accepted;
          setImmediate(() =>
            setImmediate(() =>
              accepted !== before && turnsLeft > 0 ? closeWhenQuiet(turnsLeft - 1) : stopListening(),
            ),
          );
        };
        closeWhenQuiet(QUIET_TURNS);
      });
      void closed.then((err) => callback?.(err));
      return server;
    };
    return server;
  };
}
