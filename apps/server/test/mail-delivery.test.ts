// The mail outbox end to end: each provider's real SDK (Amazon SES v2, SendGrid) delivers to a loopback
// stand-in of its HTTP API, and what arrived is checked; retries, final failures, a dead worker's lease, a
// restart between queueing and sending, and what happens when providers are missing.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NO_PROVIDER_ERROR, type MailProvider } from '@eta/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/lib/config.js';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import { claimDueMails } from '../src/modules/mail/mail.repository.js';
import { buildTestApp, JWT_SECRET, type TestApp } from './helpers/test-app.js';
import { createTestDatabase } from './helpers/test-database.js';
import { insertOrder, givePortalHosts } from './helpers/orders.js';
import { standInMailConfig, startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';
import { PDF, TRAVELLER, approvalPdf, uploadRequest } from './helpers/uploads.js';

let standIn: MailStandIn;
beforeAll(async () => {
  standIn = await startMailStandIn();
});
afterAll(() => standIn.close());

type Person = Awaited<ReturnType<TestApp['signIn']>>;

async function upload(
  t: TestApp,
  who: Person,
  orderId: string,
  provider: MailProvider,
  email: string,
  content: Buffer = PDF,
) {
  const form = await uploadRequest(
    { orderId, email, mailServiceProvider: provider, confirmEmailChange: 'true' },
    { name: 'approval.pdf', content, type: 'application/pdf' },
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    headers: { ...form.headers, authorization: who.token },
    payload: form.payload,
  });
}

interface MailHistoryEntry {
  id: number;
  kind: string;
  to: string;
  from?: string;
  provider: string;
  state: string;
  attempts: number;
  last_error?: string;
  provider_message_id?: string;
  sent_at?: string;
  next_attempt_at?: string;
}

