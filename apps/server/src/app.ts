// The whole application as one Fastify plugin-tree; server.ts listens, tests build exactly this.
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { pino } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { Config } from './lib/config.js';
import type { DB } from './db/schema.js';
import type { DatabaseHandle } from './db/database.js';
import type { DocumentStore } from './lib/storage/document-store.js';
import { openDocumentStore } from './lib/storage/open-document-store.js';
import { EncryptedDocumentStore } from './lib/storage/encrypted-document-store.js';
import type { Keyring } from './lib/crypto/keyring.js';
import { configuredMasterKeys, openKeyring } from './modules/personal-data/data-keys.js';
import { OrderFieldsCipher } from './modules/personal-data/order-fields.js';
import { openCounters } from './lib/limits/postgres-counters.js';
import type { EventBus } from './modules/events/event-bus.js';
import { openEventBus } from './modules/events/open-event-bus.js';
import { OrderEventsPublisher } from './modules/events/order-events.publisher.js';
import { EventTickets } from './modules/events/event-tickets.js';
import { LiveDeskHub, type LiveDeskOptions } from './modules/events/live-desk.hub.js';
import { LiveDeskService } from './modules/events/live-desk.service.js';
import errorsPlugin, { clientErrorHandler, frameworkErrors } from './plugins/errors.js';
import requestStatementsPlugin from './plugins/request-statements.js';
import inputPlugin from './plugins/input.js';
import securityHeaders from './plugins/security-headers.js';
import authPlugin from './plugins/auth.js';
import mailWorkerPlugin from './plugins/mail-worker.js';
import metricsPlugin from './plugins/metrics.js';
import { drainingServerFactory } from './lib/draining-server.js';
import { AuthService } from './modules/auth/auth.service.js';
import { PasskeyService } from './modules/auth/passkey.service.js';
import { SsoService } from './modules/auth/sso.service.js';
import { SecondFactorService } from './modules/auth/second-factor.service.js';
import { StaffSecurityService } from './modules/auth/staff-security.service.js';
import { WorkerPool, type WorkerLimits } from './lib/workers/worker-pool.js';
import { LoginThrottle } from './modules/auth/login-throttle.js';
import { TokenService } from './modules/auth/tokens.js';
import { LandingSitesService } from './modules/landing-sites/landing-sites.service.js';
import { OrderMovesService } from './modules/orders/order-moves.service.js';
import { OrderQueriesService, SEARCH_LIMITS } from './modules/orders/order-queries.service.js';
import { QueueSettingsService } from './modules/orders/queue-settings.service.js';
import { OrderDetailService } from './modules/order-detail/order-detail.service.js';
import { DocumentsService } from './modules/documents/documents.service.js';
import { mailClaimant, MailService } from './modules/mail/mail.service.js';
import type { MailTransports } from './modules/mail/mail-transport.js';
import { OrderMailsService } from './modules/mail/order-mails.service.js';
import { DefencePackService } from './modules/defence-pack/defence-pack.service.js';
import { InvoicesService } from './modules/invoices/invoices.service.js';
import { PortalService } from './modules/portal/portal.service.js';
import { TrackThrottle } from './modules/portal/track-throttle.js';
import { TrackingProofs } from './modules/portal/tracking-proofs.js';
import { DEFAULT_GEOIP_DB, openGeoLocator } from './lib/geo-location.js';
import { TeamService } from './modules/team/team.service.js';
import { GatewaysService } from './modules/gateways/gateways.service.js';
import { ReportsService } from './modules/reports/reports.service.js';
import { ActivityService } from './modules/activity/activity.service.js';
import { AccessRecordWriter } from './modules/access-records/access-record-writer.js';
import { AccessRecordsService } from './modules/access-records/access-records.service.js';
import accessRecordsPlugin from './plugins/access-records.js';
import accessRecordsRoutes from './routes/admin/access-records.routes.js';
import { IntakeService } from './modules/intake/intake.service.js';
import healthRoutes from './routes/health.routes.js';
import authRoutes from './routes/admin/auth.routes.js';
import staffSecurityRoutes from './routes/admin/staff-security.routes.js';
import ordersRoutes from './routes/admin/orders.routes.js';
import orderDetailRoutes from './routes/admin/order-detail.routes.js';
import documentsRoutes from './routes/admin/documents.routes.js';
import mailRoutes from './routes/admin/mail.routes.js';
import defencePackRoutes from './routes/admin/defence-pack.routes.js';
import invoicesRoutes from './routes/admin/invoices.routes.js';
import teamRoutes from './routes/admin/team.routes.js';
import gatewaysRoutes from './routes/admin/gateways.routes.js';
import reportsRoutes from './routes/admin/reports.routes.js';
import activityRoutes from './routes/admin/activity.routes.js';
import landingSitesRoutes from './routes/front/landing-sites.routes.js';
import trackOrderRoutes from './routes/front/track-order.routes.js';
import { isPortalPath } from '@eta/contracts';
import activeGatewayRoutes from './routes/front/active-gateway.routes.js';
import intakeRoutes from './routes/intake/orders.routes.js';
import landingSiteAdminRoutes from './routes/admin/landing-sites.routes.js';
import housekeepingPlugin from './plugins/housekeeping.js';
import disputesRoutes from './routes/admin/disputes.routes.js';
import webhooksRoutes from './routes/webhooks/webhooks.routes.js';
import liveDeskRoutes from './routes/admin/live-desk.routes.js';
import { openPaymentGateways, type PaymentGateways } from './modules/payments/gateways.js';
import { PaymentsService } from './modules/payments/payments.service.js';
import { WebhooksService } from './modules/payments/webhooks.service.js';
import { DisputesService } from './modules/payments/disputes.service.js';
import { OrderErasure } from './modules/retention/erasure.js';
import { RetentionService } from './modules/retention/retention.service.js';
import { SubjectRequestsService } from './modules/subject-requests/subject-requests.service.js';
import retentionRoutes from './routes/admin/retention.routes.js';
import subjectRequestsRoutes from './routes/admin/subject-requests.routes.js';

