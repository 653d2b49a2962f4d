// Authorize.Net through its official SDK (`authorizenet`), for refunds only: Authorize.Net offers no dispute API and
// the desk takes no webhooks from it (chargebacks are answered in its Merchant Interface), and its payments are taken
// as the landing site sent them. A refund needs the card's last four digits, so the transaction's details are read
// first; a transaction not settled yet cannot be refunded and is voided instead.
//
// Authorize.Net has no idempotency key. A retried refund is kept from refunding twice by Authorize.Net's own rules:
// the refund is for the whole settled amount, so a second one is refused (credits would exceed the debit, or a
// duplicate within its window), and a voided transaction reads as voided. The refund carries the desk's key as its
// invoice number; when Authorize.Net refuses a second refund, the first one is looked up by that number among the
// unsettled transactions (a retry minutes later, as after a crash between Authorize.Net and the desk) and answered
// again. One that has settled since, or a refund made in the Merchant Interface, is reported as already refunded.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import authorizenet from 'authorizenet';
import type { PaymentsConfig } from '../../../lib/config.js';
import {
  GatewayError,
  WebhookSignatureError,
  type GatewayEvent,
  type PaymentCheck,
  type PaymentGateway,
  type RefundResult,
} from '../payment-gateway.js';

type AuthorizeNetConfig = NonNullable<PaymentsConfig['authorizeNet']>;
type Controller = InstanceType<typeof authorizenet.APIControllers.CreateTransactionController>;
type MerchantAuthentication = InstanceType<typeof authorizenet.APIContracts.MerchantAuthenticationType>;

const { APIContracts, APIControllers } = authorizenet;
const TIMEOUT_MS = 10_000;
const ENDPOINT_PATH = '/xml/v1/request.api';
/** Authorize.Net's limit on an invoice number. */
const INVOICE_MAX = 20;
/** How many of the newest unsettled transactions are searched for an earlier refund. */
const UNSETTLED_PAGE = 1000;

/**
 * The SDK makes a winston logger, kept forever in winston's shared container, for every request object and
 * controller it builds (about 70 kB a call). The adapter forgets the ones a call made once it is over; the loggers
 * stay usable by anything still holding them and are then garbage-collected.
 */
const sdkLoggers = (
  createRequire(createRequire(import.meta.url).resolve('authorizenet'))('winston') as {
    loggers: { loggers: Map<string, unknown> };
  }
).loggers.loggers;

/** What Authorize.Net's JSON API answers (its responses start with a UTF-8 BOM, which the SDK's HTTP client drops). */
interface AnetResponse {
  messages?: { resultCode?: string; message?: { code?: string; text?: string }[] };
}
interface TransactionDetails {
  transId?: string;
  transactionType?: string;
  transactionStatus?: string;
  settleAmount?: number | string;
  payment?: { creditCard?: { cardNumber?: string }; bankAccount?: unknown };
}
interface DetailsResponse extends AnetResponse {
  transaction?: TransactionDetails;
}
interface TransactionResponse {
  responseCode?: string;
  transId?: string;
  errors?: { errorCode?: string; errorText?: string }[];
  messages?: { code?: string; description?: string }[];
}
interface CreateResponse extends AnetResponse {
  transactionResponse?: TransactionResponse;
}
interface UnsettledResponse extends AnetResponse {
  transactions?: { transId?: string; transactionStatus?: string; invoiceNumber?: string }[];
}

/** A call that did not succeed; transient: Authorize.Net could not be reached or could not take the call now. */
class AuthorizeNetCallError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** Codes that say "not now" or "not with these credentials" rather than "no". */
const TRANSIENT_CODES = new Set(['E00001', 'E00007', 'E00008', 'E00011']);

const httpFailure = (error: unknown) => {
  const e = (error ?? {}) as { response?: { status?: number }; code?: string; message?: string };
  return e.response?.status ? `HTTP ${e.response.status}` : (e.code ?? e.message ?? 'no answer in time');
};

/** Runs a controller; the SDK calls back only on an answer and leaves a failure in getError(), so that is watched. */
function execute(controller: Controller): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const giveUpAt = Date.now() + TIMEOUT_MS + 2000;
    const watch = setInterval(() => {
      const error = controller.getError();
      if (error || Date.now() > giveUpAt) {
        clearInterval(watch);
        reject(new AuthorizeNetCallError(`Authorize.Net could not be reached (${httpFailure(error)})`, true));
      }
    }, 25);
    controller.execute(() => {
      clearInterval(watch);
      resolve(controller.getResponse());
    });
  });
}

/** The refund's invoice number: the desk's key, or a digest of it when longer than Authorize.Net takes. */
const invoiceNumberOf = (key: string) =>
  key.length <= INVOICE_MAX
    ? key
    : `r-${createHash('sha256')
        .update(key)
        .digest('hex')
        .slice(0, INVOICE_MAX - 2)}`;

