// Stripe through its official SDK. The SDK sends file uploads to a host of their own (files.stripe.com), and a host
// set in its options would take both; so the SDK keeps its default hosts and its own HTTP client is wrapped to send
// each host where the configuration says (STRIPE_API_URL, STRIPE_FILES_URL), which lets a stand-in serve both.
// Webhooks are verified by the SDK on the raw body with a 5-minute tolerance.
import Stripe from 'stripe';
import type { PaymentsConfig } from '../../../lib/config.js';
import { moneyText } from '../../../lib/pdf/format.js';
import {
  GatewayError,
  WebhookSignatureError,
  type DisputeEvidence,
  type DisputeFacts,
  type GatewayEvent,
  type PaymentCheck,
  type PaymentGateway,
  type RefundResult,
  type WebhookRequest,
} from '../payment-gateway.js';

type StripeConfig = NonNullable<PaymentsConfig['stripe']>;

const API_HOST = 'api.stripe.com';
const FILES_HOST = 'files.stripe.com';
const WEBHOOK_TOLERANCE_SECONDS = 300;

const hostOf = (url: string) => {
  const u = new URL(url);
  const protocol = u.protocol === 'http:' ? ('http' as const) : ('https' as const);
  return { host: u.hostname, port: u.port || (protocol === 'https' ? '443' : '80'), protocol };
};

/** The SDK's own HTTP client, with Stripe's two hosts sent where STRIPE_API_URL and STRIPE_FILES_URL say. */
function httpClientFor(config: StripeConfig): Stripe.HttpClient {
  const base = Stripe.createNodeHttpClient();
  const targets = new Map([
    [API_HOST, hostOf(config.apiUrl)],
    [FILES_HOST, hostOf(config.filesUrl)],
  ]);
  const client = Object.create(base) as Stripe.HttpClient;
  client.makeRequest = (host, port, path, method, headers, requestData, protocol, timeout) => {
    const to = targets.get(host);
    return to
      ? base.makeRequest(to.host, to.port, path, method, headers, requestData, to.protocol, timeout)
      : base.makeRequest(host, port, path, method, headers, requestData, protocol, timeout);
  };
  return client;
}

/** Whether an SDK error means "ask again later" rather than "no". */
const isTransient = (err: unknown) =>
  err instanceof Stripe.errors.StripeConnectionError ||
  err instanceof Stripe.errors.StripeAPIError ||
  err instanceof Stripe.errors.StripeRateLimitError ||
  err instanceof Stripe.errors.StripeAuthenticationError ||
  err instanceof Stripe.errors.StripePermissionError ||
  (err instanceof Stripe.errors.StripeError && (err.statusCode ?? 0) >= 500);

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

const DISPUTE_STAGES: Record<string, 'created' | 'updated' | 'closed'> = {
  'charge.dispute.created': 'created',
  'charge.dispute.updated': 'updated',
  'charge.dispute.funds_withdrawn': 'updated',
  'charge.dispute.funds_reinstated': 'updated',
  'charge.dispute.closed': 'closed',
};

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

export class StripeGateway implements PaymentGateway {
  readonly name = 'Stripe' as const;
  readonly supports = { verify: true, refund: true, disputes: true, drafts: true, webhooks: true };

  readonly configured = true;
  readonly note: string | null;
  private readonly stripe: Stripe;

  constructor(private readonly config: StripeConfig) {
    this.note = config.webhookSecret ? null : 'Webhooks are refused until STRIPE_WEBHOOK_SECRET is set.';
    this.stripe = new Stripe(config.secretKey, {
      httpClient: httpClientFor(config),
      maxNetworkRetries: 1,
      timeout: 10_000,
      telemetry: false,
    });
  }

  private client(): Stripe {
    return this.stripe;
  }

