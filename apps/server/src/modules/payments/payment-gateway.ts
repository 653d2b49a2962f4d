// One interface for every payment gateway (STYLE: one adapter per gateway, each holding its SDK; nothing outside
// an adapter imports an SDK). The desk asks four things of a gateway: is this payment real, refund it, take this
// dispute's evidence, and is this webhook really from you. What a gateway cannot do it says by `supports`.
import type { GatewayName } from '@eta/contracts';

/** What the gateway says of a payment the order claims. */
export type PaymentCheck =
  /** Paid, with the amount and currency the gateway holds; chargeId: Stripe's charge beside the PaymentIntent. */
  | { state: 'succeeded'; amountCents: number; currency: string; chargeId: string | null; message: string }
  /** Not (yet) paid: processing, needing the customer, or authorised only. */
  | { state: 'pending'; message: string }
  /** Failed, cancelled, or no such payment. */
  | { state: 'failed'; message: string }
  /** The gateway could not be asked (network, 5xx, rate limit): ask again later. */
  | { state: 'unreachable'; message: string };

export type RefundResult =
  | { ok: true; refundId: string }
  /** retry: the gateway could not be reached; false: it refused (already refunded, disputed...). */
  | { ok: false; reason: string; retry: boolean };

/** The evidence a defence pack answers, by the desk's names (each adapter maps them to its gateway's). */
export interface DisputeEvidence {
  customerName: string;
  customerEmail: string;
  customerPurchaseIp: string;
  productDescription: string;
  serviceDate: string;
  accessActivityLog: string;
  refundPolicyDisclosure: string;
  /** A summary of the delivery: approval mail sent, documents downloaded. */
  uncategorizedText: string;
  pdf: { fileName: string; bytes: Uint8Array };
}

/** A webhook event, verified and read into the desk's terms. */
export interface GatewayEvent {
  id: string;
  type: string;
  /** The raw event as received, kept as evidence. */
  payload: unknown;
  /** What the desk does with it; 'other' is acknowledged and ignored. */
  effect:
    | { kind: 'dispute'; stage: 'created' | 'updated' | 'closed'; dispute: DisputeFacts }
    | { kind: 'refund'; refundId: string | null; note: string }
    | { kind: 'other' };
  /** The payment ids the event names (PaymentIntent, charge, capture): how its order is found. */
  paymentIds: string[];
}

export interface DisputeFacts {
  disputeId: string;
  reason: string;
  amountCents: number;
  currency: string;
  status: string;
  evidenceDueBy: Date | null;
  /** Set once the gateway decided. */
  outcome: 'won' | 'lost' | null;
}

/** The request of a webhook as it reached the server: its exact bytes and its headers. */
export interface WebhookRequest {
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

export class WebhookSignatureError extends Error {}

/** A gateway's error, in words for the person who clicked, with what to do. */
export class GatewayError extends Error {
  constructor(
    message: string,
    /** true: the gateway could not be reached or failed on its side; trying again may work. */
    readonly retry: boolean,
  ) {
    super(message);
  }
}

export interface PaymentGateway {
  readonly name: GatewayName;
  /** Its credentials are set; an unconfigured gateway is never called. */
  readonly configured: boolean;
  /** drafts: evidence can be saved at the gateway without submitting it (Stripe); PayPal takes it only as final. */
  readonly supports: { verify: boolean; refund: boolean; disputes: boolean; drafts: boolean; webhooks: boolean };
  /** Why something cannot be done through it, for the gateway page; null when nothing is missing. */
  readonly note: string | null;
  checkPayment(transactionId: string): Promise<PaymentCheck>;
  /** Refunds the whole payment; the same idempotency key never refunds twice. */
  refund(payment: { transactionId: string; chargeId: string | null }, idempotencyKey: string): Promise<RefundResult>;
  /** Sends the evidence (as a draft when submit is false); throws GatewayError. */
  submitEvidence(disputeId: string, evidence: DisputeEvidence, submit: boolean): Promise<void>;
  /** The verified event, or WebhookSignatureError (nothing is then changed). */
  verifyWebhook(request: WebhookRequest): Promise<GatewayEvent>;
}