const UNSETTLED = new Set(['authorizedPendingCapture', 'capturedPendingSettlement', 'approvedReview']);
const HELD = new Set(['FDSPendingReview', 'FDSAuthorizedPendingReview', 'underReview']);

export class AuthorizeNetGateway implements PaymentGateway {
  readonly name = 'Authorize.Net' as const;
  readonly configured = true;
  readonly supports = { verify: false, refund: true, disputes: false, drafts: false, webhooks: false };
  readonly note =
    'Refunds only. Authorize.Net offers no dispute API: chargebacks are answered in its Merchant Interface. Its payments are taken as the landing site sent them.';
  private readonly endpoint: string;
  /** The SDK's settings: a short timeout, its file logger off. */
  private readonly sdkConfig = {
    timeout: TIMEOUT_MS,
    clientId: 'sdk-node',
    logger: { enabled: false, location: './', level: 'error' },
    proxy: { setProxy: false, proxyUrl: '' },
  };

  constructor(private readonly config: AuthorizeNetConfig) {
    this.endpoint = config.apiUrl.endsWith(ENDPOINT_PATH) ? config.apiUrl : `${config.apiUrl}${ENDPOINT_PATH}`;
  }

  /** One SDK call: the request built with the merchant's credentials, posted to AUTHORIZE_NET_API_URL. */
  private async call<T extends AnetResponse>(build: (auth: MerchantAuthentication) => Controller): Promise<T> {
    const before = new Set(sdkLoggers.keys());
    try {
      const auth = new APIContracts.MerchantAuthenticationType();
      auth.setName(this.config.loginId);
      auth.setTransactionKey(this.config.transactionKey);
      const controller = build(auth);
      controller.setEnvironment(this.endpoint);
      const answer = await execute(controller);
      if (!answer || typeof answer !== 'object' || !('messages' in answer)) {
        throw new AuthorizeNetCallError('Authorize.Net gave an answer the desk cannot read', true);
      }
      return answer as T;
    } finally {
      for (const id of sdkLoggers.keys()) if (!before.has(id)) sdkLoggers.delete(id);
    }
  }

  /** The call's answer when Authorize.Net took it; otherwise its first message as an AuthorizeNetCallError. */
  private ok<T extends AnetResponse>(answer: T): T {
    if (answer.messages?.resultCode === 'Ok') return answer;
    const first = answer.messages?.message?.[0];
    const code = first?.code ?? null;
    throw new AuthorizeNetCallError(
      `Authorize.Net: ${first?.text ?? 'the call was refused'}${code ? ` (${code})` : ''}`,
      code !== null && TRANSIENT_CODES.has(code),
      code,
    );
  }

  private async details(transId: string): Promise<TransactionDetails> {
    const answer = await this.call<DetailsResponse>((auth) => {
      const request = new APIContracts.GetTransactionDetailsRequest();
      request.setMerchantAuthentication(auth);
      request.setTransId(transId);
      return new APIControllers.GetTransactionDetailsController(request.getJSON(), this.sdkConfig);
    });
    return this.ok(answer).transaction ?? {};
  }

  /** A refund or void of `transId`; its transaction response, whether Authorize.Net approved it or not. */
  private async transact(
    type: string,
    transId: string,
    invoiceNumber: string,
    refund?: { amount: string; lastFour: string },
  ): Promise<CreateResponse> {
    return this.call<CreateResponse>((auth) => {
      const transaction = new APIContracts.TransactionRequestType();
      transaction.setTransactionType(type);
      if (refund) {
        const card = new APIContracts.CreditCardType();
        card.setCardNumber(refund.lastFour);
        card.setExpirationDate('XXXX');
        const payment = new APIContracts.PaymentType();
        payment.setCreditCard(card);
        transaction.setAmount(refund.amount);
        transaction.setPayment(payment);
      }
      transaction.setRefTransId(transId);
      const order = new APIContracts.OrderType();
      order.setInvoiceNumber(invoiceNumber);
      order.setDescription(`eTA Desk ${refund ? 'refund' : 'void'} of transaction ${transId}`);
      transaction.setOrder(order);
      const request = new APIContracts.CreateTransactionRequest();
      request.setMerchantAuthentication(auth);
      request.setRefId(invoiceNumber);
      request.setTransactionRequest(transaction);
      return new APIControllers.CreateTransactionController(request.getJSON(), this.sdkConfig);
    });
  }

  /** The refund made earlier with this invoice number, while it is unsettled; null when there is none. */
  private async earlierRefund(invoiceNumber: string): Promise<string | null> {
    const answer = await this.call<UnsettledResponse>((auth) => {
      const sorting = new APIContracts.TransactionListSorting();
      sorting.setOrderBy(APIContracts.TransactionListOrderFieldEnum.SUBMITTIMEUTC);
      sorting.setOrderDescending(true);
      const paging = new APIContracts.Paging();
      paging.setLimit(UNSETTLED_PAGE);
      paging.setOffset(1);
      const request = new APIContracts.GetUnsettledTransactionListRequest();
      request.setMerchantAuthentication(auth);
      request.setSorting(sorting);
      request.setPaging(paging);
      return new APIControllers.GetUnsettledTransactionListController(request.getJSON(), this.sdkConfig);
    });
    const found = (this.ok(answer).transactions ?? []).find(
      (t) => t.invoiceNumber === invoiceNumber && t.transactionStatus === 'refundPendingSettlement',
    );
    return found?.transId ?? null;
  }

