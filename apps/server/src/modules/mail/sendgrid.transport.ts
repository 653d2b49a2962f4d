// SendGrid through the official SDK. Each transport has its own client (the package's default export is one
// shared instance), so a custom API root (SENDGRID_API_URL) and the key never leak between apps in a process.
import { Client } from '@sendgrid/client';
import { MailService } from '@sendgrid/mail';
import type { MailConfig } from '../../lib/config.js';
import { isPermanentStatus, MailSendError, type MailTransport, type OutgoingMail } from './mail-transport.js';

interface SendGridFailure {
  code?: number | string;
  message?: string;
  response?: { body?: { errors?: { message?: string; field?: string | null }[] } };
}

export class SendGridTransport implements MailTransport {
  readonly provider = 'Sendgrid' as const;
  private readonly mailer: MailService;

  constructor(settings: NonNullable<MailConfig['sendgrid']>) {
    const client = new Client();
    client.setApiKey(settings.apiKey);
    // After setApiKey, which resets the base URL to the public API.
    client.setDefaultRequest('baseUrl', `${settings.apiUrl}/`);
    this.mailer = new MailService();
    this.mailer.setClient(client);
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
      // Only the status and the provider's own words: the SDK's error also holds the request with the API key.
      const e = err as SendGridFailure;
      const status = typeof e.code === 'number' ? e.code : undefined;
      const detail = e.response?.body?.errors
        ?.map((x) => x.message)
        .filter(Boolean)
        .join('; ');
      const reason = detail || e.message || 'unknown error';
      throw new MailSendError(`Sendgrid ${status ?? 'request failed'}: ${reason}`, isPermanentStatus(status));
    }
  }
}
