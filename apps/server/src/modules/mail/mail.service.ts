// The mail outbox (DESIGN §5). A request that causes a mail queues it inside its own transaction (queueMail);
// the worker (plugins/mail-worker.ts) delivers due mails through the provider each row names, retrying
// failures with exponential backoff up to MAIL_MAX_ATTEMPTS. With no provider configured a mail is kept as
// failed, "not sent: no provider configured", so Email History still shows it. Templates: mail-templates.ts.
// A mail whose earlier attempt never had its outcome recorded (its worker died mid-send) is "in doubt": a provider
// that can be asked (SendGrid) is asked before it is sent again; SES cannot be, so there it is at-least-once.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import {
  MAIL_PROVIDERS,
  NO_PROVIDER_ERROR,
  type MailKind,
  type MailProvider,
  type MailState,
  type ProcessingType,
} from '@eta/contracts';
import type { DB, MailAttachment } from '../../db/schema.js';
import { outsideRequest } from '../../db/statement-budget.js';
import { isDatabaseUnavailable } from '../../db/connection-errors.js';
import type { MailConfig } from '../../lib/config.js';
import { AppError } from '../../lib/errors.js';
import type { DocumentStore } from '../../lib/storage/document-store.js';
import { selectCurrentDocument, type CurrentDocument } from '../../lib/delivery/current-document.repository.js';
import {
  claimDueMails,
  releaseMailClaims,
  insertMail,
  markMailFailed,
  markMailSent,
  scheduleMailRecheck,
  scheduleMailRetry,
  selectOrderMailContext,
  selectOrderSender,
  type ClaimedMail,
  type MailClaimant,
  type NewMailRow,
  type OrderMailContext,
  type SiteMailBranding,
} from './mail.repository.js';
import {
  absoluteLink,
  renderApprovalMail,
  renderConfirmationMail,
  renderInvoiceMail,
  trackOrderLink,
  type MailBranding,
  type RenderedMail,
} from './mail-templates.js';
import { MailSendError, type MailTransport, type MailTransports, type OutgoingMail } from './mail-transport.js';

type Db = Kysely<DB> | Transaction<DB>;

export interface QueueMailInput {
  /** orders.id of the order the mail belongs to (its Email History), or null. */
  orderId: number | null;
  kind: MailKind;
  to: string;
  provider: MailProvider;
  subject: string;
  html: string;
  text: string;
  /** Files in the document store sent with the mail. */
  attachments?: MailAttachment[];
  /** Default: the order's landing-site sender, else MAIL_FROM. */
  from?: string;
  /** The approved document an approval mail announces. */
  documentId?: number | null;
}

/** A mail composed for an order: who it goes to by default, from whom, and what it says. */
export interface ComposedMail extends RenderedMail {
  orderKey: number;
  orderId: string;
  to: string;
  from: string;
  context: OrderMailContext;
}

/**
 * This process as the outbox's claims name it (issue 32): its server, the same name across restarts, and a new id for
 * this start. On PostgreSQL a server is its host and port (two processes cannot listen on one port of one host);
 * the embedded database is open in one process at a time, so every earlier start's claims are dead ones.
 */
export function mailClaimant(opts: { embedded: boolean; host: string; port: number }): MailClaimant {
  return { server: opts.embedded ? 'embedded' : `${opts.host}:${opts.port}`, boot: randomUUID() };
}

/** Mails claimed per round; they are sent side by side, all within one lease. */
const BATCH_SIZE = 10;
/** How often an outcome is written again while the database is away. */
const RECORD_RETRY_MS = 500;
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

export class MailService {
  private readonly queuedListeners = new Set<() => void>();
  private readonly pendingKicks = new Set<NodeJS.Timeout>();
  /** The mails this process has claimed and not settled yet, with their leases. */
  private readonly claimed = new Map<number, ClaimedMail>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: MailConfig & {
      publicUrl: string;
      /** This process as its claims name it (mailClaimant): a restart of it takes back its earlier claims. */
      claimant: MailClaimant;
    },
    private readonly transports: MailTransports,
    private readonly store: DocumentStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The providers this server can send through, in the spec's order. */
  configuredProviders(): MailProvider[] {
    return MAIL_PROVIDERS.filter((p) => this.transports[p] !== undefined);
  }

