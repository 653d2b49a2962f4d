// Amazon SES through the official v2 SDK (SendEmailCommand). Simple content carries attachments itself, so no
// MIME is assembled here. The SDK does not retry: the outbox owns retries, so every attempt is counted.
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import type { MailConfig } from '../../lib/config.js';
import {
  isPermanentStatus,
  MAIL_KEY_HEADER,
  MAIL_KEY_TAG,
  MailSendError,
  type MailTransport,
  type OutgoingMail,
} from './mail-transport.js';

const UTF8 = 'UTF-8';

export class AwsSesTransport implements MailTransport {
  readonly provider = 'AWS' as const;
  private readonly client: SESv2Client;

  constructor(settings: NonNullable<MailConfig['aws']>) {
    this.client = new SESv2Client({
      region: settings.region,
      credentials: {
        accessKeyId: settings.accessKeyId,
        secretAccessKey: settings.secretAccessKey,
        ...(settings.sessionToken ? { sessionToken: settings.sessionToken } : {}),
      },
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      maxAttempts: 1,
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 30_000 },
    });
  }

  async send(mail: OutgoingMail): Promise<{ messageId: string | null }> {
    const command = new SendEmailCommand({
      FromEmailAddress: mail.from,
      Destination: { ToAddresses: [mail.to] },
      // The outbox key on the message and in SES's events. SES has no call to look a sent mail up by either, so it
      // has no findAccepted: after an unrecorded attempt the mail goes again, recognisable by the same key.
      EmailTags: [{ Name: MAIL_KEY_TAG, Value: mail.key }],
      Content: {
        Simple: {
          Subject: { Data: mail.subject, Charset: UTF8 },
          Body: { Html: { Data: mail.html, Charset: UTF8 }, Text: { Data: mail.text, Charset: UTF8 } },
          Headers: [{ Name: MAIL_KEY_HEADER, Value: mail.key }],
          ...(mail.attachments.length > 0
            ? {
                Attachments: mail.attachments.map((a) => ({
                  FileName: a.filename,
                  ContentType: a.contentType,
                  ContentDisposition: 'ATTACHMENT' as const,
                  ContentTransferEncoding: 'BASE64' as const,
                  RawContent: a.content,
                })),
              }
            : {}),
        },
      },
    });
    try {
      const result = await this.client.send(command);
      return { messageId: result.MessageId || null };
    } catch (err) {
      const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      const reason = [e.name, e.message].filter(Boolean).join(': ') || 'unknown error';
      throw new MailSendError(`AWS ${status ?? 'request failed'}: ${reason}`, isPermanentStatus(status));
    }
  }

  close(): void {
    this.client.destroy();
  }
}
