// Payments through the gateways (issue 21): a payment claimed at intake is checked with its gateway before the
// order is queued, a payment the gateway could not be asked about is checked again with backoff, and "Refunded it"
// refunds through the gateway with an idempotency key derived from the order, so a retried click or a crash never
// refunds twice. Orders whose payment no gateway confirmed (demo data, a gateway not configured) keep today's rules.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { IntakePaymentCheck, IntakePayment } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { moneyText } from '../../lib/pdf/format.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { OrderEventsPublisher } from '../events/order-events.publisher.js';
import type { PaymentGateways } from './gateways.js';
import type { PaymentCheck, PaymentGateway, RefundResult } from './payment-gateway.js';
import {
  insertSystemRemark,
  lockDueRecheck,
  recordGatewayStatus,
  selectGatewayId,
  updateCheckedPayment,
} from './payments.repository.js';

/** The payment columns an intake order is stored with, and the line its timeline starts with. */
export interface IntakePaymentVerdict {
  columns: {
    payment_status: 'Success' | 'Pending' | 'Failed';
    payment_verified_at: Date | null;
    charge_id: string | null;
    payment_check_due_at: Date | null;
  };
  /** The gateway's answer for the order's timeline; null when no gateway was asked. */
  remark: { by: string; text: string } | null;
  answer: IntakePaymentCheck;
}

/** Re-checks of an unreachable gateway: 1, 2, 4 ... minutes, at most 6 hours apart, for up to 3 days. */
const RECHECK_BASE_MS = 60_000;
const RECHECK_MAX_MS = 6 * 3600_000;
const RECHECK_ATTEMPTS = 20;
const RECHECK_BATCH = 50;

export const recheckDelayMs = (attempt: number) => Math.min(RECHECK_MAX_MS, RECHECK_BASE_MS * 2 ** (attempt - 1));

/** Amounts as the gateways' answers and the orders say them, the currency in capitals either way. */
const money = (cents: number, currency: string) => moneyText(cents, currency.toUpperCase());

/** What a gateway's answer makes of a claimed payment. */
function judge(
  check: PaymentCheck,
  claimed: { amount_cents: number; currency: string },
): {
  status: 'Success' | 'Pending' | 'Failed';
  verified: boolean;
  message: string;
  recheck: boolean;
} {
  switch (check.state) {
    case 'succeeded': {
      const same = check.amountCents === claimed.amount_cents && check.currency === claimed.currency.toUpperCase();
      return same
        ? { status: 'Success', verified: true, message: check.message, recheck: false }
        : {
            status: 'Pending',
            verified: false,
            recheck: false,
            message: `${check.message} It was for ${money(check.amountCents, check.currency)}, not ${money(claimed.amount_cents, claimed.currency)} as the order says: kept out of the queues until someone checks it.`,
          };
    }
    case 'pending':
      return { status: 'Pending', verified: false, message: check.message, recheck: true };
    case 'failed':
      return { status: 'Failed', verified: false, message: check.message, recheck: false };
    case 'unreachable':
      return {
        status: 'Pending',
        verified: false,
        recheck: true,
        message: `${check.message} The payment is checked again shortly.`,
      };
  }
}

