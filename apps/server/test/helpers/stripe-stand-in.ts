// A loopback stand-in of Stripe's HTTP API, just enough for the real `stripe` SDK: form-encoded requests with
// Basic/Bearer auth, JSON answers and Stripe's error shape. It serves both hosts the SDK talks to: the API
// (PaymentIntents, charges, refunds with Idempotency-Key, disputes) and the file-upload host (multipart POST
// /v1/files). A test points STRIPE_API_URL and STRIPE_FILES_URL here, seeds payments, and reads what arrived.
// It also signs webhooks the way Stripe does (t=<unix>,v1=<HMAC-SHA256 of "t.body">), independent of the SDK.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseMultipart, readBody } from './stand-in-requests.js';

export interface StripePayment {
  /** pi_... (a PaymentIntent) or ch_... (a charge). */
  id: string;
  status: 'succeeded' | 'processing' | 'requires_payment_method' | 'canceled' | 'failed';
  amount: number;
  currency: string;
  /** A PaymentIntent's latest charge (made up when not given). */
  chargeId?: string;
}

export interface StripeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Form fields as sent (bracketed names kept as they are, e.g. "evidence[customer_name]"). */
  form: Record<string, string>;
  /** The multipart upload of POST /v1/files: its fields and the file's bytes. */
  file?: { purpose: string; name: string; type: string; bytes: Buffer };
  host: 'api' | 'files';
}

export interface StripeStandIn {
  url: string;
  filesUrl: string;
  secretKey: string;
  webhookSecret: string;
  requests: StripeRequest[];
  /** Payments GET /v1/payment_intents/:id and /v1/charges/:id answer with. */
  payments: Map<string, StripePayment>;
  /** Answer the next requests with these HTTP statuses (then normally again). */
  failNext(...statuses: number[]): void;
  /** A refund error to answer for this payment (e.g. 'charge_already_refunded'). */
  refuseRefund(paymentId: string, code: string, message: string): void;
  /** A dispute update error to answer (e.g. a 400 'invalid_request_error'). */
  refuseDisputeUpdate(message: string | null): void;
  /** The Stripe-Signature header for a body, at a given time (default now). */
  sign(body: string, timestampSeconds?: number, secret?: string): string;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const stripeError = (status: number, type: string, message: string, code?: string) => ({
  status,
  body: { error: { type, message, ...(code ? { code } : {}) } },
});

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const requests: StripeRequest[] = [];
  const payments = new Map<string, StripePayment>();
  const refunds = new Map<string, Json>();
  const refundRefusals = new Map<string, { code: string; message: string }>();
  const refundedPayments = new Set<string>();
  const failures: number[] = [];
  let disputeRefusal: string | null = null;
  let fileCount = 0;

