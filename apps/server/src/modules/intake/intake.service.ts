// The landing sites' front door (issue 20, DESIGN §4): a paid application comes in with the site's intake key and
// an Idempotency-Key, is checked field by field, and becomes an order in ONE transaction with its signature
// (stored first, removed again if the transaction fails), its order-confirmation mail in the outbox and its audit
// row; the folder counters move with it (trigger). The same key with the same body answers the same order.
import { createHash, randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  IDEMPOTENCY_KEY_PATTERN,
  INTAKE_MESSAGES,
  plural,
  type FieldIssue,
  type IntakeOrderBody,
  type IntakeOrderResult,
  type ProcessStatus,
} from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { outsideRequest } from '../../db/statement-budget.js';
import { AppError } from '../../lib/errors.js';
import type { DocumentStore } from '../../lib/storage/document-store.js';
import { WindowCounters, type ExpiringCounters } from '../../lib/limits/window-counters.js';
import { auditRow } from '../audit/audit.repository.js';
import { mailRow } from '../mail/mail.repository.js';
import type { MailService } from '../mail/mail.service.js';
import type { OrderEventsPublisher } from '../events/order-events.publisher.js';
import type { IntakePaymentVerdict, PaymentsService } from '../payments/payments.service.js';
import type { OrderFieldsCipher } from '../personal-data/order-fields.js';
import { applicationColumns, checkApplication, readSignature } from './application.js';
import { parseIntakeKey, secretMatches } from './intake-keys.js';
import {
  insertIntake,
  isTakenOrderId,
  purgeIntakeRequests,
  selectIntakeKey,
  selectIntakeContext,
  touchIntakeKey,
  type IntakeKeyRow,
  type IntakeSiteRow,
} from './intake.repository.js';

/** Where an application comes from: a landing site proven by its key, or an operator's import file. */
export interface IntakeCaller {
  site: string;
  /** The intake key that proved the site; null for the CLI import, which runs on the server itself. */
  keyId: string | null;
  /** Who the audit trail names as the actor. */
  actor: string;
}

export interface IntakeLimits {
  /** Orders per second per key, then 429. */
  ordersPerSecond: number;
  /** Requests with a wrong key per client address per 15 minutes, then 429. */
  failuresPerAddress: number;
}

export interface IntakeOutcome {
  /** true: a new order (201); false: the same request again (200). */
  created: boolean;
  result: IntakeOrderResult;
}

/** Idempotency keys are kept this long (at least 24 hours, as promised to the landing sites). */
export const IDEMPOTENCY_HOURS = 72;
const FAILURE_WINDOW_MS = 15 * 60_000;
/** How long a key's row is reused within a process (a grace period's end counts from the row, not the cache). */
const KEY_CACHE_MS = 5_000;
const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);
/** Order ids of intake orders: random, from a range the demo data (ETA-200000001 on) does not reach. */
const FIRST_INTAKE_NUMBER = 300_000_000;
const ORDER_ID_TRIES = 5;

class RacedReplay extends Error {}

/** The body's fingerprint: its JSON with keys sorted, so the same application in another key order is the same. */
export function bodyFingerprint(body: unknown): Buffer {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
          )
        : value;
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest();
}

const applicantName = (b: IntakeOrderBody) => [b.passport_first_name, b.passport_surname].filter(Boolean).join(' ');