  /** For mail no person chose a provider for: AWS when configured, else SendGrid; with neither, AWS (kept as not sent). */
  defaultProvider(): MailProvider {
    const configured = this.configuredProviders();
    return configured.includes('AWS') ? 'AWS' : (configured[0] ?? 'AWS');
  }

  /**
   * Refuses a provider that is not configured while another is (the person can pick that one). With none
   * configured the mail is accepted and kept as "not sent: no provider configured".
   */
  assertProvider(provider: MailProvider): void {
    const configured = this.configuredProviders();
    if (configured.length === 0 || configured.includes(provider)) return;
    throw new AppError(
      'PROVIDER_NOT_CONFIGURED',
      `${provider} is not configured on this server, so the mail cannot be sent through it. Please choose ${configured.join(' or ')}.`,
      { fields: { mailServiceProvider: `${provider} is not configured` } },
    );
  }

  /**
   * Puts a mail in the outbox inside the caller's transaction and returns its id. It goes out once the
   * transaction commits (the worker is woken shortly after; call kick() after commit to wake it at once).
   */
  async queueMail(trx: Db, mail: QueueMailInput): Promise<number> {
    return (await this.enqueue(trx, mail)).id;
  }

  /** queueMail, also telling the state the mail starts in (failed when no provider is configured). */
  async enqueue(trx: Db, mail: QueueMailInput): Promise<{ id: number; state: MailState; lastError: string | null }> {
    const from =
      mail.from ?? (mail.orderId !== null ? await selectOrderSender(trx, mail.orderId) : null) ?? this.config.from;
    const prepared = this.outboxRow({ ...mail, from });
    const row = await insertMail(trx, prepared);
    this.queued(prepared);
    return { ...row, lastError: prepared.failed };
  }

  /**
   * The outbox row of a mail whose sender is known, for a caller that inserts it in a statement of its own (the
   * intake); call queued() after. A provider that is not configured while another is, is refused here.
   */
  outboxRow(mail: QueueMailInput & { from: string }): NewMailRow {
    this.assertProvider(mail.provider);
    return {
      orderId: mail.orderId,
      kind: mail.kind,
      to: mail.to.trim(),
      from: mail.from,
      provider: mail.provider,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      attachments: mail.attachments ?? [],
      documentId: mail.documentId ?? null,
      failed: this.configuredProviders().length === 0 ? NO_PROVIDER_ERROR : null,
    };
  }

  /** Wakes the worker soon for a mail just put in the outbox (unless it is kept as not sent). */
  queued(row: NewMailRow): void {
    if (!row.failed) this.kickSoon();
  }

  /** Wakes the worker (after the transaction that queued mail has committed), outside the request that queued it. */
  kick(): void {
    outsideRequest(() => {
      for (const listener of this.queuedListeners) listener();
    });
  }

  /** The worker listens here; returns the unsubscribe function. */
  onQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  /** A kick just after the current transaction has most likely committed; the poll catches any it misses. */
  private kickSoon(): void {
    const timer = setTimeout(() => {
      this.pendingKicks.delete(timer);
      this.kick();
    }, 25);
    timer.unref();
    this.pendingKicks.add(timer);
  }

  /** Claims one batch of due mails and sends them; returns how many were claimed. */
  async deliverDue(limit = BATCH_SIZE): Promise<number> {
    const claimed = await claimDueMails(this.db, limit, this.config.leaseMs, this.config.claimant);
    for (const mail of claimed) this.claimed.set(mail.id, mail);
    const results = await Promise.allSettled(
      claimed.map((mail) => this.deliver(mail).finally(() => this.claimed.delete(mail.id))),
    );
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    return claimed.length;
  }