  const answer = (host: 'api' | 'files', req: StripeRequest): { status: number; body: unknown } => {
    const failure = failures.shift();
    if (failure) return stripeError(failure, 'api_error', 'The stand-in was told to fail this request.');
    const auth = req.headers.authorization ?? '';
    const presented = auth.startsWith('Basic ')
      ? Buffer.from(auth.slice(6), 'base64').toString().replace(/:$/, '')
      : auth.replace(/^Bearer /, '');
    if (presented !== secretKey) return stripeError(401, 'invalid_request_error', 'Invalid API Key provided.');
    if (host === 'files') {
      if (req.method !== 'POST' || req.path !== '/v1/files')
        return stripeError(404, 'invalid_request_error', 'No route.');
      fileCount += 1;
      return {
        status: 200,
        body: { id: `file_${fileCount}`, object: 'file', purpose: req.file?.purpose, size: req.file?.bytes.length },
      };
    }
    const get = /^\/v1\/(payment_intents|charges)\/([^/?]+)$/.exec(req.path);
    if (req.method === 'GET' && get) {
      const payment = payments.get(decodeURIComponent(get[2]!));
      const kind = get[1] === 'charges' ? 'charge' : 'payment_intent';
      if (!payment || payment.id.startsWith('ch_') !== (kind === 'charge')) {
        return stripeError(404, 'invalid_request_error', `No such ${kind}: '${get[2]}'`, 'resource_missing');
      }
      if (kind === 'charge') {
        return {
          status: 200,
          body: {
            id: payment.id,
            object: 'charge',
            amount: payment.amount,
            currency: payment.currency,
            status:
              payment.status === 'succeeded' ? 'succeeded' : payment.status === 'processing' ? 'pending' : 'failed',
            paid: payment.status === 'succeeded',
            refunded: refundedPayments.has(payment.id),
            payment_intent: null,
          },
        };
      }
      return {
        status: 200,
        body: {
          id: payment.id,
          object: 'payment_intent',
          amount: payment.amount,
          amount_received: payment.status === 'succeeded' ? payment.amount : 0,
          currency: payment.currency,
          status: payment.status,
          latest_charge: payment.chargeId ?? `ch_${payment.id.slice(3)}`,
        },
      };
    }
    if (req.method === 'POST' && req.path === '/v1/refunds') {
      const key = String(req.headers['idempotency-key'] ?? '');
      const earlier = key ? refunds.get(key) : undefined;
      if (earlier) return { status: 200, body: earlier };
      const target = req.form.payment_intent ?? req.form.charge ?? '';
      const refusal = refundRefusals.get(target);
      if (refusal) return stripeError(400, 'invalid_request_error', refusal.message, refusal.code);
      if (refundedPayments.has(target)) {
        return stripeError(
          400,
          'invalid_request_error',
          `Charge for ${target} has already been refunded.`,
          'charge_already_refunded',
        );
      }
      const payment = payments.get(target);
      if (!payment)
        return stripeError(404, 'invalid_request_error', `No such payment: '${target}'`, 'resource_missing');
      refundedPayments.add(target);
      const refund = {
        id: `re_${randomBytes(8).toString('hex')}`,
        object: 'refund',
        amount: payment.amount,
        currency: payment.currency,
        status: 'succeeded',
        payment_intent: req.form.payment_intent ?? null,
        charge: req.form.charge ?? payment.chargeId ?? null,
      };
      if (key) refunds.set(key, refund);
      return { status: 200, body: refund };
    }
    const dispute = /^\/v1\/disputes\/([^/?]+)$/.exec(req.path);
    if (req.method === 'POST' && dispute) {
      if (disputeRefusal) return stripeError(400, 'invalid_request_error', disputeRefusal);
      return {
        status: 200,
        body: {
          id: dispute[1],
          object: 'dispute',
          status: req.form.submit === 'true' ? 'under_review' : 'needs_response',
        },
      };
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${req.path}).`);
  };

  const handle = async (host: 'api' | 'files', req: http.IncomingMessage, res: http.ServerResponse) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const contentType = req.headers['content-type'] ?? '';
    const entry: StripeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: req.headers,
      form: {},
      host,
    };
    if (contentType.startsWith('multipart/form-data')) {
      const parts = parseMultipart(raw, contentType);
      const file = parts.find((p) => p.filename !== undefined);
      for (const p of parts) if (p !== file) entry.form[p.name] = p.bytes.toString('utf8');
      if (file)
        entry.file = {
          purpose: entry.form.purpose ?? '',
          name: file.filename ?? '',
          type: file.type ?? '',
          bytes: file.bytes,
        };
    } else {
      for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) entry.form[k] = v;
      for (const [k, v] of url.searchParams) entry.form[k] = v;
    }
    requests.push(entry);
    const { status, body } = answer(host, entry);
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(6).toString('hex')}`,
    });
    res.end(JSON.stringify(body));
  };
  const serve = (host: 'api' | 'files') =>
    http.createServer((req, res) => {
      void handle(host, req, res);
    });

  const api = serve('api');
  const files = serve('files');
  const listen = (server: http.Server) =>
    new Promise<string>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
    );
  const [url, filesUrl] = await Promise.all([listen(api), listen(files)]);
  return {
    url,
    filesUrl,
    secretKey,
    webhookSecret,
    requests,
    payments,
    failNext: (...statuses) => failures.push(...statuses),
    refuseRefund: (paymentId, code, message) => refundRefusals.set(paymentId, { code, message }),
    refuseDisputeUpdate: (message) => {
      disputeRefusal = message;
    },
    sign: (body, timestampSeconds = Math.floor(Date.now() / 1000), secret = webhookSecret) =>
      `t=${timestampSeconds},v1=${createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex')}`,
    close: async () => {
      await Promise.all([api, files].map((s) => new Promise((r) => s.close(r))));
    },
  };
}

/** A Stripe event as its webhook delivers it. */
export function stripeEvent(type: string, object: Json, id = `evt_${randomBytes(10).toString('hex')}`): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    data: { object },
  });
}

/** A dispute object as Stripe sends it in charge.dispute.* events. */
export function stripeDispute(fields: {
  id: string;
  charge: string;
  paymentIntent?: string | null;
  amount: number;
  currency?: string;
  reason?: string;
  status?: string;
  dueBy?: Date;
}): Json {
  return {
    id: fields.id,
    object: 'dispute',
    amount: fields.amount,
    currency: fields.currency ?? 'usd',
    charge: fields.charge,
    payment_intent: fields.paymentIntent ?? null,
    reason: fields.reason ?? 'fraudulent',
    status: fields.status ?? 'needs_response',
    created: Math.floor(Date.now() / 1000),
    evidence_details: {
      due_by: Math.floor((fields.dueBy ?? new Date(Date.now() + 7 * 86_400_000)).getTime() / 1000),
      has_evidence: false,
      past_due: false,
      submission_count: 0,
    },
  };
}
