// Webhooks from the gateways (issue 21). The signature is checked on the raw body by the gateway's adapter before
// anything is read; a bad one changes nothing but the gateway page's "last webhook" line. A verified event is
// stored once by its id and handled in one transaction (for a dispute: one statement) with all its effects (order status, dispute and its
// history, a system remark, the audit row; the folder counters move by trigger), so a replay or two copies racing
// do it once. Events for payments the desk does not know are kept as 'unmatched' and shown to Admins.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { moneyText } from '../../lib/pdf/format.js';
import { auditRow, type Actor } from '../audit/audit.repository.js';
import { changedBy, type OrderEventsPublisher } from '../events/order-events.publisher.js';
import type { PaymentGateways } from './gateways.js';
import { GatewayError, WebhookSignatureError, type GatewayEvent, type WebhookRequest } from './payment-gateway.js';
import {
  applyDisputeEvent,
  insertEvent,
  insertEventTrail,
  isStoredEvent,
  lockOrderByPayment,
  recordGatewayStatus,
  selectGatewayId,
  updatePaymentOrder,
  type PaymentOrder,
} from './payments.repository.js';

export interface WebhookOutcome {
  duplicate: boolean;
  outcome: 'applied' | 'ignored' | 'unmatched';
}

type Settled = { outcome: WebhookOutcome['outcome']; orderId: number | null; note: string };

/** This event was stored before: what its transaction did is undone. */
class Replayed extends Error {}

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : 'not given');

/** The gateway page's "last webhook" line is written at most this often per gateway and kind from a process. */
const STATUS_EVERY_MS = 5_000;

