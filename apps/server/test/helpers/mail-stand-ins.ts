// Loopback stand-ins of the two mail providers' HTTP APIs, just enough for their real SDKs: Amazon SES v2
// (POST /v2/email/outbound-emails → {MessageId}) and SendGrid (POST /v3/mail/send → 202 with x-message-id, and its
// Email Activity API: GET /v3/messages?query=unique_args['k']="v" → {messages: [{msg_id, …}]}).
// A test points AWS_ENDPOINT_URL_SESV2 / SENDGRID_API_URL here and reads what arrived.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MailProvider } from '@eta/contracts';
import { loadConfig, type MailConfig } from '../../src/lib/config.js';

export interface ArrivedMail {
  provider: MailProvider;
  headers: http.IncomingHttpHeaders;
  /** The request body as the SDK sent it (JSON). */
  body: Record<string, unknown>;
}

/** The parts every test asserts on, read the same way from either provider's request. */
export interface DeliveredMail {
  provider: MailProvider;
  to: string[];
  from: string;
  subject: string;
  html: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  /** The outbox key the mail carried (X-Eta-Mail-Key), as a header and as the provider's tag or custom argument. */
  keyHeader: string | undefined;
  keyTag: string | undefined;
}

export interface MailStandIn {
  url: string;
  /** Every request that reached the stand-in, answered successfully or not. */
  requests: ArrivedMail[];
  /** The mails the stand-in accepted. */
  delivered(): DeliveredMail[];
  /** The HTTP statuses to answer the next requests of a provider with (then 200/202 again). */
  failNext(provider: MailProvider, ...statuses: number[]): void;
  /** Answer every request of a provider with this status until cleared (null). */
  failAlways(provider: MailProvider, status: number | null): void;
  /**
   * Accept the next mail of a provider (it counts as delivered and SendGrid's activity finds it) but hold the
   * answer until the returned function is called: a worker that dies after the provider took its mail.
   */
  holdNext(provider: MailProvider): () => void;
  /** SendGrid's Email Activity API: answers (200), or this status (403: no add-on; 429: throttled). */
  activityStatus(status: number): void;
  /** The Email Activity queries that arrived. */
  activityQueries: string[];
  close(): Promise<void>;
}

const SES_PATH = '/v2/email/outbound-emails';
const SENDGRID_PATH = '/v3/mail/send';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function read(provider: MailProvider, body: Json): DeliveredMail {
  if (provider === 'AWS') {
    const simple = body.Content.Simple as Json;
    return {
      provider,
      to: body.Destination.ToAddresses as string[],
      from: body.FromEmailAddress as string,
      subject: simple.Subject.Data as string,
      html: simple.Body.Html.Data as string,
      text: simple.Body.Text.Data as string,
      attachments: ((simple.Attachments ?? []) as Json[]).map((a) => ({
        filename: a.FileName as string,
        contentType: a.ContentType as string,
        content: Buffer.from(a.RawContent as string, 'base64'),
      })),
      keyHeader: ((simple.Headers ?? []) as Json[]).find((h) => h.Name === 'X-Eta-Mail-Key')?.Value,
      keyTag: ((body.EmailTags ?? []) as Json[]).find((t) => t.Name === 'eta_mail_key')?.Value,
    };
  }
  const content = body.content as { type: string; value: string }[];
  const from = body.from as { email: string; name?: string };
  return {
    provider,
    to: (body.personalizations as Json[]).flatMap((p) => (p.to as { email: string }[]).map((t) => t.email)),
    from: from.name ? `${from.name} <${from.email}>` : from.email,
    subject: body.subject as string,
    text: content.find((c) => c.type === 'text/plain')?.value ?? '',
    html: content.find((c) => c.type === 'text/html')?.value ?? '',
    attachments: ((body.attachments ?? []) as Json[]).map((a) => ({
      filename: a.filename as string,
      contentType: a.type as string,
      content: Buffer.from(a.content as string, 'base64'),
    })),
    keyHeader: (body.headers as Json | undefined)?.['X-Eta-Mail-Key'],
    keyTag: (body.custom_args as Json | undefined)?.eta_mail_key,
  };
}

/** SendGrid's activity query for one custom argument: unique_args['name']="value". */
const ACTIVITY_QUERY = /^unique_args\['([^']+)'\]="([^"]*)"$/;

const ERRORS: Record<MailProvider, (status: number) => { headers: Record<string, string>; body: Json }> = {
  AWS: (status) =>
    status >= 500
      ? { headers: { 'x-amzn-errortype': 'InternalFailure' }, body: { message: 'Internal failure, please retry' } }
      : {
          headers: { 'x-amzn-errortype': 'MessageRejected' },
          body: { message: 'Email address is not verified. The following identities failed the check' },
        },
  Sendgrid: (status) => ({
    headers: {},
    body: {
      errors: [
        status >= 500
          ? { message: 'Internal server error', field: null, help: null }
          : { message: 'The from address does not match a verified Sender Identity', field: 'from', help: null },
      ],
    },
  }),
};