export class PaymentsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly gateways: PaymentGateways,
    private readonly log: FastifyBaseLogger,
    private readonly orderEvents: OrderEventsPublisher,
  ) {}

  /** The adapter that can check a payment of this gateway, or null (not configured, or no such check). */
  private verifier(gatewayName: string | null): PaymentGateway | null {
    const gateway = gatewayName ? this.gateways.get(gatewayName) : undefined;
    return gateway?.configured && gateway.supports.verify ? gateway : null;
  }

  /**
   * The payment of an intake order as its gateway sees it. A gateway that is not configured here cannot be asked:
   * the landing site's word stands (as before issue 21) and the answer says it was not verified.
   */
  async checkIntakePayment(gatewayName: string, payment: IntakePayment): Promise<IntakePaymentVerdict> {
    const gateway = this.verifier(gatewayName);
    if (!gateway || !payment.transaction_id) {
      const why = !payment.transaction_id
        ? 'no transaction id was given'
        : this.gateways.get(gatewayName)?.configured
          ? `the desk does not check ${gatewayName} payments`
          : `${gatewayName} is not configured on this server`;
      return {
        columns: {
          payment_status: payment.status,
          payment_verified_at: null,
          charge_id: null,
          payment_check_due_at: null,
        },
        remark: null,
        answer: { status: payment.status, verified: false, message: `Payment taken as sent: ${why}.` },
      };
    }
    const check = await gateway.checkPayment(payment.transaction_id);
    if (check.state === 'unreachable') await this.noteError(gateway.name, check.message);
    const verdict = judge(check, payment);
    return {
      columns: {
        payment_status: verdict.status,
        payment_verified_at: verdict.verified ? new Date() : null,
        charge_id: check.state === 'succeeded' ? check.chargeId : null,
        payment_check_due_at: verdict.recheck ? new Date(Date.now() + recheckDelayMs(1)) : null,
      },
      remark: { by: gateway.name, text: verdict.message },
      answer: { status: verdict.status, verified: verdict.verified, message: verdict.message },
    };
  }

  /**
   * Checks again the payments whose gateway could not be asked (or said "not yet"), oldest due first; each order
   * is locked while its answer is written (SKIP LOCKED: two processes never check one order at once). Returns how
   * many were settled.
   */
  async recheckDuePayments(): Promise<number> {
    let settled = 0;
    for (let i = 0; i < RECHECK_BATCH; i += 1) {
      const done = await this.db.transaction().execute(async (trx) => {
        const order = await lockDueRecheck(trx);
        if (!order) return null;
        const gateway = this.verifier(order.gateway_name);
        const attempt = order.payment_check_attempts + 1;
        const check: PaymentCheck =
          gateway && order.transaction_id
            ? await gateway.checkPayment(order.transaction_id)
            : { state: 'unreachable', message: `${order.gateway_name} is not configured on this server.` };
        const verdict = judge(check, { amount_cents: order.amount_cents, currency: order.currency });
        const giveUp = verdict.recheck && attempt >= RECHECK_ATTEMPTS;
        await updateCheckedPayment(trx, order.id, {
          payment_status: verdict.status,
          payment_verified_at: verdict.verified ? new Date() : null,
          ...(check.state === 'succeeded' ? { charge_id: check.chargeId } : {}),
          payment_check_attempts: attempt,
          payment_check_due_at: verdict.recheck && !giveUp ? new Date(Date.now() + recheckDelayMs(attempt + 1)) : null,
        });
        const text = giveUp
          ? `${verdict.message} Gave up after ${attempt} checks: check the payment in ${order.gateway_name}'s dashboard.`
          : verdict.message;
        await insertSystemRemark(trx, { orderId: order.id, by: order.gateway_name, remark: text });
        if (verdict.status !== order.payment_status) {
          await writeAudit(trx, { id: null, name: order.gateway_name, ip: '127.0.0.1' }, [
            {
              action: 'order.payment-checked',
              orderId: order.id,
              target: order.order_id,
              before: { payment_status: order.payment_status },
              after: { payment_status: verdict.status, verified: verdict.verified, attempt },
            },
          ]);
        }
        return {
          ...verdict,
          unreachable: check.state === 'unreachable' ? (gateway?.name ?? null) : null,
          message: check.message,
          orderKey: order.id,
          checkedBy: order.gateway_name,
        };
      });
      if (!done) break;
      // The payment's state decides which queues the order is in.
      this.orderEvents.changedByKey([done.orderKey], { id: null, name: done.checkedBy });
      if (done.unreachable) await this.noteError(done.unreachable, done.message);
      if (!done.recheck) settled += 1;
    }
    return settled;
  }

  /**
   * The gateway "Refunded it" must refund this order through, or null (it moves as before). A gateway that checks
   * payments refunds what it confirmed; one that cannot check them (Authorize.Net) refunds, once configured, any
   * order naming one of its transactions.
   */
  refundsThroughGateway(order: {
    gateway_name: string | null;
    payment_verified_at: Date | null;
    transaction_id: string | null;
  }): PaymentGateway | null {
    const gateway = order.gateway_name ? this.gateways.get(order.gateway_name) : undefined;
    if (!gateway?.supports.refund) return null;
    if (gateway.supports.verify) return order.payment_verified_at ? gateway : null;
    return gateway.configured && order.transaction_id ? gateway : null;
  }

  /** Refunds one order's payment; the key is the order's, so a second try answers the first refund. */
  async refund(
    gateway: PaymentGateway,
    order: { order_id: string; transaction_id: string | null; charge_id: string | null },
  ): Promise<RefundResult> {
    if (!gateway.configured) {
      return {
        ok: false,
        reason: `${gateway.name} is not configured on this server: refund it in ${gateway.name}'s dashboard`,
        retry: false,
      };
    }
    if (!order.transaction_id) return { ok: false, reason: 'the order has no transaction id', retry: false };
    const result = await gateway.refund(
      { transactionId: order.transaction_id, chargeId: order.charge_id },
      `refund-${order.order_id}`,
    );
    if (!result.ok && result.retry) await this.noteError(gateway.name, result.reason);
    return result;
  }

  /** The gateway page's "last error". */
  async noteError(gatewayName: string, message: string): Promise<void> {
    const id = await selectGatewayId(this.db, gatewayName);
    if (id !== undefined) await recordGatewayStatus(this.db, id, { error: message });
    this.log.warn({ gateway: gatewayName, reason: message }, 'payment gateway call failed');
  }
}