  checkPayment(): Promise<PaymentCheck> {
    return Promise.reject(new GatewayError('The desk does not check Authorize.Net payments.', false));
  }

  async refund(
    payment: { transactionId: string; chargeId: string | null },
    idempotencyKey: string,
  ): Promise<RefundResult> {
    const transId = payment.transactionId;
    const invoiceNumber = invoiceNumberOf(idempotencyKey);
    try {
      const tx = await this.details(transId);
      const status = tx.transactionStatus ?? 'unknown';
      if (status === 'voided') return { ok: true, refundId: tx.transId ?? transId };
      if (UNSETTLED.has(status)) {
        const answer = await this.transact(APIContracts.TransactionTypeEnum.VOIDTRANSACTION, transId, invoiceNumber);
        return await this.settle(answer, transId, invoiceNumber, 'void');
      }
      if (HELD.has(status)) {
        return {
          ok: false,
          reason: `Authorize.Net: transaction ${transId} is held for review (${status}); decide it in the Merchant Interface first`,
          retry: false,
        };
      }
      if (status !== 'settledSuccessfully') {
        return {
          ok: false,
          reason: `Authorize.Net: transaction ${transId} is ${status}, not a settled payment; there is nothing to refund`,
          retry: false,
        };
      }
      const lastFour = /(\d{4})$/.exec(tx.payment?.creditCard?.cardNumber ?? '')?.[1];
      if (!lastFour) {
        return {
          ok: false,
          reason: `Authorize.Net: transaction ${transId} was not paid by card; refund it in the Merchant Interface`,
          retry: false,
        };
      }
      const amount = String(tx.settleAmount ?? '');
      if (!/^\d+(\.\d+)?$/.test(amount) || Number(amount) <= 0) {
        return { ok: false, reason: `Authorize.Net: transaction ${transId} has no settled amount`, retry: false };
      }
      const answer = await this.transact(APIContracts.TransactionTypeEnum.REFUNDTRANSACTION, transId, invoiceNumber, {
        amount,
        lastFour,
      });
      return await this.settle(answer, transId, invoiceNumber, 'refund');
    } catch (err) {
      // Anything unforeseen may have happened after Authorize.Net refunded: trying again is safe (see the top).
      if (!(err instanceof AuthorizeNetCallError)) {
        return { ok: false, reason: `Authorize.Net: ${err instanceof Error ? err.message : String(err)}`, retry: true };
      }
      if (err.code === 'E00040')
        return { ok: false, reason: `Authorize.Net has no transaction ${transId}`, retry: false };
      return { ok: false, reason: err.message, retry: err.transient };
    }
  }

  /** What a refund's or void's answer means for the order. */
  private async settle(
    answer: CreateResponse,
    transId: string,
    invoiceNumber: string,
    kind: 'refund' | 'void',
  ): Promise<RefundResult> {
    const response = answer.transactionResponse;
    if (answer.messages?.resultCode === 'Ok' && response?.responseCode === '1') {
      return { ok: true, refundId: response.transId && response.transId !== '0' ? response.transId : transId };
    }
    const error = response?.errors?.[0];
    // 11: a duplicate within Authorize.Net's window; 55: credits would exceed the payment. Either way it was
    // refunded already: by the desk's earlier try (answered again) or elsewhere.
    if (kind === 'refund' && (error?.errorCode === '11' || error?.errorCode === '55')) {
      const earlier = await this.earlierRefund(invoiceNumber);
      if (earlier) return { ok: true, refundId: earlier };
      return {
        ok: false,
        reason: `Authorize.Net: already refunded (transaction ${transId} has credits for its whole amount); nothing was refunded again`,
        retry: false,
      };
    }
    if (!response && answer.messages?.resultCode !== 'Ok') this.ok(answer);
    const why = error
      ? `${error.errorText ?? 'refused'} (error ${error.errorCode ?? '?'})`
      : (response?.messages?.[0]?.description ?? answer.messages?.message?.[0]?.text ?? 'refused');
    return {
      ok: false,
      reason: `Authorize.Net: the ${kind} of transaction ${transId} was not made: ${why}`,
      retry: false,
    };
  }

  submitEvidence(): Promise<void> {
    return Promise.reject(
      new GatewayError('Authorize.Net offers no dispute API: answer the chargeback in its Merchant Interface.', false),
    );
  }

  verifyWebhook(): Promise<GatewayEvent> {
    return Promise.reject(new WebhookSignatureError('Authorize.Net sends no webhooks to the desk.'));
  }
}
