// The part of the `authorizenet` SDK (it ships no types) the Authorize.Net adapter uses: request contracts built by
// setters (which keeps the elements in the order Authorize.Net's schema wants) and controllers that post them.
declare module 'authorizenet' {
  interface MerchantAuthenticationType {
    setName(name: string): void;
    setTransactionKey(key: string): void;
  }
  interface GetTransactionDetailsRequest {
    setMerchantAuthentication(auth: MerchantAuthenticationType): void;
    setTransId(transId: string): void;
    getJSON(): object;
  }
  interface TransactionListSorting {
    setOrderBy(field: string): void;
    setOrderDescending(descending: boolean): void;
  }
  interface Paging {
    setLimit(limit: number): void;
    setOffset(page: number): void;
  }
  interface GetUnsettledTransactionListRequest {
    setMerchantAuthentication(auth: MerchantAuthenticationType): void;
    setSorting(sorting: TransactionListSorting): void;
    setPaging(paging: Paging): void;
    getJSON(): object;
  }
  interface CreditCardType {
    setCardNumber(number: string): void;
    setExpirationDate(date: string): void;
  }
  interface PaymentType {
    setCreditCard(card: CreditCardType): void;
  }
  interface OrderType {
    setInvoiceNumber(invoiceNumber: string): void;
    setDescription(description: string): void;
  }
  interface TransactionRequestType {
    setTransactionType(type: string): void;
    setAmount(amount: string): void;
    setPayment(payment: PaymentType): void;
    setRefTransId(transId: string): void;
    setOrder(order: OrderType): void;
  }
  interface CreateTransactionRequest {
    setMerchantAuthentication(auth: MerchantAuthenticationType): void;
    setRefId(refId: string): void;
    setTransactionRequest(request: TransactionRequestType): void;
    getJSON(): object;
  }

  /** The SDK's settings (lib/config.js); a controller given them makes them the SDK's settings. */
  interface SdkConfig {
    timeout: number;
    clientId: string;
    logger: { enabled: boolean; location: string; level: string };
    proxy: { setProxy: boolean; proxyUrl: string };
  }
  /** Posts one request. execute's callback runs only when an answer arrived; a failure is left in getError(). */
  interface Controller {
    setEnvironment(endpoint: string): void;
    execute(callback: () => void): void;
    getResponse(): unknown;
    getError(): unknown;
  }

  const sdk: {
    APIContracts: {
      MerchantAuthenticationType: new () => MerchantAuthenticationType;
      GetTransactionDetailsRequest: new () => GetTransactionDetailsRequest;
      GetUnsettledTransactionListRequest: new () => GetUnsettledTransactionListRequest;
      TransactionListSorting: new () => TransactionListSorting;
      Paging: new () => Paging;
      CreditCardType: new () => CreditCardType;
      PaymentType: new () => PaymentType;
      OrderType: new () => OrderType;
      TransactionRequestType: new () => TransactionRequestType;
      CreateTransactionRequest: new () => CreateTransactionRequest;
      TransactionTypeEnum: { REFUNDTRANSACTION: string; VOIDTRANSACTION: string };
      TransactionListOrderFieldEnum: { SUBMITTIMEUTC: string };
    };
    APIControllers: {
      GetTransactionDetailsController: new (request: object, config?: SdkConfig) => Controller;
      GetUnsettledTransactionListController: new (request: object, config?: SdkConfig) => Controller;
      CreateTransactionController: new (request: object, config?: SdkConfig) => Controller;
    };
  };
  export default sdk;
}
