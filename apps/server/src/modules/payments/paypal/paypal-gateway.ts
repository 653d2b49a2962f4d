// PayPal through its official server SDK where the SDK covers the call (captures, refunds), and PayPal's documented
// REST API with fetch where it does not (the OAuth token, webhook verification, dispute evidence). The SDK knows
// only PayPal's two fixed hosts, so each of its requests is sent where PAYPAL_API_URL says, with the adapter's own
// token: the SDK's token refresh keeps a failed refresh as a rejected promise that every later call re-throws
// (@apimatic/oauth-adapters), which would make one PayPal outage last until a restart.
import { randomUUID } from 'node:crypto';
import {
  ApiError,
  CaptureStatus,
  Client,
  Environment,
  PaymentsController,
  RefundStatus,
} from '@paypal/paypal-server-sdk';
import type { PaymentsConfig } from '../../../lib/config.js';
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

type PayPalConfig = NonNullable<PaymentsConfig['paypal']>;
type SdkClient = ConstructorParameters<typeof PaymentsController>[0];
type SdkRequestBuilder = ReturnType<ReturnType<Client['getRequestBuilderFactory']>>;
type SdkInterceptor = Parameters<SdkRequestBuilder['intercept']>[0];

const TIMEOUT_MS = 10_000;
/** A token is renewed this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;
/** PayPal's limit on an evidence's notes. */
const NOTES_MAX = 2000;
/** Stands in the SDK's own auth header, which the adapter replaces with its token on every request. */
const SDK_PLACEHOLDER_TOKEN = { accessToken: 'replaced-per-request', tokenType: 'Bearer' };

/** PayPal's error body: REST errors (name, message, details[].issue) or OAuth errors (error, error_description). */
interface PayPalErrorBody {
  name?: string;
  message?: string;
  details?: { issue?: string; description?: string }[];
  error?: string;
  error_description?: string;
}

/** A call to PayPal that did not succeed; transient: PayPal could not be reached or failed on its side. */
class PayPalCallError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
    readonly status: number | null = null,
    readonly issue: string | null = null,
  ) {
    super(message);
  }
}

const isTransientStatus = (status: number) => status >= 500 || status === 401 || status === 403 || status === 429;

const describe = (body: PayPalErrorBody | undefined, fallback: string) => {
  const detail = body?.details?.[0];
  if (detail?.issue) return `${detail.issue}${detail.description ? `: ${detail.description}` : ''}`;
  if (body?.name) return `${body.name}${body.message ? `: ${body.message}` : ''}`;
  if (body?.error) return `${body.error}${body.error_description ? `: ${body.error_description}` : ''}`;
  return fallback;
};

/** Any failure of an SDK call or a fetch call, in one shape. */
function failureOf(err: unknown): PayPalCallError {
  if (err instanceof PayPalCallError) return err;
  if (err instanceof ApiError) {
    const body = err.result as PayPalErrorBody | undefined;
    return new PayPalCallError(
      `${describe(body, err.message)} (HTTP ${err.statusCode})`,
      isTransientStatus(err.statusCode),
      err.statusCode,
      body?.details?.[0]?.issue ?? null,
    );
  }
  // Network errors, timeouts, unreadable answers: PayPal could not be asked.
  return new PayPalCallError(err instanceof Error ? err.message : String(err), true);
}

const fractionDigits = (currency: string) => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
};

/**
 * PayPal's decimal amount ("89.00", "1000" JPY, "1.234" BHD) in the currency's minor units, exactly (no floating
 * point); null when it is not an amount or has more decimals than the currency.
 */
