// A loopback stand-in of Authorize.Net's JSON API (POST /xml/v1/request.api), just enough for the real `authorizenet`
// SDK: one endpoint, the request type named by the body's one key, merchantAuthentication checked, answers with a
// UTF-8 BOM before the JSON as Authorize.Net sends them, and HTTP 200 with resultCode "Error" for refusals. It keeps
// transactions (settled or not, card last four), takes refunds (card last four and amount checked, credits never
// above the payment, duplicates refused) and voids, and lists unsettled transactions. Every request is recorded.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthorizeNetTransaction {
  transId: string;
  status: 'settledSuccessfully' | 'capturedPendingSettlement' | 'voided' | 'declined' | 'refundPendingSettlement';
  amount: number;
  cardLastFour: string;
  transactionType?: string;
  invoiceNumber?: string;
  refTransId?: string;
}

export interface AuthorizeNetRequest {
  /** The request's type: getTransactionDetailsRequest, createTransactionRequest ... */
  type: string;
  body: Record<string, unknown>;
  /** The body's keys in the order they were sent (Authorize.Net's schema wants merchantAuthentication first). */
  keys: string[];
}

export interface AuthorizeNetStandIn {
  /** What AUTHORIZE_NET_API_URL is set to (the SDK posts to url + /xml/v1/request.api). */
  url: string;
  loginId: string;
  transactionKey: string;
  requests: AuthorizeNetRequest[];
  transactions: Map<string, AuthorizeNetTransaction>;
  /** Answer the next requests with these HTTP statuses (then normally again). */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const ok = { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] };
const refused = (code: string, text: string) => ({ messages: { resultCode: 'Error', message: [{ code, text }] } });

