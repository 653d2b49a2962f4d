// All SQL of the mail outbox (DESIGN §5): rows go in inside the caller's transaction; workers claim due rows
// with FOR UPDATE SKIP LOCKED and a lease (locked_until), then record the outcome only while they still hold it.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { MailKind, MailProvider, MailState } from '@eta/contracts';
import type { DB, MailAttachment } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

export interface NewMailRow {
  orderId: number | null;
  kind: MailKind;
  to: string;
  from: string;
  provider: MailProvider;
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
  documentId: number | null;
  /** A mail that cannot go out (no provider configured) is kept as failed, with the reason. */
  failed: string | null;
}

/** A new mail as the row the outbox stores (also inserted by the intake's one statement, intake.repository). */
export const mailRow = (m: NewMailRow) => ({
  order_id: m.orderId,
  kind: m.kind,
  to_address: m.to,
  from_address: m.from,
  provider: m.provider,
  subject: m.subject,
  html: m.html,
  text: m.text,
  attachments: m.attachments,
  document_id: m.documentId,
  ...(m.failed ? { state: 'failed' as const, last_error: m.failed } : {}),
});

export async function insertMail(db: Db, m: NewMailRow): Promise<{ id: number; state: MailState }> {
  const row = await db
    .insertInto('mails')
    .values({ ...mailRow(m), attachments: JSON.stringify(m.attachments) })
    .returning(['id', 'state'])
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), state: row.state };
}

export interface ClaimedMail {
  id: number;
  order_id: number | null;
  kind: MailKind;
  to_address: string;
  from_address: string | null;
  subject: string;
  html: string;
  text: string;
  provider: MailProvider;
  /** Including the attempt this claim is for. */
  attempts: number;
  attachments: MailAttachment[];
  /** The lease this worker holds; its outcome is recorded only while the row still carries it. */
  locked_until: Date;
  /** The row's key, carried by every attempt to the provider. */
  message_key: string;
  /**
   * An earlier attempt began and its outcome was never recorded (its worker died or hung past the lease): the
   * provider may have the mail already.
   */
  in_doubt: boolean;
}

/**
 * Who claims: the server, named the same across its restarts, and this start of it (a new id each time). One server
 * runs one process at a time, so a claim of its own from another start was made by a process that has died.
 */
export interface MailClaimant {
  server: string;
  boot: string;
}

/**
 * Claims up to `limit` due mails for one worker: queued, due, and not leased to a live worker. SKIP LOCKED lets
 * several workers claim side by side without waiting or taking the same row; the lease (truncated to
 * milliseconds so it survives the round trip as a JS Date) hands a row back if its worker dies mid-send. A lease
 * that names this server and another start of it is a dead process's: taken back at once, not after the lease
 * (issue 32); other servers' leases are left alone until they end.
 * Index: mails_outbox_idx (next_attempt_at, id) WHERE state = 'queued'.
 */
export async function claimDueMails(
  db: Db,
  limit: number,
  leaseMs: number,
  claimant: MailClaimant,
): Promise<ClaimedMail[]> {
  const { rows } = await sql<ClaimedMail>`
    UPDATE mails SET
      locked_until = date_trunc('milliseconds', now() + make_interval(secs => ${leaseMs / 1000})),
      attempts = mails.attempts + 1,
      sending_since = now(),
      claimed_by = ${claimant.server},
      claim_boot = ${claimant.boot}::uuid
    FROM (
      SELECT id, sending_since FROM mails
      WHERE state = 'queued' AND next_attempt_at <= now()
        AND (locked_until IS NULL OR locked_until <= now()
          OR (claimed_by = ${claimant.server} AND claim_boot <> ${claimant.boot}::uuid))
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED) AS due
    WHERE mails.id = due.id
    RETURNING mails.id, order_id, kind, to_address, from_address, subject, html, text, provider, attempts,
      attachments, locked_until, message_key, due.sending_since IS NOT NULL AS in_doubt`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), order_id: r.order_id === null ? null : Number(r.order_id) }));
}