export class IntakeService {
  private readonly usesRecorded = new Map<string, number>();
  private readonly keys = new Map<string, { row: IntakeKeyRow; until: number }>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: DocumentStore,
    private readonly mail: MailService,
    private readonly payments: PaymentsService,
    private readonly orderEvents: OrderEventsPublisher,
    /** Seals the application's sensitive fields before they are stored (issue 24). */
    private readonly personalFields: OrderFieldsCipher,
    private readonly limits: IntakeLimits,
    private readonly log: FastifyBaseLogger,
    /** Orders per key per second (key `r|<key id>`) and wrong keys per address (`f|<address>`). */
    private readonly counters: ExpiringCounters = new WindowCounters(),
  ) {}

  /**
   * The landing site behind `Authorization: Bearer <key>`: a key that is missing, malformed, unknown, wrong or
   * retired is a 401 (the same answer for each). Wrong keys are limited per client address: once an address is past
   * its limit every request from it is a 429, a right key's too, so guessing cannot go on. A right key's request is
   * counted against the key's rate (orders per second) in the same statement that reads the address's wrong keys;
   * past either, a 429 before any work is done for it. The key's row is cached (keyRow), so a right key costs one
   * round trip.
   */
  async authenticate(authorization: string | undefined, ip: string): Promise<IntakeCaller> {
    const now = Date.now();
    const failuresKey = { key: `f|${ip}`, windowMs: FAILURE_WINDOW_MS };
    const presented = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
    const parsed = presented ? parseIntakeKey(presented) : null;
    const row = parsed ? await this.keyRow(parsed.id, now) : undefined;
    const retired = row?.retires_at !== null && row?.retires_at !== undefined && row.retires_at.getTime() <= now;
    if (!parsed || !row || retired || !secretMatches(row.secret_sha256, parsed.secretSha256)) {
      // Counted first: past the limit this wrong key is refused as the ones before it were.
      const failures = await this.counters.add(failuresKey, now);
      this.assertFewFailures(failures.count - 1, failures.resetAt, now);
      throw new AppError(
        'UNAUTHORIZED',
        "A valid intake key is required: send the landing site's key as Authorization: Bearer <key>.",
      );
    }
    const [rate, failures] = await this.counters.addAndRead({ key: `r|${row.id}`, windowMs: 1000 }, failuresKey, now);
    this.assertFewFailures(failures.count, failures.resetAt, now);
    if (rate.count > this.limits.ordersPerSecond) {
      throw new AppError(
        'TOO_MANY_ATTEMPTS',
        `Too many orders from this landing site: at most ${this.limits.ordersPerSecond} per second. Please retry in a second.`,
        { retryAfterSeconds: 1 },
      );
    }
    this.recordUse(row.id, now);
    return { keyId: row.id, site: row.landing_site, actor: `Landing site ${row.landing_site}` };
  }

  /** A 429 for an address that sent `failures` wrong keys (before this request) when that is its limit or more. */
  private assertFewFailures(failures: number, resetAt: number, now: number): void {
    if (failures < this.limits.failuresPerAddress) return;
    const wait = Math.max(1, Math.ceil((resetAt - now) / 1000));
    throw new AppError(
      'TOO_MANY_ATTEMPTS',
      `Too many requests with a wrong intake key. Please wait ${Math.ceil(wait / 60)} minutes.`,
      { retryAfterSeconds: wait },
    );
  }

  /**
   * A key's row, re-read at most KEY_CACHE_MS old (like a staff session's row): a rotation drops it at once in every
   * process (forgetKeys, on an 'eta_intake_keys' event). Unknown ids are not cached (no memory for guesses).
   */
  private async keyRow(id: string, now: number): Promise<IntakeKeyRow | undefined> {
    const cached = this.keys.get(id);
    if (cached && cached.until > now) return cached.row;
    const row = await selectIntakeKey(this.db, id);
    if (row) {
      if (this.keys.size >= 1000) this.keys.clear();
      this.keys.set(id, { row, until: now + KEY_CACHE_MS });
    } else this.keys.delete(id);
    return row;
  }

  /** Called when a site's keys change (a rotation): the next request reads them again. */
  forgetKeys(): void {
    this.keys.clear();
  }

  /** A key's last use is written at most once a minute from this process (not one write per order). */
  private recordUse(keyId: string, now: number): void {
    if (now - (this.usesRecorded.get(keyId) ?? 0) < 60_000) return;
    if (this.usesRecorded.size > 1000) this.usesRecorded.clear();
    this.usesRecorded.set(keyId, now);
    outsideRequest(() => touchIntakeKey(this.db, keyId)).catch((err: unknown) =>
      this.log.warn({ err }, 'could not record an intake key use'),
    );
  }

  async createOrder(
    caller: IntakeCaller,
    idempotencyKey: string | undefined,
    raw: unknown,
    ip: string,
  ): Promise<IntakeOutcome> {
    const named = (raw as { landing_site?: unknown } | null)?.landing_site;
    if (typeof named === 'string' && named.trim() && named.trim() !== caller.site) {
      throw new AppError(
        'FORBIDDEN',
        `This key belongs to landing site "${caller.site}"; it cannot place orders for "${named.trim()}".`,
      );
    }
    if (!idempotencyKey || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new AppError('VALIDATION_FAILED', INTAKE_MESSAGES.idempotencyKeyRequired, {
        issues: [{ field: 'Idempotency-Key', message: INTAKE_MESSAGES.idempotencyKeyRequired }],
      });
    }
    const fingerprint = bodyFingerprint(raw);
    const application = raw as { consent?: { legal_version?: unknown }; payment?: { gateway?: unknown } } | null;
    const legalVersion = application?.consent?.legal_version;
    const gatewayName = application?.payment?.gateway;
    const context = {
      site: caller.site,
      idempotencyKey,
      legalVersion: Number.isInteger(legalVersion) ? (legalVersion as number) : null,
      gatewayName: typeof gatewayName === 'string' ? gatewayName : '',
    };
    // Read while the body is checked; a replay is still answered as the first request was, whatever the checks find.
    const reading = selectIntakeContext(this.db, context);
    reading.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
    const checked = checkApplication(raw, new Date());
    const issues: FieldIssue[] = [...checked.issues];
    const body = checked.ok ? checked.body : undefined;
    const signature = body ? await readSignature(body.signature) : undefined;
    const site = await reading;
    if (!site) throw new AppError('NOT_FOUND', `There is no landing site "${caller.site}".`);
    if (site.earlier_order_id) return this.replayed(site, fingerprint);
    if (signature && 'field' in signature) issues.push(signature);
    if (body && !site.legal_version_exists) {
      issues.push({
        field: 'consent.legal_version',
        message: `Landing site "${caller.site}" has no legal texts version ${body.consent.legal_version}; its current version is ${site.current_legal_version}.`,
      });
    }
    if (body && site.gateway_id === null) {
      issues.push({
        field: 'payment.gateway',
        message: `There is no payment gateway named "${body.payment.gateway}".`,
      });
    }
    if (!body || !signature || 'field' in signature || issues.length > 0) {
      throw new AppError(
        'VALIDATION_FAILED',
        `The application has ${plural(issues.length, 'problem')}: ${issues.map((i) => i.field).join(', ')}.`,
        { issues },
      );
    }

    // The gateway is asked while the signature is stored (neither waits for the other: the store's sync overlaps the
    // gateway's answer); a gateway that cannot be reached leaves the order Pending, checked again later.
    const [asked, put] = await Promise.allSettled([
      this.payments.checkIntakePayment(site.gateway_name ?? body.payment.gateway, body.payment),
      this.store.put(signature.content, { extension: signature.extension }),
    ]);
    if (asked.status === 'rejected' || put.status === 'rejected') {
      if (put.status === 'fulfilled') await this.removeSignature(put.value.key);
      throw asked.status === 'rejected' ? asked.reason : (put as PromiseRejectedResult).reason;
    }
    const payment = asked.value;
    const stored = put.value;
    try {
      const { result, version, status } = await this.insert(
        caller,
        idempotencyKey,
        fingerprint,
        body,
        site,
        stored.key,
        ip,
        payment,
      );
      // The statement returned the order's version and status: the live desk is told without reading them again.
      this.orderEvents.changed([{ orderId: result.order_id, version, status }], { id: null, name: caller.site });
      return { created: true, result };
    } catch (err) {
      await this.removeSignature(stored.key);
      if (err instanceof RacedReplay) {
        const raced = await selectIntakeContext(this.db, context);
        if (raced?.earlier_order_id) return this.replayed(raced, fingerprint);
      }
      throw err;
    }
  }

  /** Removes the signature of an application that made no order (logged when that fails too). */
  private async removeSignature(key: string): Promise<void> {
    await this.store.delete(key).catch((cleanup: unknown) => {
      this.log.error({ err: cleanup, key }, 'could not remove the signature of a failed intake');
    });
  }

  /** The order an earlier request with this Idempotency-Key made (200), or a 409 when its body was another. */
  private replayed(earlier: IntakeSiteRow, fingerprint: Buffer): IntakeOutcome {
    const orderId = earlier.earlier_order_id!;
    if (!Buffer.from(earlier.earlier_body_sha256!).equals(fingerprint)) {
      throw new AppError('IDEMPOTENCY_CONFLICT', INTAKE_MESSAGES.idempotencyConflict, { data: { order_id: orderId } });
    }
    const payment = earlier.earlier_payment;
    return {
      created: false,
      result: {
        order_id: orderId,
        tracking_url: this.mail.trackingUrl(earlier, orderId),
        ...(payment ? { payment } : {}),
      },
    };
  }

  /**
   * The order, its request row, its confirmation mail and its audit row: one statement (intake.repository). Returns
   * the answer and the new order's version and status.
   */
  private async insert(
    caller: IntakeCaller,
    idempotencyKey: string,
    fingerprint: Buffer,
    body: IntakeOrderBody,
    site: IntakeSiteRow,
    signatureKey: string,
    ip: string,
    payment: IntakePaymentVerdict,
  ): Promise<{ result: IntakeOrderResult; version: number; status: ProcessStatus }> {
    const columns = applicationColumns(body);
    const legalVersion = body.consent.legal_version ?? site.current_legal_version;
    for (let attempt = 1; ; attempt += 1) {
      const orderId = `ETA-${randomInt(FIRST_INTAKE_NUMBER, 1_000_000_000)}`;
      const composed = this.mail.composeConfirmationMail(site, {
        orderId,
        applicantName: applicantName(body),
        processingType: body.processing_type,
        processingDate: columns.processing_date ?? null,
      });
      const mail = this.mail.outboxRow({
        orderId: null,
        kind: 'confirmation',
        to: body.email,
        provider: this.mail.defaultProvider(),
        from: composed.from,
        subject: composed.subject,
        html: composed.html,
        text: composed.text,
      });
      const mailColumns = mailRow(mail);
      const auditColumns = auditRow(
        { id: null, name: caller.actor, ip },
        {
          action: 'order.intake',
          target: orderId,
          after: {
            landing_site: caller.site,
            intake_key: caller.keyId,
            idempotency_key: idempotencyKey,
            processing_type: body.processing_type,
            payment_status: payment.columns.payment_status,
            payment: { claimed: body.payment.status, verified: payment.answer.verified },
            legal_version: legalVersion,
            // Not the address: the order's one confirmation mail (its mails row) holds it, and erasure blanks it there.
            mail: { kind: 'confirmation', provider: mail.provider },
          },
        },
      );
      try {
        const inserted = await insertIntake(this.db, {
          request: { site: caller.site, idempotencyKey, bodySha256: fingerprint, payment: payment.answer },
          order: {
            ...columns,
            // The sealed fields are bound to this order id: drawn again after a clash, they are sealed again.
            ...this.personalFields.seal(orderId, columns),
            order_id: orderId,
            email: columns.email!,
            landing_site: caller.site,
            gateway_id: site.gateway_id,
            legal_version: legalVersion,
            intake_key_id: caller.keyId,
            customer_sign: signatureKey,
            ...payment.columns,
          },
          mail: mailColumns,
          audit: auditColumns,
          remark: payment.remark && { remark_name: payment.remark.by, remark: payment.remark.text },
        });
        if (inserted.raced) throw new RacedReplay();
        this.mail.queued(mail);
        return {
          result: { order_id: orderId, tracking_url: composed.trackingUrl, payment: payment.answer },
          version: inserted.version,
          status: inserted.status,
        };
      } catch (err) {
        if (!isTakenOrderId(err) || attempt === ORDER_ID_TRIES) throw err;
      }
    }
  }

  /** Forgets idempotency keys past their keeping time; returns how many. */
  purgeIdempotencyKeys(): Promise<number> {
    return purgeIntakeRequests(this.db, IDEMPOTENCY_HOURS);
  }
}
