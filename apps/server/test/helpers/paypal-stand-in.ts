// A loopback stand-in of PayPal's REST API, just enough for the real `@paypal/paypal-server-sdk` and the adapter's
// own calls: OAuth client credentials (Basic auth) for a Bearer token, captures, refunds with PayPal-Request-Id,
// webhook signature verification and dispute evidence (multipart). JSON answers in PayPal's error shapes. A test
// points PAYPAL_API_URL here, seeds captures, and reads what arrived. It also signs webhooks the way PayPal's
// headers carry them (transmission id, time, signature over "id|time|webhook id|crc32 of the body") and verifies
// them as POST /v1/notifications/verify-webhook-signature does, independent of the adapter.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseMultipart, readBody, type MultipartPart } from './stand-in-requests.js';
import { crc32 } from 'node:zlib';

export interface PayPalCapture {
  id: string;
  status: 'COMPLETED' | 'PENDING' | 'DECLINED' | 'FAILED' | 'REFUNDED';
  /** As PayPal writes it: "89.00". */
  value: string;
  currency: string;
}

export interface PayPalRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The JSON body, or the form fields of the token request. */
  body: unknown;
  raw: Buffer;
  /** The parts of a multipart body: name, filename, type, bytes. */
  parts?: MultipartPart[];
}