export class WebhooksService {
  private readonly gatewayIds = new Map<string, number>();
  private readonly statusNoted = new Map<string, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly gateways: PaymentGateways,
    private readonly log: FastifyBaseLogger,
    private readonly orderEvents: OrderEventsPublisher,
  ) {}

  private async gatewayId(name: string): Promise<number> {
    let id = this.gatewayIds.get(name);
    if (id === undefined) {
      id = await selectGatewayId(this.db, name);
      if (id === undefined) throw new AppError('NOT_FOUND', `There is no payment gateway named ${name}.`);
      this.gatewayIds.set(name, id);
    }
    return id;
  }

  async receive(gatewayName: string, request: WebhookRequest, ip: string): Promise<WebhookOutcome> {
    const gateway = this.gateways.get(gatewayName);
    if (!gateway?.supports.webhooks) throw new AppError('NOT_FOUND', `${gatewayName} sends no webhooks here.`);
    const gatewayId = await this.gatewayId(gateway.name);
    let event: GatewayEvent;
    try {
      event = await gateway.verifyWebhook(request);
    } catch (err) {
      if (err instanceof GatewayError) {
        this.log.warn(
          { gateway: gateway.name, reason: err.message },
          'webhook not verified: the gateway was not reached',
        );
        await recordGatewayStatus(this.db, gatewayId, { error: err.message });
        throw new AppError('GATEWAY_ERROR', `${err.message} Send it again later.`);
      }
      if (!(err instanceof WebhookSignatureError)) throw err;
      this.log.warn({ gateway: gateway.name, ip, reason: err.message }, 'webhook refused: signature did not hold');
      await this.noteStatus(gatewayId, false, `A webhook was refused: ${err.message}`);
      throw new AppError('VALIDATION_FAILED', `The webhook's signature did not hold: ${err.message}`);
    }
    const actor: Actor = { id: null, name: gateway.name, ip };
    const result = await (event.effect.kind === 'dispute'
      ? this.disputed(gatewayId, event, event.effect, actor)
      : this.inTransaction(gatewayId, event, actor));
    await this.noteStatus(gatewayId, true);
    if (result.outcome === 'unmatched') {
      this.log.warn({ gateway: gateway.name, event: event.id, type: event.type }, 'webhook for an unknown payment');
    }
    return result;
  }

  /**
   * The gateway page's last webhook, after the event's own transaction and at most every few seconds: one row per
   * gateway written by every webhook inside its transaction made the webhooks wait on each other.
   */
  private async noteStatus(gatewayId: number, verified: boolean, error?: string): Promise<void> {
    const key = `${gatewayId}:${verified}`;
    const now = Date.now();
    if (now - (this.statusNoted.get(key) ?? 0) < STATUS_EVERY_MS) return;
    this.statusNoted.set(key, now);
    await recordGatewayStatus(this.db, gatewayId, { webhookVerified: verified, ...(error ? { error } : {}) }).catch(
      (err: unknown) => this.log.warn({ err }, 'could not record the last webhook'),
    );
  }

  /**
   * Refunds and events the desk does not use, in a transaction: the effects first, the event's row last, so a
   * replay's insert finds the row and the whole transaction is rolled back; a copy racing this one waits on the
   * order's lock, then on the event's unique key, and is rolled back.
   */
  private async inTransaction(gatewayId: number, event: GatewayEvent, actor: Actor): Promise<WebhookOutcome> {
    const applied: { orderKey?: number } = {};
    const result = await this.db
      .transaction()
      .execute(async (trx) => {
        const settled = await this.apply(trx, gatewayId, event, actor);
        const stored = await insertEvent(trx, {
          gatewayId,
          eventId: event.id,
          type: event.type,
          payload: event.payload,
          ...settled,
        });
        if (stored === undefined) throw new Replayed();
        if (settled.outcome === 'applied' && settled.orderId !== null) applied.orderKey = settled.orderId;
        return { duplicate: false, outcome: settled.outcome };
      })
      .catch((err: unknown) => {
        if (err instanceof Replayed) return { duplicate: true, outcome: 'ignored' as const };
        throw err;
      });
    if (applied.orderKey !== undefined && !result.duplicate) {
      this.orderEvents.changedByKey([applied.orderKey], changedBy(actor));
    }
    return result;
  }

  private async apply(trx: Transaction<DB>, gatewayId: number, event: GatewayEvent, actor: Actor): Promise<Settled> {
    const { effect } = event;
    if (effect.kind !== 'refund')
      return { outcome: 'ignored', orderId: null, note: `${event.type} is not used by the desk.` };
    const order = await lockOrderByPayment(trx, gatewayId, event.paymentIds);
    if (!order) return { outcome: 'unmatched', orderId: null, note: unmatchedNote(event) };
    return this.refunded(trx, order, effect, actor);
  }

  /** A refund made in the gateway's dashboard: the order is Refund Completed (once). */
  private async refunded(
    trx: Transaction<DB>,
    order: PaymentOrder,
    effect: { refundId: string | null; note: string },
    actor: Actor,
  ): Promise<Settled> {
    if (order.process_status === 'Refund Completed') {
      return { outcome: 'ignored', orderId: order.id, note: 'The order was already Refund Completed.' };
    }
    const change = { process_status: 'Refund Completed' as const, refund_date: new Date(), refund_id: effect.refundId };
    await updatePaymentOrder(trx, order.id, change);
    await insertEventTrail(trx, {
      remark: {
        orderId: order.id,
        by: actor.name!,
        remark: `${effect.note} The order moved from ${order.process_status} to Refund Completed.`,
        refund: true,
      },
      audit: auditRow(actor, {
        action: 'order.refunded-at-gateway',
        orderId: order.id,
        target: order.order_id,
        before: { process_status: order.process_status, version: order.version },
        after: { ...change, version: order.version + 1 },
      }),
    });
    return { outcome: 'applied', orderId: order.id, note: `${order.order_id} moved to Refund Completed.` };
  }

  /**
   * A dispute opened, changed or decided: the order goes to ChargeBack with its due date; the history grows. The
   * hot path (a dispute wave): one statement with all its effects (applyDisputeEvent); a replay undoes it.
   */
  private async disputed(
    gatewayId: number,
    event: GatewayEvent,
    effect: Extract<GatewayEvent['effect'], { kind: 'dispute' }>,
    actor: Actor,
  ): Promise<WebhookOutcome> {
    const facts = effect.dispute;
    const decided = facts.outcome !== null;
    const opened = `Chargeback opened at ${actor.name}: ${facts.reason}, ${moneyText(facts.amountCents, facts.currency)}, evidence due ${day(facts.evidenceDueBy)} (dispute ${facts.disputeId}).`;
    try {
      const applied = await applyDisputeEvent(this.db, {
        gatewayId,
        eventId: event.id,
        type: event.type,
        payload: event.payload,
        paymentIds: event.paymentIds,
        facts,
        stage: effect.stage,
        openedNote: opened,
        changedNote:
          effect.stage === 'created'
            ? opened
            : decided
              ? `Chargeback ${facts.disputeId} closed at ${actor.name}: ${facts.outcome === 'won' ? 'won' : 'lost'} (${facts.status}).`
              : `Chargeback ${facts.disputeId} is now ${facts.status} at ${actor.name}.`,
        unmatchedNote: unmatchedNote(event),
        toChargeBack: effect.stage === 'created',
        dueAt: decided || effect.stage === 'closed' ? null : facts.evidenceDueBy,
        actor: { id: actor.id, name: actor.name!, ip: actor.ip },
      });
      if (applied.outcome === 'applied' && applied.orderId !== null) {
        this.orderEvents.changedByKey([applied.orderId], changedBy(actor));
      }
      return { duplicate: false, outcome: applied.outcome };
    } catch (err) {
      if (isStoredEvent(err)) return { duplicate: true, outcome: 'ignored' };
      throw err;
    }
  }
}

const unmatchedNote = (event: GatewayEvent) =>
  `No order has payment ${event.paymentIds.join(' or ') || '(none named)'}.`;