  private async deliver(mail: ClaimedMail): Promise<void> {
    const transport = this.transports[mail.provider];
    if (!transport) {
      const reason =
        this.configuredProviders().length === 0 ? NO_PROVIDER_ERROR : `not sent: ${mail.provider} is not configured`;
      await markMailFailed(this.db, mail, reason);
      return;
    }
    if (mail.in_doubt && !(await this.mayResend(transport, mail))) return;
    let outgoing: OutgoingMail;
    try {
      outgoing = {
        key: mail.message_key,
        from: mail.from_address ?? this.config.from,
        to: mail.to_address,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        attachments: await Promise.all(
          mail.attachments.map(async (a) => ({ ...a, content: await this.store.read(a.storageKey) })),
        ),
      };
    } catch (err) {
      // Only a missing file fails the mail for good; anything else (a data key the database could not give) is
      // the round's failure, and the mail is tried again.
      if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      await markMailFailed(this.db, mail, 'not sent: an attachment is missing from the document store');
      return;
    }
    let messageId: string | null;
    try {
      ({ messageId } = await transport.send(outgoing));
    } catch (err) {
      const failure = err instanceof MailSendError ? err : new MailSendError(String(err), false);
      // The reason only, never the error object: an SDK's error can carry the request with its credentials.
      this.log.warn(
        { mailId: mail.id, provider: mail.provider, attempt: mail.attempts, reason: failure.message },
        'mail not sent',
      );
      if (failure.permanent || mail.attempts >= this.config.maxAttempts) {
        await this.recordOutcome(mail, () => markMailFailed(this.db, mail, failure.message));
      } else {
        const delay = this.retryDelay(mail.attempts);
        await this.recordOutcome(mail, () => scheduleMailRetry(this.db, mail, failure.message, delay));
      }
      return;
    }
    const recorded = await this.recordOutcome(mail, () => markMailSent(this.db, mail, messageId));
    if (!recorded) this.log.warn({ mailId: mail.id }, 'mail sent after its lease ran out; another worker owns it');
  }