export async function startMailStandIn(): Promise<MailStandIn> {
  const requests: ArrivedMail[] = [];
  const accepted: DeliveredMail[] = [];
  const scripted: Record<MailProvider, number[]> = { AWS: [], Sendgrid: [] };
  const always: Record<MailProvider, number | null> = { AWS: null, Sendgrid: null };
  const held: Record<MailProvider, Promise<void> | null> = { AWS: null, Sendgrid: null };
  /** SendGrid's message ids by their custom arguments, for the activity API. */
  const sendgridActivity: { msgId: string; args: Json; to: string }[] = [];
  const activityQueries: string[] = [];
  let activity = 200;
  let next = 0;

  /** GET /v3/messages: the accepted SendGrid mails whose custom argument matches the query. */
  function answerActivity(url: URL, res: http.ServerResponse) {
    const query = url.searchParams.get('query') ?? '';
    activityQueries.push(query);
    if (activity !== 200) {
      res
        .writeHead(activity, { 'content-type': 'application/json' })
        .end(JSON.stringify({ errors: [{ message: activity === 429 ? 'too many requests' : 'access forbidden' }] }));
      return;
    }
    const [, name, value] = ACTIVITY_QUERY.exec(query) ?? [];
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const messages = sendgridActivity
      .filter((m) => name !== undefined && m.args[name] === value)
      .slice(0, limit)
      .map((m) => ({ msg_id: m.msgId, to_email: m.to, status: 'delivered', opens_count: 0, clicks_count: 0 }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ messages }));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    // The answer may be held (holdNext), so it is given from an async function.
    req.on(
      'end',
      () =>
        void (async () => {
          const url = new URL(req.url ?? '/', 'http://stand-in');
          if (req.method === 'GET' && url.pathname === '/v3/messages') {
            answerActivity(url, res);
            return;
          }
          const provider: MailProvider | null =
            req.method === 'POST' && req.url === SES_PATH
              ? 'AWS'
              : req.method === 'POST' && req.url === SENDGRID_PATH
                ? 'Sendgrid'
                : null;
          if (!provider) {
            res.writeHead(404).end();
            return;
          }
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
          requests.push({ provider, headers: req.headers, body });
          const status = always[provider] ?? scripted[provider].shift();
          if (status !== undefined && status >= 300) {
            const error = ERRORS[provider](status);
            res
              .writeHead(status, { 'content-type': 'application/json', ...error.headers })
              .end(JSON.stringify(error.body));
            return;
          }
          next += 1;
          const id = next;
          const mail = read(provider, body);
          accepted.push(mail);
          if (provider === 'Sendgrid') {
            sendgridActivity.push({
              msgId: `sendgrid-message-${id}.filter0001`,
              args: body.custom_args ?? {},
              to: mail.to[0]!,
            });
          }
          const hold = held[provider];
          if (hold) {
            held[provider] = null;
            await hold;
          }
          if (provider === 'AWS') {
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ MessageId: `ses-message-${id}` }));
          } else {
            res.writeHead(202, { 'x-message-id': `sendgrid-message-${id}` }).end();
          }
        })(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    delivered: () => [...accepted],
    failNext: (provider, ...statuses) => scripted[provider].push(...statuses),
    failAlways: (provider, status) => {
      always[provider] = status;
    },
    holdNext: (provider) => {
      let release!: () => void;
      held[provider] = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => release();
    },
    activityStatus: (status) => {
      activity = status;
    },
    activityQueries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Mail settings that point both real SDKs at the stand-in, read through loadConfig like production's; the
 * worker is off (the test delivers by hand) and retries are due at once.
 */
export function standInMailConfig(
  standIn: Pick<MailStandIn, 'url'>,
  providers: MailProvider[] = ['AWS', 'Sendgrid'],
  overrides: Partial<MailConfig> = {},
): MailConfig {
  const env: NodeJS.ProcessEnv = { MAIL_WORKER: 'false', MAIL_FROM: 'eTA Desk <desk@eta-desk.test>' };
  if (providers.includes('AWS')) {
    Object.assign(env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'AKIATESTSTANDIN',
      AWS_SECRET_ACCESS_KEY: 'stand-in-secret-key',
      AWS_ENDPOINT_URL_SESV2: standIn.url,
    });
  }
  if (providers.includes('Sendgrid')) {
    Object.assign(env, { SENDGRID_API_KEY: 'SG.stand-in-key', SENDGRID_API_URL: standIn.url });
  }
  return { ...loadConfig(env).mail, retryBaseMs: 0, ...overrides };
}
