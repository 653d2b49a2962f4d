// The HTTP server behind Fastify (its serverFactory), whose close() drains instead of cutting: it lets every
// connection already accepted deliver its request and get its answer, turns reads away so that a load balancer stops
// sending, stops accepting once connections have stopped coming, ends connections left idle, and cuts whatever is
// still open after the timeout. Fastify calls close() after its preClose hooks (the live desk ends its streams there)
// and runs its onClose hooks (workers, event bus) only once this has finished.
//
// Why not simply stop listening at once: closing a listening socket resets the connections the kernel has completed
// and the process has not accepted yet, and each of them carries a request already sent. nginx cannot pass a POST on
// after a reset (a write may have happened), so a write was lost whenever the listener closed on a full queue. That
// happened in CI when the stopping server's process was descheduled for a few tens of milliseconds under load: its
// sixteen callers all queued there meanwhile, and all were reset (issue 23). So a draining server first makes the
// balancer stop choosing it, and closes its listener only once nothing has arrived for QUIET_MS:
// - a GET or HEAD that reaches it is answered 503 SERVER_RESTARTING, untouched: nginx passes it on to another server
//   (proxy_next_upstream http_503) and counts a failure, and after max_fails of them (deploy/nginx.conf) sends this
//   server nothing more; every other request (a write) is served as usual, with `Connection: close`;
// - when only writes come for QUIET_CAP_MS, the listener closes anyway: that last moment keeps the race, now narrow.
import http from 'node:http';
import net from 'node:net';
import type { FastifyServerFactory } from 'fastify';
import type { ErrorCode } from '@eta/contracts';

/** How often a draining server looks for connections to end and for a quiet moment to stop listening. */
const SWEEP_MS = 100;
/** A connection that carries no request and has received nothing for this long is ended while draining. */
const IDLE_MS = 500;
/** The listener closes once no connection has been accepted for this long... */
const QUIET_MS = 250;
/** ...or this long after closing began, whichever is first. */
const QUIET_CAP_MS = 3_000;

const RESTARTING: { status: 0; code: ErrorCode; message: string } = {
  status: 0,
  code: 'SERVER_RESTARTING',
  message: 'This server is restarting. Please try again in a moment.',
};

/** What a draining server knows of one connection, to tell an idle one from one about to carry a request. */
interface Connection {
  /** Requests received and not yet answered. */
  busy: number;
  /** When it last finished an answer, was accepted, or received bytes (whichever is latest). */
  idleSince: number;
  bytesRead: number;
}

export function drainingServerFactory(timeoutMs: number): FastifyServerFactory {
  return (handler, options) => {
    // Answers not sent yet: once closing begins, each says `Connection: close`, so a client does not send its next
    // request down a connection that is about to go (it opens a new one, to another server).
    const unanswered = new Set<http.ServerResponse>();
    const connections = new Map<net.Socket, Connection>();
    let draining = false;
    let lastAccepted = 0;
    const server = http.createServer((req, res) => {
      const connection = connections.get(req.socket);
      if (connection) {
        connection.busy += 1;
        res.once('close', () => {
          connection.busy -= 1;
          connection.idleSince = Date.now();
        });
      }
      if (!draining) {
        unanswered.add(res);
        res.once('close', () => unanswered.delete(res));
        handler(req, res);
        return;
      }
      res.setHeader('connection', 'close');
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        handler(req, res);
        return;
      }
      const body = JSON.stringify(RESTARTING);
      res.writeHead(503, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'retry-after': '1',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
    server.on('connection', (socket: net.Socket) => {
      lastAccepted = Date.now();
      connections.set(socket, { busy: 0, idleSince: lastAccepted, bytesRead: 0 });
      socket.once('close', () => connections.delete(socket));
    });
    // What Fastify sets on a server of its own making.
    const opts = options as { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number };
    server.keepAliveTimeout = opts.keepAliveTimeout ?? 72_000;
    server.requestTimeout = opts.requestTimeout ?? 0;
    server.setTimeout(opts.connectionTimeout ?? 0);

    /**
     * Ends the connections that carry no request and have received nothing for IDLE_MS: a keep-alive one from before
     * the drain, a silent one. Not http.Server's closeIdleConnections, which also ends a connection accepted a moment
     * ago whose request is still on its way (the client's write can come a little after its connect).
     */
    const endIdle = (now: number) => {
      for (const [socket, connection] of connections) {
        if (socket.bytesRead !== connection.bytesRead) {
          connection.bytesRead = socket.bytesRead;
          connection.idleSince = now;
        } else if (connection.busy === 0 && now - connection.idleSince >= IDLE_MS) {
          socket.destroy();
        }
      }
    };

    let closed: Promise<Error | undefined> | null = null;
    server.close = (callback?: (err?: Error) => void) => {
      closed ??= new Promise((resolve) => {
        draining = true;
        const began = Date.now();
        for (const res of unanswered) if (!res.headersSent) res.setHeader('connection', 'close');
        unanswered.clear();
        let listening = true;
        const stopListening = () => {
          if (!listening) return;
          listening = false;
          // net.Server's close, not http.Server's: the latter first cuts every connection without a request in
          // progress. net's close stops accepting and calls back once every connection has ended.
          net.Server.prototype.close.call(server, (err?: Error) => {
            clearInterval(sweep);
            clearTimeout(deadline);
            resolve(err);
          });
        };
        const sweep = setInterval(() => {
          const now = Date.now();
          endIdle(now);
          if (now - lastAccepted >= QUIET_MS || now - began >= QUIET_CAP_MS) stopListening();
        }, SWEEP_MS);
        // At the deadline nothing more is accepted either, whatever still comes.
        const deadline = setTimeout(() => {
          stopListening();
          server.closeAllConnections();
        }, timeoutMs);
      });
      void closed.then((err) => callback?.(err));
      return server;
    };
    return server;
  };
}