export async function startAuthorizeNetStandIn(): Promise<AuthorizeNetStandIn> {
  const loginId = `login${randomBytes(4).toString('hex')}`;
  const transactionKey = randomBytes(8).toString('hex').slice(0, 16);
  const requests: AuthorizeNetRequest[] = [];
  const transactions = new Map<string, AuthorizeNetTransaction>();
  const failures: number[] = [];
  let nextId = 80_000_000_000;

  const transactionFailure = (refTransId: string, lastFour: string, errorCode: string, errorText: string) => ({
    transactionResponse: {
      responseCode: '3',
      authCode: '',
      avsResultCode: 'P',
      cvvResultCode: '',
      cavvResultCode: '',
      transId: '0',
      refTransID: refTransId,
      transHash: '',
      testRequest: '0',
      accountNumber: `XXXX${lastFour}`,
      accountType: 'Visa',
      errors: [{ errorCode, errorText }],
      transHashSha2: '',
    },
    messages: { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
  });

  const createTransaction = (request: Json): Json => {
    const tr = (request.transactionRequest ?? {}) as Json;
    const type = String(tr.transactionType ?? '');
    const refTransId = String(tr.refTransId ?? '');
    const original = transactions.get(refTransId);
    const card = ((tr.payment as Json | undefined)?.creditCard ?? {}) as Json;
    const invoiceNumber = ((tr.order as Json | undefined)?.invoiceNumber as string | undefined) ?? undefined;
    if (!original) return transactionFailure(refTransId, '', '16', 'The transaction cannot be found.');
    if (type === 'voidTransaction') {
      if (original.status !== 'capturedPendingSettlement') {
        return transactionFailure(refTransId, original.cardLastFour, '16', 'The transaction cannot be found.');
      }
      original.status = 'voided';
    } else if (type === 'refundTransaction') {
      const amount = Number(tr.amount);
      const credited = [...transactions.values()]
        .filter((t) => t.refTransId === refTransId && t.transactionType === 'refundTransaction')
        .reduce((sum, t) => sum + t.amount, 0);
      if (original.status !== 'settledSuccessfully' || card.cardNumber !== original.cardLastFour) {
        return transactionFailure(
          refTransId,
          original.cardLastFour,
          '54',
          'The referenced transaction does not meet the criteria for issuing a credit.',
        );
      }
      if (card.expirationDate !== 'XXXX' && !/^\d{4}(-\d{2})?$/.test(String(card.expirationDate))) {
        return transactionFailure(refTransId, original.cardLastFour, '8', 'The credit card has expired.');
      }
      if (Math.round((credited + amount) * 100) > Math.round(original.amount * 100)) {
        return transactionFailure(
          refTransId,
          original.cardLastFour,
          '55',
          'The sum of credits against the referenced transaction would exceed original debit amount.',
        );
      }
      nextId += 1;
      transactions.set(String(nextId), {
        transId: String(nextId),
        status: 'refundPendingSettlement',
        amount,
        cardLastFour: original.cardLastFour,
        transactionType: 'refundTransaction',
        ...(invoiceNumber ? { invoiceNumber } : {}),
        refTransId,
      });
    } else {
      return { ...refused('E00003', `The transaction type ${type} is not taken by the stand-in.`) };
    }
    return {
      transactionResponse: {
        responseCode: '1',
        authCode: '',
        avsResultCode: 'P',
        cvvResultCode: '',
        cavvResultCode: '',
        transId: type === 'voidTransaction' ? refTransId : String(nextId),
        refTransID: refTransId,
        transHash: '',
        testRequest: '0',
        accountNumber: `XXXX${original.cardLastFour}`,
        accountType: 'Visa',
        messages: [{ code: '1', description: 'This transaction has been approved.' }],
        transHashSha2: '',
      },
      refId: request.refId ?? '',
      messages: ok,
    };
  };

  const answer = (type: string, request: Json): Json => {
    const auth = (request.merchantAuthentication ?? {}) as Json;
    if (auth.name !== loginId || auth.transactionKey !== transactionKey) {
      return refused('E00007', 'User authentication failed due to invalid authentication values.');
    }
    if (type === 'getTransactionDetailsRequest') {
      const t = transactions.get(String(request.transId));
      if (!t) return refused('E00040', 'The record cannot be found.');
      return {
        transaction: {
          transId: t.transId,
          submitTimeUTC: new Date().toISOString(),
          transactionType: t.transactionType ?? 'authCaptureTransaction',
          transactionStatus: t.status,
          responseCode: 1,
          responseReasonCode: 1,
          responseReasonDescription: 'Approval',
          authCode: '000000',
          AVSResponse: 'Y',
          authAmount: t.amount,
          settleAmount: t.amount,
          taxExempt: false,
          payment: { creditCard: { cardNumber: `XXXX${t.cardLastFour}`, expirationDate: 'XXXX', cardType: 'Visa' } },
          recurringBilling: false,
          product: 'Card Not Present',
          marketType: 'eCommerce',
        },
        messages: ok,
      };
    }
    if (type === 'getUnsettledTransactionListRequest') {
      const list = [...transactions.values()]
        .filter((t) => t.status === 'capturedPendingSettlement' || t.status === 'refundPendingSettlement')
        .reverse()
        .map((t) => ({
          transId: t.transId,
          submitTimeUTC: new Date().toISOString(),
          transactionStatus: t.status,
          ...(t.invoiceNumber ? { invoiceNumber: t.invoiceNumber } : {}),
          accountType: 'Visa',
          accountNumber: `XXXX${t.cardLastFour}`,
          settleAmount: t.amount,
          marketType: 'eCommerce',
          product: 'Card Not Present',
        }));
      return { transactions: list, totalNumInResultSet: list.length, messages: ok };
    }
    if (type === 'createTransactionRequest') return createTransaction(request);
    return refused('E00003', `The element '${type}' is not taken by the stand-in.`);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const failure = failures.shift();
      if (failure) {
        res.writeHead(failure, { 'content-type': 'text/html' });
        res.end('<html><body>Service Unavailable</body></html>');
        return;
      }
      let parsed: Json = {};
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      } catch {
        parsed = {};
      }
      const type = Object.keys(parsed)[0] ?? '';
      const body = (parsed[type] ?? {}) as Json;
      if (req.method === 'POST' && req.url === '/xml/v1/request.api') {
        requests.push({ type, body, keys: Object.keys(body) });
      }
      const result =
        req.method === 'POST' && req.url === '/xml/v1/request.api'
          ? answer(type, body)
          : refused('E00002', 'The content-type specified is not supported.');
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(`\uFEFF${JSON.stringify(result)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    loginId,
    transactionKey,
    requests,
    transactions,
    failNext: (...statuses) => failures.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