async function mailHistory(app: TestApp['app'], who: Person, orderId: string): Promise<MailHistoryEntry[]> {
  const res = await app.inject({
    url: `/api/admin/get-orders-details/${orderId}`,
    headers: { authorization: who.token },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: { mailHistory: MailHistoryEntry[] } }>().data.mailHistory;
}

const requestsFor = (to: string) =>
  standIn.requests.filter((r) => JSON.stringify(r.body).includes(`"${to}"`)).map((r) => r.provider);

describe('with both providers configured', () => {
  let t: TestApp;
  let team: Person;
  beforeAll(async () => {
    t = await buildTestApp({ mail: standInMailConfig(standIn, ['AWS', 'Sendgrid'], { maxAttempts: 3 }) });
    await givePortalHosts(t.database.db);
    team = await t.signIn('Team', 'Tess Team');
  });
  afterAll(() => t.close());

  it('each provider’s SDK delivers the approval mail: recipient, sender, subject, track-order link and order id', async () => {
    const viaAws = await insertOrder(t.database.db, { passport_first_name: 'Ada', passport_surname: 'Lovelace' });
    const viaSendgrid = await insertOrder(t.database.db, {
      landing_site: 'eta-express',
      passport_first_name: 'Grace',
      passport_surname: 'Hopper',
    });
    expect((await upload(t, team, viaAws, 'AWS', 'ada@customer.test')).statusCode).toBe(200);
    const hoppers = await approvalPdf({ ...TRAVELLER, surname: 'Hopper', givenNames: 'Grace' });
    expect((await upload(t, team, viaSendgrid, 'Sendgrid', 'grace@customer.test', hoppers)).statusCode).toBe(200);
    expect((await mailHistory(t.app, team, viaAws))[0]).toMatchObject({ state: 'queued', attempts: 0 });

    await t.app.services.mail.deliverDue();

    const arrived = standIn.delivered();
    const aws = arrived.find((m) => m.to.includes('ada@customer.test'));
    const awsLink = `https://www.canada-eta-online.example/track-order/${viaAws}`;
    expect(aws).toMatchObject({
      provider: 'AWS',
      to: ['ada@customer.test'],
      from: 'Canada eTA Online <noreply@canada-eta-online.example>',
      subject: `Your Canada eTA is approved - order ${viaAws}`,
      attachments: [],
    });
    expect(aws?.html).toContain(`href="${awsLink}"`);
    expect(aws?.html).toContain('Dear Ada Lovelace,');
    expect(aws?.html).toContain(viaAws);
    expect(aws?.text).toContain(awsLink);
    expect(aws?.text).toContain(`Order ID: ${viaAws}`);

    const sendgrid = arrived.find((m) => m.to.includes('grace@customer.test'));
    const sendgridLink = `https://www.eta-express.example/track-order/${viaSendgrid}?site=eta-express`;
    expect(sendgrid).toMatchObject({
      provider: 'Sendgrid',
      to: ['grace@customer.test'],
      from: 'eTA Express <noreply@eta-express.example>',
      subject: `Your Canada eTA is approved - order ${viaSendgrid}`,
    });
    expect(sendgrid?.html).toContain(`href="${sendgridLink}"`);
    expect(sendgrid?.html).toContain('Dear Grace Hopper,');
    expect(sendgrid?.text).toContain(sendgridLink);
    expect(sendgrid?.text).toContain(`Order ID: ${viaSendgrid}`);

    // The SDKs authenticated with the configured credentials.
    const awsRequest = standIn.requests.find((r) => r.provider === 'AWS');
    expect(awsRequest?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIATESTSTANDIN\//);
    const sendgridRequest = standIn.requests.find((r) => r.provider === 'Sendgrid');
    expect(sendgridRequest?.headers.authorization).toBe('Bearer SG.stand-in-key');

    // Email History: sent, with the provider's message id as evidence of delivery.
    const [awsMail] = await mailHistory(t.app, team, viaAws);
    expect(awsMail).toMatchObject({
      kind: 'approval',
      to: 'ada@customer.test',
      from: 'Canada eTA Online <noreply@canada-eta-online.example>',
      provider: 'AWS',
      state: 'sent',
      attempts: 1,
      provider_message_id: expect.stringMatching(/^ses-message-\d+$/),
      sent_at: expect.any(String),
    });
    expect(awsMail?.last_error).toBeUndefined();
    const [sendgridMail] = await mailHistory(t.app, team, viaSendgrid);
    expect(sendgridMail).toMatchObject({
      provider: 'Sendgrid',
      state: 'sent',
      provider_message_id: expect.stringMatching(/^sendgrid-message-\d+$/),
    });
  });

  it('attachments queued through the outbox arrive byte for byte with either provider', async () => {
    const orderId = await insertOrder(t.database.db);
    const store = new LocalDocumentStore(path.join(t.config.dataDir, 'documents'));
    const { key } = await store.put(PDF, { extension: 'pdf' });
    const order = await t.database.db
      .selectFrom('orders')
      .select('id')
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    for (const provider of ['AWS', 'Sendgrid'] as const) {
      await t.database.db.transaction().execute((trx) =>
        t.app.services.mail.queueMail(trx, {
          orderId: order.id,
          kind: 'invoice',
          to: `${provider.toLowerCase()}-invoice@customer.test`,
          provider,
          subject: `Invoice INV-1 for order ${orderId}`,
          html: '<p>Your invoice is attached.</p>',
          text: 'Your invoice is attached.',
          attachments: [{ filename: 'INV-1.pdf', contentType: 'application/pdf', storageKey: key }],
        }),
      );
    }
    await t.app.services.mail.deliverDue();
    for (const provider of ['AWS', 'Sendgrid'] as const) {
      const mail = standIn.delivered().find((m) => m.to.includes(`${provider.toLowerCase()}-invoice@customer.test`));
      expect(mail, provider).toMatchObject({
        provider,
        from: 'Canada eTA Online <noreply@canada-eta-online.example>',
        attachments: [{ filename: 'INV-1.pdf', contentType: 'application/pdf', content: PDF }],
      });
    }
    expect((await mailHistory(t.app, team, orderId)).map((m) => [m.kind, m.state])).toEqual([
      ['invoice', 'sent'],
      ['invoice', 'sent'],
    ]);
  });

  it('a provider answering 500 is tried again and the mail ends sent', async () => {
    const viaAws = await insertOrder(t.database.db);
    const viaSendgrid = await insertOrder(t.database.db);
    await upload(t, team, viaAws, 'AWS', 'retry-aws@customer.test');
    await upload(t, team, viaSendgrid, 'Sendgrid', 'retry-sendgrid@customer.test');
    standIn.failNext('AWS', 500);
    standIn.failNext('Sendgrid', 500);

    await t.app.services.mail.deliverDue();
    const [awsWaiting] = await mailHistory(t.app, team, viaAws);
    expect(awsWaiting).toMatchObject({
      state: 'queued',
      attempts: 1,
      last_error: expect.stringMatching(/^AWS 500: InternalFailure/),
      next_attempt_at: expect.any(String),
    });
    expect((await mailHistory(t.app, team, viaSendgrid))[0]).toMatchObject({
      state: 'queued',
      attempts: 1,
      last_error: 'Sendgrid 500: Internal server error',
    });

    await t.app.services.mail.deliverDue();
    for (const [orderId, to, provider] of [
      [viaAws, 'retry-aws@customer.test', 'AWS'],
      [viaSendgrid, 'retry-sendgrid@customer.test', 'Sendgrid'],
    ] as const) {
      const [mail] = await mailHistory(t.app, team, orderId);
      expect(mail, provider).toMatchObject({ state: 'sent', attempts: 2, provider_message_id: expect.any(String) });
      expect(mail?.last_error).toBeUndefined();
      expect(requestsFor(to)).toEqual([provider, provider]);
    }
  });

  it('a provider refusing the mail (400) fails it at once, with the provider’s reason in Email History', async () => {
    const orderId = await insertOrder(t.database.db);
    await upload(t, team, orderId, 'Sendgrid', 'refused@customer.test');
    standIn.failAlways('Sendgrid', 400);
    try {
      await t.app.services.mail.deliverDue();
      await t.app.services.mail.deliverDue();
    } finally {
      standIn.failAlways('Sendgrid', null);
    }
    expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({
      state: 'failed',
      attempts: 1,
      last_error: 'Sendgrid 400: The from address does not match a verified Sender Identity',
    });
    // Not tried again: a refusal does not change by asking twice.
    expect(requestsFor('refused@customer.test')).toEqual(['Sendgrid']);
  });

  it('a provider failing every time is tried MAIL_MAX_ATTEMPTS times, then the mail is failed with the last error', async () => {
    const orderId = await insertOrder(t.database.db);
    await upload(t, team, orderId, 'AWS', 'down@customer.test');
    standIn.failAlways('AWS', 503);
    try {
      for (let round = 0; round < 5; round += 1) await t.app.services.mail.deliverDue();
    } finally {
      standIn.failAlways('AWS', null);
    }
    expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({
      state: 'failed',
      attempts: 3,
      last_error: expect.stringMatching(/^AWS 503: InternalFailure/),
    });
    expect(requestsFor('down@customer.test')).toEqual(['AWS', 'AWS', 'AWS']);
  });

  it('workers side by side never take the same mail', async () => {
    const recipients = Array.from({ length: 12 }, (_, i) => `side-by-side-${i}@customer.test`);
    await t.database.db.transaction().execute(async (trx) => {
      for (const to of recipients) {
        await t.app.services.mail.queueMail(trx, {
          orderId: null,
          kind: 'invoice',
          to,
          provider: 'AWS',
          subject: 'Invoice',
          html: '<p>Invoice</p>',
          text: 'Invoice',
        });
      }
    });
    const claimed = await Promise.all([1, 2, 3].map(() => t.app.services.mail.deliverDue(5)));
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(12);
    for (const to of recipients) expect(requestsFor(to), to).toEqual(['AWS']);
  });

  it('a mail claimed by a worker that died is sent by another once the lease has run out', async () => {
    const orderId = await insertOrder(t.database.db);
    await upload(t, team, orderId, 'AWS', 'orphan@customer.test');
    // A worker of another server claims the mail and dies before sending it.
    const [claimed] = await claimDueMails(t.database.db, 10, 60_000, { server: 'other.host:3000', boot: randomUUID() });
    expect(claimed).toMatchObject({ to_address: 'orphan@customer.test', attempts: 1 });

    // While the lease holds, nobody else takes it.
    expect(await t.app.services.mail.deliverDue()).toBe(0);
    expect(requestsFor('orphan@customer.test')).toEqual([]);

    await sql`UPDATE mails SET locked_until = now() - interval '1 second' WHERE id = ${claimed!.id}`.execute(
      t.database.db,
    );
    await t.app.services.mail.deliverDue();
    expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({ state: 'sent', attempts: 2 });
    expect(requestsFor('orphan@customer.test')).toEqual(['AWS']);
  });
});

describe('a worker that dies after the provider took the mail (issue 22)', () => {
  let t: TestApp;
  let team: Person;
  beforeAll(async () => {
    t = await buildTestApp({ mail: standInMailConfig(standIn, ['AWS', 'Sendgrid'], { maxAttempts: 3 }) });
    await givePortalHosts(t.database.db);
    team = await t.signIn('Team', 'Dora Doubt');
  });
  afterAll(async () => {
    standIn.activityStatus(200);
    await t.close();
  });

  const delivered = (to: string) => standIn.delivered().filter((m) => m.to.includes(to));
  const mailRow = (to: string) =>
    t.database.db
      .selectFrom('mails')
      .select(['message_key', 'sending_since', 'state', 'attempts'])
      .where('to_address', '=', to)
      .executeTakeFirstOrThrow();

  /**
   * Queues the approval mail, lets a worker hand it to the provider, which takes it but whose answer never comes
   * back (the worker is gone, as after kill -9); the lease then runs out. Returns the dead worker's release.
   */
  async function providerHasItWorkerGone(provider: MailProvider, to: string) {
    const orderId = await insertOrder(t.database.db);
    expect((await upload(t, team, orderId, provider, to)).statusCode).toBe(200);
    const release = standIn.holdNext(provider);
    const deadWorker = t.app.services.mail.deliverDue();
    await vi.waitFor(() => expect(delivered(to)).toHaveLength(1));
    await sql`UPDATE mails SET locked_until = now() - interval '1 second' WHERE to_address = ${to}`.execute(
      t.database.db,
    );
    return { orderId, finishDeadWorker: async () => (release(), deadWorker) };
  }

  it('SendGrid: the next worker finds the mail in SendGrid’s activity by its key and does not send it again', async () => {
    const to = 'doubt-sendgrid@customer.test';
    const { orderId, finishDeadWorker } = await providerHasItWorkerGone('Sendgrid', to);
    const { message_key } = await mailRow(to);
    expect(delivered(to)[0]).toMatchObject({ keyHeader: message_key, keyTag: message_key });

    await t.app.services.mail.deliverDue();
    expect(delivered(to)).toHaveLength(1);
    expect(standIn.activityQueries).toContain(`unique_args['eta_mail_key']="${message_key}"`);
    expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({
      state: 'sent',
      attempts: 2,
      provider_message_id: expect.stringMatching(/^sendgrid-message-\d+\.filter0001$/),
    });
    expect(await mailRow(to)).toMatchObject({ sending_since: null });
    // The dead worker's late answer changes nothing: its lease is gone.
    await finishDeadWorker();
    expect(delivered(to)).toHaveLength(1);
    expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('SendGrid throttling its activity API: nothing is sent again until SendGrid can say; then it is found', async () => {
    const to = 'doubt-throttled@customer.test';
    const { orderId, finishDeadWorker } = await providerHasItWorkerGone('Sendgrid', to);
    standIn.activityStatus(429);
    await t.app.services.mail.deliverDue();
    expect(delivered(to)).toHaveLength(1);
    const waiting = (await mailHistory(t.app, team, orderId))[0]!;
    expect(waiting).toMatchObject({ state: 'queued', attempts: 2 });
    expect(waiting.last_error).toMatch(/^not sent again yet: Sendgrid activity 429/);
    expect((await mailRow(to)).sending_since).not.toBeNull();

    standIn.activityStatus(200);
    await t.app.services.mail.deliverDue();
    expect(delivered(to)).toHaveLength(1);
    expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({ state: 'sent', attempts: 3 });
    await finishDeadWorker();
  });

  it('SendGrid without access to its activity (no add-on): sent again, the copy carrying the same key', async () => {
    const to = 'doubt-no-activity@customer.test';
    const { orderId, finishDeadWorker } = await providerHasItWorkerGone('Sendgrid', to);
    standIn.activityStatus(403);
    await t.app.services.mail.deliverDue();
    standIn.activityStatus(200);
    const copies = delivered(to);
    expect(copies).toHaveLength(2);
    expect(copies[1]!.keyHeader).toBe(copies[0]!.keyHeader);
    expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({ state: 'sent', attempts: 2 });
    await finishDeadWorker();
  });

  it('SES, which cannot be asked: sent again (at-least-once), both copies with the same key header and tag', async () => {
    const to = 'doubt-ses@customer.test';
    const { orderId, finishDeadWorker } = await providerHasItWorkerGone('AWS', to);
    const before = standIn.activityQueries.length;
    await t.app.services.mail.deliverDue();
    const copies = delivered(to);
    expect(copies).toHaveLength(2);
    const { message_key } = await mailRow(to);
    for (const copy of copies) expect(copy).toMatchObject({ keyHeader: message_key, keyTag: message_key });
    expect(standIn.activityQueries).toHaveLength(before);
    expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({ state: 'sent', attempts: 2 });
    await finishDeadWorker();
  });

  it('a mail whose first attempt was answered is never looked up: only an unrecorded attempt is in doubt', async () => {
    const to = 'doubt-none@customer.test';
    const orderId = await insertOrder(t.database.db);
    await upload(t, team, orderId, 'Sendgrid', to);
    standIn.failNext('Sendgrid', 500);
    const before = standIn.activityQueries.length;
    await t.app.services.mail.deliverDue();
    await t.app.services.mail.deliverDue();
    expect(delivered(to)).toHaveLength(1);
    expect(standIn.activityQueries).toHaveLength(before);
    expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({ state: 'sent', attempts: 2 });
  });
});

describe('the worker', () => {
  it('started with the app, sends a queued mail without anyone driving it', async () => {
    // A poll interval far beyond the test: what sends the mail is the kick after it was queued.
    const t = await buildTestApp({
      mail: standInMailConfig(standIn, ['AWS'], { worker: true, pollIntervalMs: 3_600_000 }),
    });
    try {
      const team = await t.signIn('Team');
      const orderId = await insertOrder(t.database.db);
      expect((await upload(t, team, orderId, 'AWS', 'kicked@customer.test')).statusCode).toBe(200);
      await vi.waitFor(
        async () => expect((await mailHistory(t.app, team, orderId))[0]).toMatchObject({ state: 'sent' }),
        { timeout: 10_000, interval: 50 },
      );
      expect(requestsFor('kicked@customer.test')).toEqual(['AWS']);
    } finally {
      await t.close();
    }
  });

  it('a mail queued and the server stopped before sending is sent after a restart on the same database', async () => {
    const t = await buildTestApp({ mail: standInMailConfig(standIn, ['Sendgrid']) });
    const restarted = await (async () => {
      const team = await t.signIn('Team');
      const orderId = await insertOrder(t.database.db);
      expect((await upload(t, team, orderId, 'Sendgrid', 'restart@customer.test')).statusCode).toBe(200);
      await t.app.close();
      expect(requestsFor('restart@customer.test')).toEqual([]);

      const app = await buildApp({
        config: { ...t.config, mail: { ...t.config.mail, worker: true } },
        database: t.database,
        jwtSecret: JWT_SECRET,
        logger: false,
      });
      await app.ready();
      return { app, team, orderId };
    })();
    try {
      await vi.waitFor(
        async () =>
          expect((await mailHistory(restarted.app, restarted.team, restarted.orderId))[0]).toMatchObject({
            state: 'sent',
            to: 'restart@customer.test',
          }),
        { timeout: 10_000, interval: 50 },
      );
      expect(requestsFor('restart@customer.test')).toEqual(['Sendgrid']);
    } finally {
      await restarted.app.close();
      await t.close();
    }
  });
});

describe('the log', () => {
  it('names a failed send and its reason, never the providers’ credentials', async () => {
    const lines: string[] = [];
    const database = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-mail-log-'));
    const app = await buildApp({
      config: { ...loadConfig({}), dataDir, mail: standInMailConfig(standIn) },
      database,
      jwtSecret: JWT_SECRET,
      logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      await app.ready();
      standIn.failAlways('AWS', 500);
      standIn.failAlways('Sendgrid', 401);
      for (const provider of ['AWS', 'Sendgrid'] as const) {
        await app.services.mail.queueMail(database.db, {
          orderId: null,
          kind: 'invoice',
          to: `log-${provider.toLowerCase()}@customer.test`,
          provider,
          subject: 'Invoice',
          html: '<p>Invoice</p>',
          text: 'Invoice',
        });
      }
      await app.services.mail.deliverDue();
    } finally {
      standIn.failAlways('AWS', null);
      standIn.failAlways('Sendgrid', null);
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
    const log = lines.join('');
    expect(log).toMatch(/"reason":"AWS 500: InternalFailure[^"]*","msg":"mail not sent"/);
    expect(log).toMatch(/"reason":"Sendgrid 401: [^"]*","msg":"mail not sent"/);
    for (const secret of ['stand-in-secret-key', 'SG.stand-in-key']) expect(log).not.toContain(secret);
  });
});

describe('missing providers', () => {
  it('with no provider configured the mail is kept as failed, "not sent: no provider configured"', async () => {
    const t = await buildTestApp({ mail: { ...standInMailConfig(standIn, []), worker: true } });
    try {
      const team = await t.signIn('Team');
      const orderId = await insertOrder(t.database.db);
      const res = await upload(t, team, orderId, 'AWS', 'nobody@customer.test');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 1,
        message: expect.stringMatching(/not sent: no mail provider is configured/),
        data: { process_status: 'Completed', mail: { state: 'failed', last_error: NO_PROVIDER_ERROR } },
      });
      await t.app.services.mail.deliverDue();
      expect(await mailHistory(t.app, team, orderId)).toEqual([
        expect.objectContaining({
          kind: 'approval',
          to: 'nobody@customer.test',
          state: 'failed',
          last_error: NO_PROVIDER_ERROR,
          attempts: 0,
        }),
      ]);
      expect(requestsFor('nobody@customer.test')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('a provider that is not configured while the other is: 400 at upload naming the one to use, nothing changed', async () => {
    const t = await buildTestApp({ mail: standInMailConfig(standIn, ['AWS']) });
    try {
      const team = await t.signIn('Team');
      const orderId = await insertOrder(t.database.db);
      const res = await upload(t, team, orderId, 'Sendgrid', 'unconfigured@customer.test');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        status: 0,
        code: 'PROVIDER_NOT_CONFIGURED',
        message: expect.stringMatching(/Sendgrid is not configured.*Please choose AWS/),
      });
      const order = await t.database.db
        .selectFrom('orders')
        .select(['process_status', 'version', 'id'])
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow();
      expect(order).toMatchObject({ process_status: 'New', version: 1 });
      const counts = await t.database.db
        .selectNoFrom((eb) => [
          eb
            .selectFrom('documents')
            .select(eb.fn.countAll<number>().as('n'))
            .where('order_id', '=', order.id)
            .as('documents'),
          eb.selectFrom('mails').select(eb.fn.countAll<number>().as('n')).where('order_id', '=', order.id).as('mails'),
        ])
        .executeTakeFirstOrThrow();
      expect(counts).toEqual({ documents: 0, mails: 0 });

      const resend = await t.app.inject({
        method: 'POST',
        url: '/api/admin/resend-mail',
        headers: { authorization: team.token },
        payload: { orderId, email: 'unconfigured@customer.test', mailServiceProvider: 'Sendgrid' },
      });
      expect(resend.statusCode).toBe(400);
      expect(resend.json()).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
    } finally {
      await t.close();
    }
  });
});