export function toMinorUnits(value: string, currency: string): number | null {
  const parts = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!parts) return null;
  const digits = fractionDigits(currency);
  const fraction = parts[2] ?? '';
  if (/[1-9]/.test(fraction.slice(digits))) return null;
  const minor = Number(`${parts[1]}${fraction.slice(0, digits).padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) ? minor : null;
}

/** The client-credentials token, fetched once and kept until shortly before it expires. */
class PayPalTokens {
  private current: { value: string; until: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(private readonly config: PayPalConfig) {}

  get(): Promise<string> {
    if (this.current && this.current.until > Date.now()) return Promise.resolve(this.current.value);
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** PayPal refused the token (revoked, rotated credentials): the next call asks for a new one. */
  forget(): void {
    this.current = null;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    const { status, body } = await send(`${this.config.apiUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const token = body as { access_token?: unknown; expires_in?: unknown } & PayPalErrorBody;
    if (status !== 200 || typeof token.access_token !== 'string') {
      throw new PayPalCallError(
        status === 401
          ? `PayPal refused the client id and secret (${describe(token, 'HTTP 401')}): check PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET`
          : `PayPal gave no token (${describe(token, `HTTP ${status}`)})`,
        true,
        status,
      );
    }
    const seconds = typeof token.expires_in === 'number' ? token.expires_in : 0;
    this.current = { value: token.access_token, until: Date.now() + seconds * 1000 - TOKEN_MARGIN_MS };
    return token.access_token;
  }
}

