// The payment gateways the desk knows, each behind the one PaymentGateway interface. An adapter's SDK is loaded
// only when its gateway is configured; an unconfigured gateway answers with what is missing and is never called.
import { GATEWAY_NAMES, type GatewayName } from '@eta/contracts';
import type { PaymentsConfig } from '../../lib/config.js';
import { GatewayError, WebhookSignatureError, type PaymentGateway } from './payment-gateway.js';

const WHAT_IT_DOES: Record<GatewayName, PaymentGateway['supports']> = {
  Stripe: { verify: true, refund: true, disputes: true, drafts: true, webhooks: true },
  PayPal: { verify: true, refund: true, disputes: true, drafts: false, webhooks: true },
  // Authorize.Net has no dispute API and no dispute webhooks: chargebacks are worked in its Merchant Interface.
  'Authorize.Net': { verify: false, refund: true, disputes: false, drafts: false, webhooks: false },
};

const MISSING: Record<GatewayName, string> = {
  Stripe: 'Not configured: set STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET for webhooks).',
  PayPal: 'Not configured: set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET (and PAYPAL_WEBHOOK_ID for webhooks).',
  'Authorize.Net':
    'Not configured: set AUTHORIZE_NET_LOGIN_ID and AUTHORIZE_NET_TRANSACTION_KEY. Authorize.Net offers no dispute API: chargebacks are answered in its Merchant Interface.',
};

/** A gateway without credentials: says what is missing, refuses every call. */
class UnconfiguredGateway implements PaymentGateway {
  readonly configured = false;
  readonly supports: PaymentGateway['supports'];
  readonly note: string;
  constructor(readonly name: GatewayName) {
    this.supports = WHAT_IT_DOES[name];
    this.note = MISSING[name];
  }
  private refuse(): never {
    throw new GatewayError(`${this.name} is not configured on this server. ${this.note}`, false);
  }
  checkPayment = async () => this.refuse();
  refund = async () => this.refuse();
  submitEvidence = async () => this.refuse();
  verifyWebhook = async (): Promise<never> => {
    throw new WebhookSignatureError(`${this.name} webhooks are not configured on this server.`);
  };
}

export class PaymentGateways {
  private readonly byName: Map<string, PaymentGateway>;
  constructor(list: PaymentGateway[]) {
    this.byName = new Map(list.map((g) => [g.name, g]));
  }
  /** The adapter of a gateway row's name; undefined for a name the desk has no adapter for. */
  get(name: string): PaymentGateway | undefined {
    return this.byName.get(name);
  }
  all(): PaymentGateway[] {
    return [...this.byName.values()];
  }
}

export async function openPaymentGateways(config: PaymentsConfig): Promise<PaymentGateways> {
  const stripe = config.stripe
    ? new (await import('./stripe/stripe-gateway.js')).StripeGateway(config.stripe)
    : new UnconfiguredGateway('Stripe');
  const paypal = config.paypal
    ? new (await import('./paypal/paypal-gateway.js')).PayPalGateway(config.paypal)
    : new UnconfiguredGateway('PayPal');
  const authorizeNet = config.authorizeNet
    ? new (await import('./authorize-net/authorize-net-gateway.js')).AuthorizeNetGateway(config.authorizeNet)
    : new UnconfiguredGateway('Authorize.Net');
  const list = [stripe, paypal, authorizeNet];
  if (list.map((g) => g.name).join() !== GATEWAY_NAMES.join()) throw new Error('every gateway needs an adapter');
  return new PaymentGateways(list);
}