export interface PayPalStandIn {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  requests: PayPalRequest[];
  captures: Map<string, PayPalCapture>;
  /** Tokens handed out so far. */
  tokensIssued: () => number;
  /** Every token handed out stops working (401), as when PayPal rotates them. */
  revokeTokens(): void;
  /** Answer the next requests with these HTTP statuses (then normally again). */
  failNext(...statuses: number[]): void;
  /** A refund error to answer for this capture (a 422 with this issue, e.g. 'TRANSACTION_DISPUTED'). */
  refuseRefund(captureId: string, issue: string, description: string): void;
  /** A provide-evidence error to answer (a 422 with this issue), or null for none. */
  refuseEvidence(issue: string | null): void;
  /** The PAYPAL-* headers PayPal sends a webhook with (signed for this stand-in's webhook id unless told). */
  sign(body: string, webhookId?: string): Record<string, string>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const error = (status: number, name: string, message: string, issue?: string, description?: string) => ({
  status,
  body: {
    name,
    message,
    debug_id: randomBytes(6).toString('hex'),
    ...(issue ? { details: [{ issue, description: description ?? issue }] } : {}),
  },
});

export async function startPayPalStandIn(): Promise<PayPalStandIn> {
  const clientId = `client-${randomBytes(8).toString('hex')}`;
  const clientSecret = `secret-${randomBytes(16).toString('hex')}`;
  const webhookId = `WH-${randomBytes(8).toString('hex').toUpperCase()}`;
  const signingKey = randomBytes(32);
  const tokens = new Set<string>();
  let issued = 0;
  const requests: PayPalRequest[] = [];
  const captures = new Map<string, PayPalCapture>();
  const refundsByRequestId = new Map<string, { status: number; body: Json }>();
  const refunded = new Set<string>();
  const refundRefusals = new Map<string, { issue: string; description: string }>();
  const failures: number[] = [];
  let evidenceRefusal: string | null = null;
  let refundCount = 0;

  const signatureOf = (transmissionId: string, time: string, forWebhook: string, event: string) =>
    createHmac('sha256', signingKey)
      .update(`${transmissionId}|${time}|${forWebhook}|${crc32(event)}`)
      .digest('base64');

  const answer = (req: PayPalRequest): { status: number; body: unknown } => {
    const failure = failures.shift();
    if (failure) return error(failure, 'INTERNAL_SERVER_ERROR', 'The stand-in was told to fail this request.');
    const auth = req.headers.authorization ?? '';

    if (req.method === 'POST' && req.path === '/v1/oauth2/token') {
      const presented = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString() : '';
      const form = req.body as Record<string, string>;
      if (presented !== `${clientId}:${clientSecret}`) {
        return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
      }
      if (form.grant_type !== 'client_credentials') {
        return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Grant type is missing' } };
      }
      const token = `A21AA${randomBytes(24).toString('hex')}`;
      tokens.add(token);
      issued += 1;
      return {
        status: 200,
        body: {
          scope: 'https://uri.paypal.com/services/disputes/update-seller',
          access_token: token,
          token_type: 'Bearer',
          app_id: 'APP-80W284485P519543T',
          expires_in: 32400,
          nonce: randomBytes(8).toString('hex'),
        },
      };
    }
    if (!auth.startsWith('Bearer ') || !tokens.has(auth.slice(7))) {
      return {
        status: 401,
        body: { error: 'invalid_token', error_description: 'Token signature verification failed' },
      };
    }

    const capture = /^\/v2\/payments\/captures\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && capture) {
      const found = captures.get(decodeURIComponent(capture[1]!));
      if (!found) {
        return error(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', 'INVALID_RESOURCE_ID');
      }
      return {
        status: 200,
        body: {
          id: found.id,
          status: refunded.has(found.id) ? 'REFUNDED' : found.status,
          ...(found.status === 'PENDING' ? { status_details: { reason: 'PENDING_REVIEW' } } : {}),
          amount: { currency_code: found.currency, value: found.value },
          final_capture: true,
          seller_protection: { status: 'ELIGIBLE' },
          create_time: new Date().toISOString(),
          links: [{ href: `https://api.paypal.com/v2/payments/captures/${found.id}`, rel: 'self', method: 'GET' }],
        },
      };
    }
    const refund = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(req.path);
    if (req.method === 'POST' && refund) {
      const requestId = String(req.headers['paypal-request-id'] ?? '');
      const earlier = requestId ? refundsByRequestId.get(requestId) : undefined;
      if (earlier) return earlier;
      const captureId = decodeURIComponent(refund[1]!);
      const found = captures.get(captureId);
      if (!found) {
        return error(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.', 'INVALID_RESOURCE_ID');
      }
      const refusal = refundRefusals.get(captureId);
      if (refusal) {
        return error(
          422,
          'UNPROCESSABLE_ENTITY',
          'The requested action could not be performed.',
          refusal.issue,
          refusal.description,
        );
      }
      if (refunded.has(captureId)) {
        return error(
          422,
          'UNPROCESSABLE_ENTITY',
          'The requested action could not be performed.',
          'CAPTURE_FULLY_REFUNDED',
          'The capture has already been fully refunded',
        );
      }
      refunded.add(captureId);
      refundCount += 1;
      const id = `${refundCount}RF${randomBytes(6).toString('hex').toUpperCase()}`;
      const done = {
        status: 201,
        body: {
          id,
          status: 'COMPLETED',
          links: [
            { href: `https://api.paypal.com/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
            { href: `https://api.paypal.com/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
          ],
        },
      };
      if (requestId) refundsByRequestId.set(requestId, done);
      return done;
    }
    if (req.method === 'POST' && req.path === '/v1/notifications/verify-webhook-signature') {
      const v = req.body as Json | null;
      const event = v?.webhook_event;
      if (!v || !event || typeof v.transmission_sig !== 'string') {
        return error(400, 'VALIDATION_ERROR', 'Invalid request - see details', 'MISSING_REQUIRED_PARAMETER');
      }
      const expected = signatureOf(
        String(v.transmission_id),
        String(v.transmission_time),
        String(v.webhook_id),
        JSON.stringify(event),
      );
      const holds = v.webhook_id === webhookId && v.transmission_sig === expected && v.auth_algo === 'SHA256withRSA';
      return { status: 200, body: { verification_status: holds ? 'SUCCESS' : 'FAILURE' } };
    }
    const evidence = /^\/v1\/customer\/disputes\/([^/]+)\/provide-evidence$/.exec(req.path);
    if (req.method === 'POST' && evidence) {
      if (!req.parts?.some((p) => p.name === 'input')) {
        return error(400, 'INVALID_REQUEST', 'Request is not well-formed.', 'MISSING_REQUIRED_PARAMETER');
      }
      if (evidenceRefusal) {
        return error(422, 'UNPROCESSABLE_ENTITY', 'The requested action could not be performed.', evidenceRefusal);
      }
      return {
        status: 200,
        body: {
          links: [{ href: `https://api.paypal.com/v1/customer/disputes/${evidence[1]}`, rel: 'self', method: 'GET' }],
        },
      };
    }
    return error(404, 'RESOURCE_NOT_FOUND', `No route for ${req.method} ${req.path}.`);
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const contentType = req.headers['content-type'] ?? '';
      const entry: PayPalRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        headers: req.headers,
        body: null,
        raw,
      };
      if (contentType.startsWith('multipart/form-data')) entry.parts = parseMultipart(raw, contentType);
      else if (contentType.startsWith('application/x-www-form-urlencoded'))
        entry.body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
      else if (raw.length > 0) {
        try {
          entry.body = JSON.parse(raw.toString('utf8'));
        } catch {
          entry.body = null;
        }
      }
      requests.push(entry);
      const { status, body } = answer(entry);
      res.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': randomBytes(6).toString('hex') });
      res.end(JSON.stringify(body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    clientId,
    clientSecret,
    webhookId,
    requests,
    captures,
    tokensIssued: () => issued,
    revokeTokens: () => tokens.clear(),
    failNext: (...statuses) => failures.push(...statuses),
    refuseRefund: (captureId, issue, description) => refundRefusals.set(captureId, { issue, description }),
    refuseEvidence: (issue) => {
      evidenceRefusal = issue;
    },
    sign: (body, forWebhook = webhookId) => {
      const transmissionId = randomBytes(16).toString('hex');
      const time = new Date().toISOString();
      return {
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-5edc0ebc',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': signatureOf(transmissionId, time, forWebhook, body),
        'paypal-transmission-time': time,
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A PayPal webhook event as delivered (compact JSON, as PayPal sends it). */
export function paypalEvent(
  eventType: string,
  resource: Json,
  id = `WH-${randomBytes(10).toString('hex').toUpperCase()}`,
) {
  return JSON.stringify({
    id,
    event_version: '1.0',
    create_time: new Date().toISOString(),
    resource_type: eventType.startsWith('CUSTOMER.DISPUTE') ? 'dispute' : 'refund',
    event_type: eventType,
    summary: `${eventType} event`,
    resource,
    links: [{ href: `https://api.paypal.com/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' }],
  });
}

/** A dispute resource as CUSTOMER.DISPUTE.* events carry it. */
export function paypalDispute(fields: {
  id: string;
  captureId: string;
  value?: string;
  currency?: string;
  reason?: string;
  status?: string;
  dueBy?: Date;
  outcome?: string;
}): Json {
  return {
    dispute_id: fields.id,
    create_time: new Date().toISOString(),
    update_time: new Date().toISOString(),
    disputed_transactions: [
      { seller_transaction_id: fields.captureId, buyer_transaction_id: `B${randomBytes(6).toString('hex')}` },
    ],
    reason: fields.reason ?? 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
    status: fields.status ?? 'WAITING_FOR_SELLER_RESPONSE',
    dispute_amount: { currency_code: fields.currency ?? 'USD', value: fields.value ?? '89.00' },
    seller_response_due_date: (fields.dueBy ?? new Date(Date.now() + 10 * 86_400_000)).toISOString(),
    dispute_life_cycle_stage: 'CHARGEBACK',
    dispute_channel: 'INTERNAL',
    ...(fields.outcome ? { dispute_outcome: { outcome_code: fields.outcome } } : {}),
  };
}
