// Prometheus metrics (GET /metrics, prom-client): requests by route pattern and status, their latency, the database
// pool, the outbox and payment-check backlogs, webhooks' age, SSE clients, and Node's defaults (event-loop delay).
// Never open by default: on PORT it needs METRICS_TOKEN as a Bearer token; METRICS_PORT serves it on a listener of
// its own (METRICS_HOST, default 127.0.0.1), with the token too when one is set.
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/database.js';
import { selectBacklogs } from '../modules/metrics/metrics.repository.js';

export interface Metrics {
  registry: Registry;
  /**
   * Feeds the `eta_sse_clients` gauge: the live desk's streams call this once with a function that counts their
   * open streams (read at each scrape), e.g. `app.metrics.countSseClients(() => hub.clients)`.
   */
  countSseClients(count: () => number): void;
  /** The metrics as Prometheus text, after reading the database's backlogs. */
  scrape(): Promise<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Latency buckets in seconds: from a cached answer to a defence pack. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Compares hashes so neither the token's length nor its content leaks through timing. */
const sameToken = (presented: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(presented).digest(), createHash('sha256').update(expected).digest());

/** Whether a request may read the metrics: with a token configured, it must carry it as `Bearer <token>`. */
function isAuthorized(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match !== null && sameToken(match[1]!, token);
}

export default fp<{ database: DatabaseHandle }>(
  async (app, { database }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({
      name: 'eta_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status.',
      labelNames,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'eta_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent, by route pattern and status.',
      labelNames,
      buckets: BUCKETS,
      registers: [registry],
    });
    // Every request passes these two hooks: plain callbacks (no promise each) and a plain count, read at each scrape.
    let requestsInFlight = 0;
    new Gauge({
      name: 'eta_http_requests_in_flight',
      help: 'Requests received and not answered yet.',
      registers: [registry],
      collect() {
        this.set(requestsInFlight);
      },
    });
    app.addHook('onRequest', (_request, _reply, done) => {
      requestsInFlight += 1;
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      requestsInFlight -= 1;
      // The route pattern (/api/admin/get-orders-details/:orderId), never the URL: one series per route, not per order.
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
      done();
    });

    const poolStats = database.poolStats;
    if (poolStats) {
      new Gauge({
        name: 'eta_db_pool_connections',
        help: 'PostgreSQL pool connections, by state (total opened, idle).',
        labelNames: ['state'],
        registers: [registry],
        collect() {
          const stats = poolStats();
          this.set({ state: 'total' }, stats.total);
          this.set({ state: 'idle' }, stats.idle);
        },
      });
      new Gauge({
        name: 'eta_db_pool_waiting',
        help: 'Queries waiting for a pool connection (above 0 for long: the pool is too small for the load).',
        registers: [registry],
        collect() {
          this.set(poolStats().waiting);
        },
      });
    }

    let countSseClients = () => 0;
    new Gauge({
      name: 'eta_sse_clients',
      help: 'Open live-desk event streams (GET /api/admin/events) on this server.',
      registers: [registry],
      collect() {
        this.set(countSseClients());
      },
    });

    const databaseUp = new Gauge({
      name: 'eta_database_up',
      help: '1 when the last scrape could read the database, else 0 (the backlog gauges then keep old values).',
      registers: [registry],
    });
    const outboxQueued = new Gauge({
      name: 'eta_outbox_queued',
      help: 'Mails in the outbox waiting to be sent (first attempt or a retry).',
      registers: [registry],
    });
    const outboxOldest = new Gauge({
      name: 'eta_outbox_oldest_seconds',
      help: 'Age of the oldest mail waiting in the outbox (0 when none waits).',
      registers: [registry],
    });
    // Webhooks are applied in the request that brings them (no received-but-unapplied state), so their lag shows as
    // overdue payment re-checks (a confirmation the desk is still waiting to apply) and as each gateway's silence.
    const paymentCheckLag = new Gauge({
      name: 'eta_payment_check_lag_seconds',
      help: 'How far behind the oldest due payment re-check is (0 when none is due).',
      registers: [registry],
    });
    const lastWebhook = new Gauge({
      name: 'eta_webhook_last_received_seconds',
      help: "Seconds since each gateway's last webhook.",
      labelNames: ['gateway'],
      registers: [registry],
    });

    const scrape = async (): Promise<string> => {
      try {
        const backlogs = await selectBacklogs(database.db);
        outboxQueued.set(backlogs.outboxQueued);
        outboxOldest.set(backlogs.outboxOldestSeconds ?? 0);
        paymentCheckLag.set(backlogs.paymentCheckLagSeconds ?? 0);
        lastWebhook.reset();
        for (const w of backlogs.lastWebhookSeconds) lastWebhook.set({ gateway: w.gateway }, w.seconds);
        databaseUp.set(1);
      } catch (err) {
        app.log.warn({ err }, 'metrics: the database could not be read');
        databaseUp.set(0);
      }
      return registry.metrics();
    };

    app.decorate('metrics', {
      registry,
      countSseClients: (count: () => number) => {
        countSseClients = count;
      },
      scrape,
    } satisfies Metrics);

    const token = app.config.metricsToken;
    app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
      // Without a token the metrics stay off this port: it is the one the internet reaches through the balancer.
      if (token === undefined) {
        return reply.code(404).send({ status: 0, message: 'Metrics are not served on this port (see METRICS_TOKEN).' });
      }
      if (!isAuthorized(request.headers.authorization, token)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer')
          .send({ status: 0, message: 'Metrics token needed.' });
      }
      return reply.type(registry.contentType).send(await scrape());
    });

    const port = app.config.metricsPort;
    if (port !== undefined) {
      const server = http.createServer((req, res) => {
        if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
          res.writeHead(404).end();
        } else if (!isAuthorized(req.headers.authorization, token)) {
          res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        } else {
          void scrape().then((text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text));
        }
      });
      // Opened with the application's own port, so a test that only injects requests opens nothing.
      app.addHook('onListen', async () => {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, app.config.metricsHost, () => resolve());
        });
        app.log.info({ port, host: app.config.metricsHost }, 'metrics listening');
      });
      app.addHook('onClose', async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      });
    }
  },
  { name: 'metrics' },
);