export interface Services {
  auth: AuthService;
  orderQueries: OrderQueriesService;
  queueSettings: QueueSettingsService;
  orderMoves: OrderMovesService;
  orderDetail: OrderDetailService;
  mail: MailService;
  orderMails: OrderMailsService;
  documents: DocumentsService;
  defencePack: DefencePackService;
  invoices: InvoicesService;
  landingSites: LandingSitesService;
  portal: PortalService;
  team: TeamService;
  staffSecurity: StaffSecurityService;
  sso: SsoService;
  gateways: GatewaysService;
  reports: ReportsService;
  activity: ActivityService;
  accessRecords: AccessRecordsService;
  intake: IntakeService;
  payments: PaymentsService;
  webhooks: WebhooksService;
  disputes: DisputesService;
  liveDesk: LiveDeskService;
  retention: RetentionService;
  subjectRequests: SubjectRequestsService;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Kysely<DB>;
    dbKind: DatabaseHandle['kind'];
    services: Services;
    /** Events between this desk's processes (staff changes, order changes, presence). */
    eventBus: EventBus;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  jwtSecret: string;
  logger?: FastifyServerOptions['logger'];
  /** Where documents live; by default the local directory DATA_DIR/documents. */
  documentStore?: DocumentStore;
  /** The data keys of personal data (issue 24); by default unwrapped now with DATA_KEY (a wrong key throws). */
  keyring?: Keyring;
  /** Mail providers by name; by default the ones configured (AWS SES, SendGrid). */
  mailTransports?: MailTransports;
  /** Payment gateways; by default the ones configured (Stripe, PayPal, Authorize.Net). */
  paymentGateways?: PaymentGateways;
  /** Events between processes; by default LISTEN/NOTIFY on PostgreSQL, in-process on the embedded database. */
  eventBus?: EventBus;
  /** The live desk's timings (tests shorten them); by default a 15 s heartbeat and counts at most every 500 ms. */
  liveDesk?: Pick<LiveDeskOptions, 'heartbeatMs' | 'coalesceMs' | 'maxStreamsPerStaff'>;
  /** The caps of work kept off the event loop (defence packs, PDF checks); by default DEFAULT_WORKER_LIMITS. */
  workerLimits?: WorkerLimits;
}

/** One log line per request when it is answered, instead of Fastify's two (incoming and completed). */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    request.log.info(
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  }
}