  async checkPayment(transactionId: string): Promise<PaymentCheck> {
    const stripe = this.client();
    try {
      if (transactionId.startsWith('ch_') || transactionId.startsWith('py_')) {
        const charge = await stripe.charges.retrieve(transactionId);
        if (charge.status === 'succeeded' && charge.paid) {
          return {
            state: 'succeeded',
            amountCents: charge.amount,
            currency: charge.currency.toUpperCase(),
            chargeId: charge.id,
            message: `Stripe: charge ${charge.id} succeeded.`,
          };
        }
        return charge.status === 'pending'
          ? { state: 'pending', message: `Stripe: charge ${charge.id} is pending.` }
          : { state: 'failed', message: `Stripe: charge ${charge.id} ${charge.status}.` };
      }
      const intent = await stripe.paymentIntents.retrieve(transactionId);
      if (intent.status === 'succeeded') {
        return {
          state: 'succeeded',
          amountCents: intent.amount_received,
          currency: intent.currency.toUpperCase(),
          chargeId: idOf(intent.latest_charge),
          message: `Stripe: PaymentIntent ${intent.id} succeeded.`,
        };
      }
      if (intent.status === 'canceled' || intent.status === 'requires_payment_method') {
        return { state: 'failed', message: `Stripe: PaymentIntent ${intent.id} is ${intent.status}.` };
      }
      return { state: 'pending', message: `Stripe: PaymentIntent ${intent.id} is ${intent.status}.` };
    } catch (err) {
      if (isTransient(err)) return { state: 'unreachable', message: `Stripe could not be asked: ${messageOf(err)}` };
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') {
        return { state: 'failed', message: `Stripe has no payment ${transactionId}.` };
      }
      return { state: 'failed', message: `Stripe refused the check: ${messageOf(err)}` };
    }
  }

  async refund(
    payment: { transactionId: string; chargeId: string | null },
    idempotencyKey: string,
  ): Promise<RefundResult> {
    const stripe = this.client();
    const target = payment.transactionId.startsWith('pi_')
      ? { payment_intent: payment.transactionId }
      : { charge: payment.chargeId ?? payment.transactionId };
    try {
      const refund = await stripe.refunds.create(target, { idempotencyKey });
      if (refund.status === 'failed' || refund.status === 'canceled') {
        return { ok: false, reason: `Stripe: the refund ${refund.id} ${refund.status}.`, retry: false };
      }
      return { ok: true, refundId: refund.id };
    } catch (err) {
      if (isTransient(err)) return { ok: false, reason: `Stripe could not be reached: ${messageOf(err)}`, retry: true };
      const code = err instanceof Stripe.errors.StripeError ? err.code : undefined;
      const reason =
        code === 'charge_already_refunded'
          ? 'Stripe: already refunded'
          : code === 'charge_disputed'
            ? 'Stripe: the charge is disputed; answer the dispute instead'
            : `Stripe: ${messageOf(err)}`;
      return { ok: false, reason, retry: false };
    }
  }

  async submitEvidence(disputeId: string, evidence: DisputeEvidence, submit: boolean): Promise<void> {
    const stripe = this.client();
    try {
      const file = await stripe.files.create({
        purpose: 'dispute_evidence',
        file: { data: Buffer.from(evidence.pdf.bytes), name: evidence.pdf.fileName, type: 'application/pdf' },
      });
      await stripe.disputes.update(disputeId, {
        evidence: {
          customer_name: evidence.customerName,
          customer_email_address: evidence.customerEmail,
          customer_purchase_ip: evidence.customerPurchaseIp,
          product_description: evidence.productDescription,
          service_date: evidence.serviceDate,
          access_activity_log: evidence.accessActivityLog,
          refund_policy_disclosure: evidence.refundPolicyDisclosure,
          uncategorized_text: evidence.uncategorizedText,
          service_documentation: file.id,
        },
        submit,
      });
    } catch (err) {
      throw new GatewayError(
        isTransient(err)
          ? `Stripe could not be reached (${messageOf(err)}). Nothing was sent as final; try again in a few minutes.`
          : `Stripe refused the evidence: ${messageOf(err)} Check the dispute in Stripe's dashboard.`,
        isTransient(err),
      );
    }
  }

  async verifyWebhook(request: WebhookRequest): Promise<GatewayEvent> {
    const secret = this.config.webhookSecret;
    const signature = request.headers['stripe-signature'];
    if (!secret) throw new WebhookSignatureError('Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).');
    if (typeof signature !== 'string') throw new WebhookSignatureError('The Stripe-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(request.rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
    } catch (err) {
      // The SDK's first sentence says what failed (no matching signature, timestamp outside the tolerance); the
      // rest is advice for developers.
      throw new WebhookSignatureError(
        messageOf(err)
          .split(/(?<=\.)\s/)[0]!
          .trim(),
      );
    }
    return readEvent(event);
  }
}

function readEvent(event: Stripe.Event): GatewayEvent {
  const stage = DISPUTE_STAGES[event.type];
  if (stage) {
    const d = event.data.object as Stripe.Dispute;
    const facts: DisputeFacts = {
      disputeId: d.id,
      reason: d.reason,
      amountCents: d.amount,
      currency: d.currency.toUpperCase(),
      status: d.status,
      evidenceDueBy: d.evidence_details?.due_by ? new Date(d.evidence_details.due_by * 1000) : null,
      outcome: d.status === 'won' ? 'won' : d.status === 'lost' ? 'lost' : null,
    };
    const ids = [idOf(d.payment_intent), idOf(d.charge)].filter((x): x is string => Boolean(x));
    return {
      id: event.id,
      type: event.type,
      payload: event,
      effect: { kind: 'dispute', stage, dispute: facts },
      paymentIds: ids,
    };
  }
  if (event.type === 'charge.refunded') {
    const charge = event.data.object as Stripe.Charge;
    const refundId = idOf(charge.refunds?.data?.[0] ?? null);
    const ids = [idOf(charge.payment_intent), charge.id].filter((x): x is string => Boolean(x));
    const note = `Stripe: charge ${charge.id} refunded (${moneyText(charge.amount_refunded, charge.currency.toUpperCase())}).`;
    return {
      id: event.id,
      type: event.type,
      payload: event,
      effect: { kind: 'refund', refundId, note },
      paymentIds: ids,
    };
  }
  return { id: event.id, type: event.type, payload: event, effect: { kind: 'other' }, paymentIds: [] };
}