  /**
   * Writes an attempt's outcome, waiting out a database that is away (a restart, issue 32) while the claim's lease
   * lasts: a mail the provider took must not stay looking unsent, or it goes out again once the lease ends.
   */
  private async recordOutcome<T>(mail: ClaimedMail, write: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await write();
      } catch (err) {
        if (!isDatabaseUnavailable(err) || Date.now() + RECORD_RETRY_MS >= mail.locked_until.getTime()) throw err;
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS));
      }
    }
  }

  /**
   * For a mail in doubt: whether to send it again. Not when the provider says it has it (then it is recorded as
   * sent, with the provider's id), nor while the provider cannot tell for now (asked again after the retry delay,
   * until the attempts run out: a customer without their mail is worse than one with two).
   */
  private async mayResend(transport: MailTransport, mail: ClaimedMail): Promise<boolean> {
    const earlier = transport.findAccepted ? await transport.findAccepted(mail.message_key) : null;
    const log = { mailId: mail.id, provider: mail.provider, attempt: mail.attempts };
    if (earlier?.state === 'accepted') {
      this.log.info(log, 'mail found at its provider from an earlier attempt; not sent again');
      await markMailSent(this.db, mail, earlier.messageId);
      return false;
    }
    if (earlier?.state === 'unknown' && earlier.askAgain && mail.attempts < this.config.maxAttempts) {
      this.log.warn({ ...log, reason: earlier.reason }, 'cannot tell yet whether an earlier attempt was sent');
      const note = `not sent again yet: ${earlier.reason}; an earlier attempt may have reached ${mail.provider}`;
      await scheduleMailRecheck(this.db, mail, note, this.retryDelay(mail.attempts));
      return false;
    }
    if (earlier?.state !== 'absent') {
      const reason = earlier?.state === 'unknown' ? earlier.reason : `${mail.provider} cannot be asked`;
      this.log.warn({ ...log, reason }, 'sending again a mail whose earlier attempt may have been sent');
    }
    return true;
  }

  /** base, 2 × base, 4 × base … after the 1st, 2nd, 3rd failed attempt; at most an hour. */
  private retryDelay(attempts: number): number {
    return Math.min(this.config.retryBaseMs * 2 ** (attempts - 1), MAX_RETRY_DELAY_MS);
  }

  /** The site's branding as a mail shows it: absolute logo and links, its portal or the server's. */
  brandingOf(context: SiteMailBranding): MailBranding {
    const portalUrl = (context.portal_url ?? this.config.publicUrl).replace(/\/+$/, '');
    return {
      siteKey: context.site_key,
      displayName: context.display_name,
      logoUrl: (context.logo_url && absoluteLink(context.logo_url, portalUrl)) || '',
      sender: context.mail_sender || this.config.from,
      footerContact: context.footer_contact,
      supportPhone: context.support_phone,
      portalUrl,
      links: context.menu_links.flatMap((l) => {
        const url = absoluteLink(l.url, portalUrl);
        return url ? [{ label: l.label, url }] : [];
      }),
    };
  }

  /** The order and its landing site, or a 404 naming the order. */
  async orderContext(db: Db, orderId: string): Promise<OrderMailContext> {
    const context = await selectOrderMailContext(db, orderId);
    if (!context) throw new AppError('ORDER_NOT_FOUND', `Order ${orderId} was not found.`);
    return context;
  }

  /** The approval mail of an order (spec §2 "Customer approval-letter preview"), to its e-mail by default. */
  async composeApprovalMail(
    db: Db,
    orderId: string,
  ): Promise<ComposedMail & { document: CurrentDocument | undefined }> {
    const context = await this.orderContext(db, orderId);
    const branding = this.brandingOf(context);
    // The document it delivers (in an upload's transaction, the one just recorded): its number and validity.
    const document = await selectCurrentDocument(db, context.order_id);
    const rendered = renderApprovalMail(branding, {
      orderId: context.order_id,
      applicantName: applicantName(context),
      approval: document && { applicationNumber: document.application_number, expiresOn: document.expires_on },
    });
    return { ...rendered, ...addressing(context, branding), context, document };
  }

  /** The invoice mail of an order; modules/invoices attaches the PDF and queues it. */
  async composeInvoiceMail(
    db: Db,
    orderId: string,
    invoice: { invoiceNumber: string; amountText: string },
  ): Promise<ComposedMail> {
    const context = await this.orderContext(db, orderId);
    const branding = this.brandingOf(context);
    const rendered = renderInvoiceMail(branding, {
      orderId: context.order_id,
      customerName: applicantName(context),
      ...invoice,
    });
    return { ...rendered, ...addressing(context, branding), context };
  }

  /**
   * The order-confirmation mail of a new order, from what the intake call holds already (no read of the order):
   * the order id, what was bought and the track-order link, branded for its landing site.
   */
  composeConfirmationMail(
    site: SiteMailBranding,
    order: { orderId: string; applicantName: string; processingType: ProcessingType; processingDate: string | null },
  ): RenderedMail & { from: string; trackingUrl: string } {
    const branding = this.brandingOf(site);
    return {
      ...renderConfirmationMail(branding, order),
      from: branding.sender,
      trackingUrl: trackOrderLink(branding, order.orderId),
    };
  }

  /** The customer portal's page of an order, on its landing site's portal and with its branding. */
  trackingUrl(site: SiteMailBranding, orderId: string): string {
    return trackOrderLink(this.brandingOf(site), orderId);
  }

  /** Hands the mails still being sent back to the outbox (shutdown: another process takes them at once). */
  async releaseClaims(): Promise<number> {
    const held = [...this.claimed.values()];
    this.claimed.clear();
    return held.length === 0 ? 0 : releaseMailClaims(this.db, held);
  }

  close(): void {
    for (const timer of this.pendingKicks) clearTimeout(timer);
    this.pendingKicks.clear();
    this.queuedListeners.clear();
    for (const transport of Object.values(this.transports)) transport.close?.();
  }
}

/** The applicant as their passport names them (the representative's name when that is all there is). */
export const applicantName = (c: OrderMailContext): string =>
  [c.passport_first_name ?? c.first_name, c.passport_surname ?? c.surname].filter(Boolean).join(' ');

const addressing = (c: OrderMailContext, b: MailBranding) => ({
  orderKey: c.id,
  orderId: c.order_id,
  to: c.email,
  from: b.sender,
});