/** Google's widget loads its parts from two more hosts than its script's own. */
function translateWidgetOrigins(widgetUrl: string | undefined): string[] {
  if (!widgetUrl) return [];
  const origin = new URL(widgetUrl).origin;
  return origin === 'https://translate.google.com'
    ? [origin, 'https://translate.googleapis.com', 'https://translate-pa.googleapis.com']
    : [origin];
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  // The production log is written off the request path (SonicBoom asynchronous writes, no batching delay) and says
  // one line per request instead of Fastify's two.
  const logDestination = opts.logger === undefined ? pino.destination({ dest: 1, sync: false }) : undefined;
  const app = Fastify({
    ...(logDestination
      ? {
          loggerInstance: pino(
            {
              level: config.logLevel,
              redact: {
                // Provider credentials never reach the log, not even inside an SDK's error or a dumped config.
                paths: [
                  'req.headers.authorization',
                  'req.headers.cookie',
                  '*.password',
                  '*.newPassword',
                  '*.apiKey',
                  '*.secretAccessKey',
                  '*.sessionToken',
                  '*.headers.Authorization',
                  '*.headers.authorization',
                  '*.config.headers.Authorization',
                ],
                censor: '[redacted]',
              },
            },
            logDestination,
          ) as FastifyBaseLogger,
        }
      : { logger: opts.logger }),
    logController: new OneLineRequestLog(),
    // With TRUST_PROXY the client address is taken from X-Forwarded-For (sign-in limits, audit rows).
    trustProxy: config.trustProxy,
    // Closing drains (lib/draining-server.ts): requests already sent are answered, with `Connection: close`, instead
    // of Fastify's 503 or a cut connection; the balancer sends new ones to another server.
    serverFactory: drainingServerFactory(config.shutdownTimeoutMs),
    forceCloseConnections: false,
    return503OnClosing: false,
    bodyLimit: 1024 * 1024,
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // The composition root: every service is built here from its repositories' database and its clients.
  // Personal data (issue 24): every data key is unwrapped before anything is served, so a wrong DATA_KEY stops the
  // start here. Approved documents and signatures are encrypted on their way into the store; invoices are not.
  const keyring = opts.keyring ?? (await openKeyring(database.db, await configuredMasterKeys(config)));
  const personalFields = new OrderFieldsCipher(keyring);
  const plainStore = opts.documentStore ?? (await openDocumentStore(config));
  const documentStore = new EncryptedDocumentStore(plainStore, keyring);
  // A provider's SDK is loaded only when that provider is configured.
  const mailTransports: MailTransports = opts.mailTransports ?? {
    ...(config.mail.aws
      ? { AWS: new (await import('./modules/mail/aws-ses.transport.js')).AwsSesTransport(config.mail.aws) }
      : {}),
    ...(config.mail.sendgrid
      ? { Sendgrid: new (await import('./modules/mail/sendgrid.transport.js')).SendGridTransport(config.mail.sendgrid) }
      : {}),
  };
  const throttle = new LoginThrottle(
    {
      perAccountAndAddress: config.loginFailuresPerAccount,
      perAccount: config.loginFailuresPerAccountHourly,
      perAddress: config.loginLimitPerIp,
    },
    Date.now,
    openCounters(database, 'login'),
  );
  const eventBus =
    opts.eventBus ?? (await openEventBus(database, (err) => app.log.warn({ err }, 'event bus: listening interrupted')));
  app.addHook('onClose', () => eventBus.close());
  // After a break (a database restart): caches drop what they may have missed, the live desk sends fresh counts.
  eventBus.onResume(() => app.log.info('event bus: listening again'));
  app.decorate('eventBus', eventBus);
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('dbKind', database.kind);
  const paymentGateways = opts.paymentGateways ?? (await openPaymentGateways(config.payments));
  // Services tell the live desk about order writes through this one publisher, never through its streams.
  const orderEvents = new OrderEventsPublisher(
    eventBus,
    database.db,
    (err) => app.log.warn({ err }, 'live desk: an order change was not published'),
    () => orderQueries.forgetTimingCounts(),
  );
  const payments = new PaymentsService(
    database.db,
    paymentGateways,
    app.log.child({ module: 'payments' }),
    orderEvents,
  );
  const orderMoves = new OrderMovesService(database.db, payments, orderEvents);
  const orderQueries = new OrderQueriesService(database.db, personalFields, SEARCH_LIMITS, config.urgentTravelHours);
  // Changes on other servers (this one's are forgotten at once by orderEvents), subscribed before the live desk is: its
  // counts after an order change must not be the urgent counts kept from before.
  eventBus.subscribe('eta_orders', () => orderQueries.forgetTimingCounts());
  eventBus.onResume(() => orderQueries.forgetTimingCounts());
  const liveDesk = new LiveDeskService(
    database.db,
    new EventTickets(database.db, opts.jwtSecret),
    new LiveDeskHub(eventBus, {
      ...opts.liveDesk,
      countsFor: (staff) => orderQueries.folderCounts(staff),
      onError: (err) => app.log.warn({ err }, 'live desk: an event was not delivered'),
    }),
  );
  // Before the server waits for connections to drain: open streams would hold it until the drain's limit.
  app.addHook('preClose', (done) => {
    liveDesk.close();
    done();
  });
  const workers = new WorkerPool(opts.workerLimits);
  app.addHook('onClose', () => workers.close());
  const defencePack = new DefencePackService(database.db, documentStore, workers);
  // Retention and customers' erasure requests share one erasure (issue 24).
  const erasure = new OrderErasure(database.db, documentStore, orderEvents);
  const retention = new RetentionService(
    database.db,
    erasure,
    app.log.child({ module: 'retention' }),
    config.retention,
  );
  app.addHook('onClose', () => retention.close());
  const mail = new MailService(
    database.db,
    {
      ...config.mail,
      publicUrl: config.publicUrl,
      claimant: mailClaimant({ embedded: database.kind === 'pglite', host: os.hostname(), port: config.port }),
    },
    mailTransports,
    documentStore,
    app.log.child({ module: 'mail' }),
  );
  const intake = new IntakeService(
    database.db,
    documentStore,
    mail,
    payments,
    orderEvents,
    personalFields,
    { ordersPerSecond: config.intakeRatePerSecond, failuresPerAddress: config.intakeFailuresPerIp },
    app.log.child({ module: 'intake' }),
    openCounters(database, 'intake'),
  );
  eventBus.subscribe('eta_intake_keys', () => intake.forgetKeys());
  // Reads of personal data (issue 24), written in batches; the access-records plugin writes what is queued on close.
  const accessRecordWriter = new AccessRecordWriter(database.db, {
    onError: (err, message) => app.log.warn({ err }, message),
  });
  const accessRecords = new AccessRecordsService(database.db, accessRecordWriter);
  const orderDetail = new OrderDetailService(
    database.db,
    orderMoves,
    orderEvents,
    personalFields,
    config.urgentTravelHours,
  );
  const auth = new AuthService(
    database.db,
    new TokenService(opts.jwtSecret, config.jwtExpiresIn),
    throttle,
    new SecondFactorService(database.db, keyring, config.staffMfaRoles, config.sso),
    new PasskeyService(database.db, config.publicUrl),
    eventBus,
  );
  const geo = () =>
    openGeoLocator(config.geoipDb ?? DEFAULT_GEOIP_DB, (err) =>
      app.log.warn({ err }, 'location database unreadable: locations will be Unknown'),
    );
  app.decorate('services', {
    auth,
    orderQueries,
    queueSettings: new QueueSettingsService(database.db, config.urgentTravelHours, () =>
      orderQueries.forgetTimingCounts(),
    ),
    orderMoves,
    orderDetail,
    mail,
    orderMails: new OrderMailsService(database.db, mail, orderEvents),
    documents: new DocumentsService(
      database.db,
      documentStore,
      mail,
      workers,
      app.log.child({ module: 'documents' }),
      orderEvents,
      personalFields,
    ),
    defencePack,
    invoices: new InvoicesService(database.db, plainStore, mail, orderEvents),
    landingSites: new LandingSitesService(
      database.db,
      plainStore,
      app.log.child({ module: 'landing-sites' }),
      config.translateWidgetUrl ?? null,
      (site) => {
        intake.forgetKeys(); // here at once; the event reaches the other processes
        return eventBus.publish('eta_intake_keys', site);
      },
    ),
    portal: new PortalService(
      database.db,
      documentStore,
      new TrackingProofs(opts.jwtSecret),
      new TrackThrottle(
        { perAddress: config.trackLimitPerIp, perOrder: config.trackLimitPerOrder },
        Date.now,
        openCounters(database, 'track'),
      ),
      geo,
      orderEvents,
    ),
    team: new TeamService(database.db, auth),
    staffSecurity: new StaffSecurityService(database.db, auth, geo),
    sso: new SsoService(database.db, config.sso, config.publicUrl),
    gateways: new GatewaysService(database.db, paymentGateways),
    reports: new ReportsService(database.db),
    activity: new ActivityService(database.db, accessRecords),
    accessRecords,
    intake,
    payments,
    webhooks: new WebhooksService(database.db, paymentGateways, app.log.child({ module: 'webhooks' }), orderEvents),
    disputes: new DisputesService(database.db, paymentGateways, defencePack, config.publicUrl),
    liveDesk,
    retention,
    subjectRequests: new SubjectRequestsService(database.db, orderDetail, erasure, workers, keyring),
  } satisfies Services);

  // The translation widget (portal) may load its scripts only from where the operator configured it.
  const translateHosts = translateWidgetOrigins(config.translateWidgetUrl);
  await app.register(securityHeaders, {
    // The landing sites' logos (web/public/brand): public images the mails embed, read in any mail client.
    crossOriginPaths: ['/brand/'],
    helmet: {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...translateHosts],
          styleSrc: ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com', 'https://www.gstatic.com'],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          fontSrc: ["'self'", 'data:', 'https://fonts.gstatic.com'],
          connectSrc: ["'self'", ...translateHosts],
          frameSrc: ["'self'", 'blob:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'self'"],
        },
      },
    },
  });
  if (logDestination) app.addHook('onClose', (_app, done) => logDestination.flush(() => done()));
  await app.register(errorsPlugin);
  // Before any hook that reads the database (the permission guard's staff row), so every statement of a request is
  // cancelled when its client goes away.
  await app.register(requestStatementsPlugin);
  await app.register(metricsPlugin, { database });
  app.metrics.countSseClients(() => liveDesk.clients);
  await app.register(inputPlugin);
  // Before any route (the API documentation's too), so every /api route passes its permission check.
  await app.register(authPlugin);
  await app.register(accessRecordsPlugin, { writer: accessRecordWriter });
  // Signed-in answers carry personal data: no browser or proxy may keep them unless a route says otherwise. A plain
  // callback, as every answer passes here.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'eTA Desk API', version: '1.0.0', description: 'Back-office console and public tracking portal.' },
      components: {
        securitySchemes: {
          staffToken: { type: 'apiKey', in: 'header', name: 'Authorization' },
          intakeKey: { type: 'http', scheme: 'bearer', description: "A landing site's intake key (etak_…)." },
        },
      },
      security: [{ staffToken: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(healthRoutes, { readinessDb: database.readinessDb });
  await app.register(authRoutes);
  await app.register(staffSecurityRoutes);
  await app.register(ordersRoutes);
  await app.register(orderDetailRoutes);
  await app.register(documentsRoutes);
  await app.register(mailRoutes);
  await app.register(defencePackRoutes);
  await app.register(invoicesRoutes);
  await app.register(teamRoutes);
  await app.register(gatewaysRoutes);
  await app.register(reportsRoutes);
  await app.register(activityRoutes);
  await app.register(accessRecordsRoutes);
  await app.register(landingSitesRoutes);
  await app.register(trackOrderRoutes);
  await app.register(activeGatewayRoutes);
  await app.register(landingSiteAdminRoutes);
  await app.register(intakeRoutes);
  await app.register(disputesRoutes);
  await app.register(webhooksRoutes);
  await app.register(liveDeskRoutes);
  await app.register(retentionRoutes);
  await app.register(subjectRequestsRoutes);
  await app.register(mailWorkerPlugin);
  await app.register(housekeepingPlugin, { maintenanceDb: database.maintenanceDb });

  const webDist = config.webDist ?? DEFAULT_WEB_DIST;
  const hasWeb = existsSync(`${webDist}/index.html`);
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false, maxAge: '1h', immutable: false });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !hasWeb) {
      return reply.code(404).send({
        status: 0,
        code: 'NOT_FOUND',
        message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}`,
      });
    }
    // The customer portal is its own page (no staff-console code); the console owns every other path.
    const page = isPortalPath(request.url.split('?')[0] ?? '') ? 'portal.html' : 'index.html';
    return reply.header('cache-control', 'no-cache').sendFile(page);
  });

  return app;
}