/** One HTTP call with a time limit; the answer's status and JSON body (null when it has none). */
async function send(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    const cause = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    throw new PayPalCallError(`PayPal could not be reached: ${cause}`, true);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

const DISPUTE_STAGES: Record<string, 'created' | 'updated' | 'closed'> = {
  'CUSTOMER.DISPUTE.CREATED': 'created',
  'CUSTOMER.DISPUTE.UPDATED': 'updated',
  'CUSTOMER.DISPUTE.RESOLVED': 'closed',
};

/** A decided dispute's outcome code: the merchant kept the money (won) or gave it back (lost). */
const OUTCOMES: Record<string, 'won' | 'lost'> = {
  RESOLVED_SELLER_FAVOUR: 'won',
  CANCELED_BY_BUYER: 'won',
  DENIED: 'won',
  RESOLVED_BUYER_FAVOUR: 'lost',
  ACCEPTED: 'lost',
};

interface PayPalMoney {
  currency_code?: string;
  value?: string;
}

interface PayPalEvent {
  id: string;
  event_type: string;
  resource?: Record<string, unknown>;
}

interface PayPalDispute {
  dispute_id?: string;
  reason?: string;
  status?: string;
  dispute_amount?: PayPalMoney;
  seller_response_due_date?: string;
  disputed_transactions?: { seller_transaction_id?: string }[];
  dispute_outcome?: { outcome_code?: string };
}

interface PayPalRefund {
  id?: string;
  amount?: PayPalMoney;
  links?: { href?: string; rel?: string }[];
}

const dateOf = (value: string | undefined) => {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
};

/** "89.00 USD" for a note; the amount as PayPal wrote it when it cannot be read. */
const moneyText = (money: PayPalMoney | undefined) => {
  if (!money?.value || !money.currency_code) return 'amount not given';
  const minor = toMinorUnits(money.value, money.currency_code);
  return minor === null
    ? `${money.value} ${money.currency_code}`
    : `${(minor / 100).toFixed(2)} ${money.currency_code}`;
};

/** A verified event in the desk's terms. */
function readEvent(event: PayPalEvent): GatewayEvent {
  const stage = DISPUTE_STAGES[event.event_type];
  if (stage) {
    const d = (event.resource ?? {}) as PayPalDispute;
    const currency = d.dispute_amount?.currency_code?.toUpperCase() ?? 'XXX';
    const facts: DisputeFacts = {
      disputeId: d.dispute_id ?? event.id,
      reason: d.reason ?? 'OTHER',
      amountCents: d.dispute_amount?.value ? (toMinorUnits(d.dispute_amount.value, currency) ?? 0) : 0,
      currency,
      status: d.status ?? 'UNKNOWN',
      evidenceDueBy: dateOf(d.seller_response_due_date),
      outcome: OUTCOMES[d.dispute_outcome?.outcome_code ?? ''] ?? null,
    };
    const ids = (d.disputed_transactions ?? [])
      .map((t) => t.seller_transaction_id)
      .filter((x): x is string => Boolean(x));
    return {
      id: event.id,
      type: event.event_type,
      payload: event,
      effect: { kind: 'dispute', stage, dispute: facts },
      paymentIds: ids,
    };
  }
  if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED') {
    const refund = (event.resource ?? {}) as PayPalRefund;
    // The refund names its capture by its "up" link: .../v2/payments/captures/{capture id}.
    const up = refund.links?.find((l) => l.rel === 'up')?.href ?? '';
    const captureId = /\/captures\/([^/?#]+)/.exec(up)?.[1] ?? null;
    const note = `PayPal: capture ${captureId ?? '(not named)'} refunded (${moneyText(refund.amount)}).`;
    return {
      id: event.id,
      type: event.event_type,
      payload: event,
      effect: { kind: 'refund', refundId: refund.id ?? null, note },
      paymentIds: captureId ? [captureId] : [],
    };
  }
  return { id: event.id, type: event.event_type, payload: event, effect: { kind: 'other' }, paymentIds: [] };
}

const clip = (text: string) =>
  text.length <= NOTES_MAX ? text : `${text.slice(0, NOTES_MAX - 45)}… (the rest is in the attached defence pack)`;

/** multipart/form-data as PayPal's provide-evidence takes it: an `input` JSON part and the file. */
function evidenceBody(input: unknown, pdf: DisputeEvidence['pdf']): { body: Buffer; contentType: string } {
  const boundary = `----eta-desk-${randomUUID()}`;
  const fileName = pdf.fileName.replace(/["\r\n]/g, '_');
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="input"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(input)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="evidence-file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.from(pdf.bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export class PayPalGateway implements PaymentGateway {
  readonly name = 'PayPal' as const;
  readonly supports = { verify: true, refund: true, disputes: true, drafts: false, webhooks: true };
  readonly configured = true;
  readonly note: string | null;
  private readonly tokens: PayPalTokens;
  private readonly payments: PaymentsController;

  constructor(private readonly config: PayPalConfig) {
    this.note = config.webhookId ? null : 'Webhooks are refused until PAYPAL_WEBHOOK_ID is set.';
    this.tokens = new PayPalTokens(config);
    const client = new Client({
      environment: Environment.Production,
      timeout: TIMEOUT_MS,
      clientCredentialsAuthCredentials: {
        oAuthClientId: config.clientId,
        oAuthClientSecret: config.clientSecret,
        oAuthToken: SDK_PLACEHOLDER_TOKEN,
      },
    });
    const routed: SdkClient = {
      getRequestBuilderFactory: () => {
        const make = client.getRequestBuilderFactory();
        return (...args) => {
          const builder = make(...args);
          builder.intercept(this.route);
          return builder;
        };
      },
    };
    this.payments = new PaymentsController(routed);
  }

  /** Runs innermost on every SDK request: PayPal's host replaced by PAYPAL_API_URL, the adapter's token set. */
  private readonly route: SdkInterceptor = async (request, options, next) => {
    const token = await this.tokens.get();
    const { pathname, search } = new URL(request.url);
    const headers = Object.fromEntries(
      Object.entries(request.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'),
    );
    const context = await next(
      {
        ...request,
        url: `${this.config.apiUrl}${pathname}${search}`,
        headers: { ...headers, Authorization: `Bearer ${token}` },
      },
      options,
    );
    if (context.response.statusCode === 401) this.tokens.forget();
    return context;
  };

  /** A call to PayPal's REST API outside the SDK, with the token; its JSON answer, or PayPalCallError. */
  private async rest(path: string, init: RequestInit): Promise<Record<string, unknown>> {
    const token = await this.tokens.get();
    const { status, body } = await send(`${this.config.apiUrl}${path}`, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        authorization: `Bearer ${token}`,
        accept: 'application/json',
      },
    });
    if (status === 401) this.tokens.forget();
    if (status < 200 || status > 299) {
      const error = (body ?? undefined) as PayPalErrorBody | undefined;
      throw new PayPalCallError(
        `${describe(error, 'no explanation given')} (HTTP ${status})`,
        isTransientStatus(status),
        status,
        error?.details?.[0]?.issue ?? null,
      );
    }
    return (body ?? {}) as Record<string, unknown>;
  }

  async checkPayment(captureId: string): Promise<PaymentCheck> {
    try {
      const { result: capture } = await this.payments.getCapturedPayment({ captureId });
      const id = capture.id ?? captureId;
      switch (capture.status) {
        case CaptureStatus.Completed: {
          const currency = capture.amount?.currencyCode.toUpperCase() ?? '';
          const cents = capture.amount ? toMinorUnits(capture.amount.value, currency) : null;
          if (cents === null) {
            return { state: 'failed', message: `PayPal: capture ${id} has no amount the desk can read.` };
          }
          return {
            state: 'succeeded',
            amountCents: cents,
            currency,
            chargeId: null,
            message: `PayPal: capture ${id} completed.`,
          };
        }
        case CaptureStatus.Pending: {
          const why = capture.statusDetails?.reason;
          return { state: 'pending', message: `PayPal: capture ${id} is pending${why ? ` (${why})` : ''}.` };
        }
        default:
          return { state: 'failed', message: `PayPal: capture ${id} is ${capture.status ?? 'without a status'}.` };
      }
    } catch (err) {
      const failure = failureOf(err);
      if (failure.transient) return { state: 'unreachable', message: `PayPal could not be asked: ${failure.message}` };
      if (failure.status === 404) return { state: 'failed', message: `PayPal has no capture ${captureId}.` };
      return { state: 'failed', message: `PayPal refused the check: ${failure.message}` };
    }
  }

  /** Refunds the whole capture; PayPal answers a repeated PayPal-Request-Id with the first refund. */
  async refund(
    payment: { transactionId: string; chargeId: string | null },
    idempotencyKey: string,
  ): Promise<RefundResult> {
    try {
      const { result: refund } = await this.payments.refundCapturedPayment({
        captureId: payment.transactionId,
        paypalRequestId: idempotencyKey,
        body: {},
      });
      if (!refund.id || refund.status === RefundStatus.Cancelled || refund.status === RefundStatus.Failed) {
        return {
          ok: false,
          reason: `PayPal: the refund ${refund.id ?? ''} ${refund.status ?? 'has no id'}.`,
          retry: false,
        };
      }
      return { ok: true, refundId: refund.id };
    } catch (err) {
      const failure = failureOf(err);
      if (failure.transient)
        return { ok: false, reason: `PayPal could not be reached: ${failure.message}`, retry: true };
      const reason =
        failure.issue === 'CAPTURE_FULLY_REFUNDED'
          ? 'PayPal: already refunded'
          : failure.issue === 'TRANSACTION_DISPUTED'
            ? 'PayPal: the payment is disputed; answer the dispute instead'
            : failure.issue === 'REFUND_TIME_LIMIT_EXCEEDED'
              ? "PayPal: too late to refund through PayPal; refund it in PayPal's dashboard"
              : failure.status === 404
                ? `PayPal has no capture ${payment.transactionId}`
                : `PayPal: ${failure.message}`;
      return { ok: false, reason, retry: false };
    }
  }

  /**
   * PayPal keeps no drafts: provide-evidence is final and puts the dispute under review. Saving a draft is
   * therefore refused before anything is sent (answering "saved" would let the desk send the evidence a second time).
   */
  async submitEvidence(disputeId: string, evidence: DisputeEvidence, submit: boolean): Promise<void> {
    if (!submit) {
      throw new GatewayError(
        'PayPal takes evidence only as final (it keeps no drafts). Nothing was sent: submit it for review when it is ready.',
        false,
      );
    }
    const delivery = [
      `Customer: ${evidence.customerName} <${evidence.customerEmail}>, purchase from IP ${evidence.customerPurchaseIp || 'not recorded'}.`,
      `Service: ${evidence.productDescription} Delivered on ${evidence.serviceDate}.`,
      evidence.uncategorizedText,
      `Access log:\n${evidence.accessActivityLog}`,
    ].join('\n\n');
    const input = {
      evidences: [
        // A digital service: no tracking number, so not PROOF_OF_FULFILLMENT (which expects one in evidence_info).
        { evidence_type: 'PROOF_FOR_SOFTWARE_OR_SERVICE_DELIVERED', notes: clip(delivery) },
        { evidence_type: 'RETURN_POLICY', notes: clip(evidence.refundPolicyDisclosure) },
      ],
    };
    const { body, contentType } = evidenceBody(input, evidence.pdf);
    try {
      await this.rest(`/v1/customer/disputes/${encodeURIComponent(disputeId)}/provide-evidence`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
    } catch (err) {
      const failure = failureOf(err);
      throw new GatewayError(
        failure.transient
          ? `PayPal could not be reached (${failure.message}). Try again in a few minutes.`
          : `PayPal refused the evidence: ${failure.message}. Check the dispute in PayPal's Resolution Center.`,
        failure.transient,
      );
    }
  }

  /**
   * Asks PayPal whether it sent this webhook (POST /v1/notifications/verify-webhook-signature). The event goes back
   * exactly as it arrived: PayPal checks its signature over the event as sent, which a re-serialised copy could
   * change (number formats, escapes).
   */
  async verifyWebhook(request: WebhookRequest): Promise<GatewayEvent> {
    const webhookId = this.config.webhookId;
    if (!webhookId) throw new WebhookSignatureError('PayPal webhooks are not configured (PAYPAL_WEBHOOK_ID).');
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' && value !== '' ? value : null;
    };
    const signature = {
      auth_algo: header('paypal-auth-algo'),
      cert_url: header('paypal-cert-url'),
      transmission_id: header('paypal-transmission-id'),
      transmission_sig: header('paypal-transmission-sig'),
      transmission_time: header('paypal-transmission-time'),
    };
    const missing = Object.entries(signature)
      .filter(([, value]) => value === null)
      .map(([field]) => `PAYPAL-${field.toUpperCase().replace('_', '-')}`);
    if (missing.length > 0) throw new WebhookSignatureError(`The ${missing.join(', ')} header(s) are missing.`);

    const raw = request.rawBody.toString('utf8');
    let event: PayPalEvent;
    try {
      event = JSON.parse(raw) as PayPalEvent;
    } catch {
      throw new WebhookSignatureError('The body is not JSON.');
    }
    if (typeof event?.id !== 'string' || typeof event.event_type !== 'string') {
      throw new WebhookSignatureError('The body is not a PayPal event (no id or event_type).');
    }
    const fields = Object.entries({ ...signature, webhook_id: webhookId })
      .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`)
      .join(',');
    let answer: Record<string, unknown>;
    try {
      answer = await this.rest('/v1/notifications/verify-webhook-signature', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{${fields},"webhook_event":${raw}}`,
      });
    } catch (err) {
      // Not a bad signature: the check could not be made. A 502 makes PayPal send it again later.
      throw new GatewayError(`PayPal could not be asked to verify a webhook (${failureOf(err).message}).`, true);
    }
    if (answer.verification_status !== 'SUCCESS') {
      throw new WebhookSignatureError(`PayPal did not verify it (${String(answer.verification_status)}).`);
    }
    return readEvent(event);
  }
}
