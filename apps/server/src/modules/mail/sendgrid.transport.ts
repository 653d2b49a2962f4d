// SendGrid through the official SDK. Each transport has its own client (the package's default export is one
// shared instance), so a custom API root (SENDGRID_API_URL) and the key never leak between apps in a process.
// Every mail carries its outbox key as a custom argument and a header; after an attempt whose outcome was never
// recorded, the Email Activity API (GET /v3/messages, a paid add-on limited to 6 calls a minute) is asked for it.
import { Client } from '@sendgrid/client';
import { MailService } from '@sendgrid/mail';
import type { MailConfig } from '../../lib/config.js';
import {
  isPermanentStatus,
  MAIL_KEY_HEADER,
  MAIL_KEY_TAG,
  MailSendError,
  type EarlierAttempt,
  type MailTransport,
  type OutgoingMail,
} from './mail-transport.js';

interface SendGridFailure {
  code?: number | string;
  message?: string;
  response?: { body?: { errors?: { message?: string; field?: string | null }[] } };
}

export class SendGridTransport implements MailTransport {
  readonly provider = 'Sendgrid' as const;
  private readonly client: Client;
  private readonly mailer: MailService;

  constructor(settings: NonNullable<MailConfig['sendgrid']>) {
    this.client = new Client();
    this.client.setApiKey(settings.apiKey);
    // After setApiKey, which resets the base URL to the public API.
    this.client.setDefaultRequest('baseUrl', `${settings.apiUrl}/`);
    this.mailer = new MailService();
    this.mailer.setClient(this.client);
    this.mailer.setTimeout(30_000);
  }

  async send(mail: OutgoingMail): Promise<{ messageId: string | null }> {
    try {
      const [response] = await this.mailer.send({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: { [MAIL_KEY_HEADER]: mail.key },
        customArgs: { [MAIL_KEY_TAG]: mail.key },
        ...(mail.attachments.length > 0
          ? {
              attachments: mail.attachments.map((a) => ({
                content: a.content.toString('base64'),
                filename: a.filename,
                type: a.contentType,
                disposition: 'attachment',
              })),
            }
          : {}),
      });
      const messageId = (response.headers as Record<string, unknown>)['x-message-id'];
      return { messageId: typeof messageId === 'string' && messageId ? messageId : null };
    } catch (err) {
      const { status, reason } = failureOf(err);
      throw new MailSendError(`Sendgrid ${status ?? 'request failed'}: ${reason}`, isPermanentStatus(status));
    }
  }

  async findAccepted(key: string): Promise<EarlierAttempt> {
    try {
      const [, body] = await this.client.request({
        method: 'GET',
        url: '/v3/messages',
        qs: { query: `unique_args['${MAIL_KEY_TAG}']="${key}"`, limit: 1 },
      });
      const found = (body as { messages?: { msg_id?: string }[] } | undefined)?.messages?.[0];
      return found ? { state: 'accepted', messageId: found.msg_id || null } : { state: 'absent' };
    } catch (err) {
      const { status, reason } = failureOf(err);
      // No access (the add-on or the key's scope) will not change by waiting; throttling and outages will.
      const askAgain = status === undefined || !isPermanentStatus(status);
      return { state: 'unknown', reason: `Sendgrid activity ${status ?? 'request failed'}: ${reason}`, askAgain };
    }
  }
}

/** Only the status and the provider's own words: the SDK's error also holds the request with the API key. */
function failureOf(err: unknown): { status: number | undefined; reason: string } {
  const e = err as SendGridFailure;
  const status = typeof e.code === 'number' ? e.code : undefined;
  const detail = e.response?.body?.errors
    ?.map((x) => x.message)
    .filter(Boolean)
    .join('; ');
  return { status, reason: detail || e.message || 'unknown error' };
}
