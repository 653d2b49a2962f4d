// The mails of one order on its detail page: Resend (spec §7 resend-mail: the approval mail again, to the
// address in the editable box) and View Email Content (exactly what was or will be sent, with the customer's
// WhatsApp link).
import type { Kysely } from 'kysely';
import type { MailContent, QueuedMail, ResendMailBody } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { whatsappLink } from '../../lib/dialling-codes.js';
import { AppError } from '../../lib/errors.js';
import { assertMayDeliver } from '../../lib/delivery/may-deliver.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { isoTime } from '../../lib/time.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { changedBy, type OrderEventsPublisher } from '../events/order-events.publisher.js';
import { selectLatestApprovalMail, selectOrderMail, type StoredMail } from './mail.repository.js';
import type { MailService } from './mail.service.js';

export class OrderMailsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly mail: MailService,
    private readonly orderEvents: OrderEventsPublisher,
  ) {}

  /** Queues the approval mail again (kind resend) for an order that has its approved document. */
  async resendApprovalMail(actor: Actor, body: ResendMailBody): Promise<QueuedMail> {
    const orderId = normalizeOrderId(body.orderId);
    const to = body.email.trim();
    const provider = body.mailServiceProvider;
    this.mail.assertProvider(provider);
    const queued = await this.db.transaction().execute(async (trx) => {
      const composed = await this.mail.composeApprovalMail(trx, orderId);
      assertMayDeliver(composed.context);
      const { document } = composed;
      if (!document) {
        throw new AppError('NO_DOCUMENT', `Order ${orderId} has no approved document yet: upload it first.`);
      }
      const mail = await this.mail.enqueue(trx, {
        orderId: composed.orderKey,
        kind: 'resend',
        to,
        provider,
        from: composed.from,
        subject: composed.subject,
        html: composed.html,
        text: composed.text,
        documentId: document.id,
      });
      await writeAudit(trx, actor, [
        {
          action: 'mail.resend',
          orderId: composed.orderKey,
          target: orderId,
          // The mail by id, not its address: the mails row holds that, and erasure blanks it there.
          after: { mailId: mail.id, provider },
        },
      ]);
      return mail;
    });
    this.mail.kick();
    this.orderEvents.addedTo(orderId, { kind: 'mail', id: queued.id }, changedBy(actor));
    return {
      mailId: queued.id,
      orderId,
      to,
      provider,
      state: queued.state,
      ...(queued.lastError ? { last_error: queued.lastError } : {}),
    };
  }

  /** A mail of the order by id; else its latest approval mail; else the approval mail it would get now. */
  async mailContent(rawOrderId: string, mailId?: number): Promise<MailContent> {
    const orderId = normalizeOrderId(rawOrderId);
    const context = await this.mail.orderContext(this.db, orderId);
    const stored =
      mailId !== undefined
        ? await selectOrderMail(this.db, context.id, mailId)
        : await selectLatestApprovalMail(this.db, context.id);
    if (mailId !== undefined && !stored) {
      throw new AppError('NOT_FOUND', `Mail ${mailId} of order ${orderId} was not found.`);
    }
    const whatsapp = whatsappLink(
      context.telephone_number,
      context.country_code,
      context.country,
      context.citizen_country,
    );
    const common = { orderId, ...(whatsapp ? { whatsappLink: whatsapp } : {}) };
    if (stored) return { ...common, ...storedContent(stored, this.mail.brandingOf(context).sender) };
    const preview = await this.mail.composeApprovalMail(this.db, orderId);
    return {
      ...common,
      kind: 'approval',
      state: 'preview',
      from: preview.from,
      to: preview.to,
      subject: preview.subject,
      html: preview.html,
      text: preview.text,
      attachments: [],
    };
  }
}

function storedContent(m: StoredMail, siteSender: string): Omit<MailContent, 'orderId'> {
  return {
    mailId: m.id,
    kind: m.kind,
    state: m.state,
    from: m.from_address ?? siteSender,
    to: m.to_address,
    provider: m.provider,
    subject: m.subject,
    html: m.html,
    text: m.text,
    attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType })),
    attempts: m.attempts,
    ...(m.last_error ? { last_error: m.last_error } : {}),
    ...(m.provider_message_id ? { provider_message_id: m.provider_message_id } : {}),
    create_ts: isoTime(m.created_at),
    ...(m.sent_at ? { sent_at: isoTime(m.sent_at) } : {}),
  };
}