/** The outcome of one attempt; false when the lease was lost meanwhile (another worker owns the row now). */
async function settle(
  db: Db,
  mail: Pick<ClaimedMail, 'id' | 'locked_until'>,
  change: {
    state?: 'sent' | 'failed';
    last_error: string | null;
    provider_message_id?: string | null;
    retryInMs?: number;
    /** The attempt's outcome is still unknown: the next claim asks the provider again. */
    stillInDoubt?: boolean;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('mails')
    .set({
      locked_until: null,
      ...(change.stillInDoubt ? {} : { sending_since: null }),
      last_error: change.last_error,
      ...(change.state ? { state: change.state } : {}),
      ...(change.state === 'sent'
        ? { sent_at: sql<Date>`now()`, provider_message_id: change.provider_message_id }
        : {}),
      ...(change.retryInMs !== undefined
        ? { next_attempt_at: sql<Date>`now() + make_interval(secs => ${change.retryInMs / 1000})` }
        : {}),
    })
    .where('id', '=', mail.id)
    .where('state', '=', 'queued')
    .where('locked_until', '=', mail.locked_until)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export const markMailSent = (db: Db, mail: ClaimedMail, providerMessageId: string | null) =>
  settle(db, mail, { state: 'sent', last_error: null, provider_message_id: providerMessageId });

export const markMailFailed = (db: Db, mail: ClaimedMail, error: string) =>
  settle(db, mail, { state: 'failed', last_error: error });

/** Back to queued, due again after the delay, with the reason this attempt failed. */
export const scheduleMailRetry = (db: Db, mail: ClaimedMail, error: string, delayMs: number) =>
  settle(db, mail, { last_error: error, retryInMs: delayMs });

/** Back to queued and still in doubt: the provider could not say whether an earlier attempt reached it. */
export const scheduleMailRecheck = (db: Db, mail: ClaimedMail, note: string, delayMs: number) =>
  settle(db, mail, { last_error: note, retryInMs: delayMs, stillInDoubt: true });

/**
 * Gives back the leases a stopping worker still holds, so another process claims the rows at once instead of after
 * the lease. `sending_since` stays: the next claim treats the row as in doubt and asks the provider before resending.
 * A row whose lease was lost meanwhile (another worker owns it) is left alone.
 */
export async function releaseMailClaims(db: Db, mails: Pick<ClaimedMail, 'id' | 'locked_until'>[]): Promise<number> {
  let released = 0;
  for (const mail of mails) {
    const result = await db
      .updateTable('mails')
      .set({ locked_until: null })
      .where('id', '=', mail.id)
      .where('state', '=', 'queued')
      .where('locked_until', '=', mail.locked_until)
      .executeTakeFirst();
    released += Number(result.numUpdatedRows);
  }
  return released;
}

/** A landing site as its mails show it (branding, sender, where its portal lives). */
export interface SiteMailBranding {
  site_key: string;
  display_name: string;
  logo_url: string;
  menu_links: { label: string; url: string }[];
  footer_contact: string;
  mail_sender: string;
  support_phone: string | null;
  portal_url: string | null;
}

/** What an approval or invoice mail needs to know about its order and the landing site it was bought on. */
export interface OrderMailContext extends SiteMailBranding {
  id: number;
  order_id: string;
  email: string;
  passport_first_name: string | null;
  passport_surname: string | null;
  first_name: string | null;
  surname: string | null;
  telephone_number: string | null;
  country_code: string | null;
  country: string | null;
  citizen_country: string | null;
  process_status: string;
  payment_status: string;
  /** Retention (issue 24): an erased order is delivered nothing. */
  erased_at: Date | null;
}

/** Index: orders.order_id (unique); landing_sites by primary key. */
export async function selectOrderMailContext(db: Db, orderId: string): Promise<OrderMailContext | undefined> {
  const row = await db
    .selectFrom('orders')
    .innerJoin('landing_sites', 'landing_sites.key', 'orders.landing_site')
    .select([
      'orders.id',
      'orders.order_id',
      'orders.email',
      'orders.passport_first_name',
      'orders.passport_surname',
      'orders.first_name',
      'orders.surname',
      'orders.telephone_number',
      'orders.country_code',
      'orders.country',
      'orders.citizen_country',
      'orders.process_status',
      'orders.payment_status',
      'orders.erased_at',
      'landing_sites.key as site_key',
      'landing_sites.display_name',
      'landing_sites.logo_url',
      'landing_sites.menu_links',
      'landing_sites.footer_contact',
      'landing_sites.mail_sender',
      'landing_sites.support_phone',
      'landing_sites.portal_url',
    ])
    .where('orders.order_id', '=', orderId)
    .executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}

/** The sender of an order's mails: its landing site's own, when it has one. */
export async function selectOrderSender(db: Db, orderKey: number): Promise<string | null> {
  const row = await db
    .selectFrom('orders')
    .innerJoin('landing_sites', 'landing_sites.key', 'orders.landing_site')
    .select('landing_sites.mail_sender')
    .where('orders.id', '=', orderKey)
    .executeTakeFirst();
  return row?.mail_sender || null;
}

export interface StoredMail {
  id: number;
  kind: MailKind;
  to_address: string;
  from_address: string | null;
  subject: string;
  html: string;
  text: string;
  provider: MailProvider;
  state: MailState;
  attempts: number;
  last_error: string | null;
  provider_message_id: string | null;
  attachments: MailAttachment[];
  created_at: Date;
  sent_at: Date | null;
}

const storedMailColumns = [
  'id',
  'kind',
  'to_address',
  'from_address',
  'subject',
  'html',
  'text',
  'provider',
  'state',
  'attempts',
  'last_error',
  'provider_message_id',
  'attachments',
  'created_at',
  'sent_at',
] as const;

/** One mail of an order (a mail id of another order is not found). */
export async function selectOrderMail(db: Db, orderKey: number, mailId: number): Promise<StoredMail | undefined> {
  const row = await db
    .selectFrom('mails')
    .select(storedMailColumns)
    .where('order_id', '=', orderKey)
    .where('id', '=', mailId)
    .executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}

/** The order's latest approval mail (first or resent). Index: mails_order_idx (order_id, created_at DESC). */
export async function selectLatestApprovalMail(db: Db, orderKey: number): Promise<StoredMail | undefined> {
  const row = await db
    .selectFrom('mails')
    .select(storedMailColumns)
    .where('order_id', '=', orderKey)
    .where('kind', 'in', ['approval', 'resend'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { ...row, id: Number(row.id) };
}
