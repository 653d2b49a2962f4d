// Order detail fixtures shaped like the server's answer to get-orders-details (contracts OrderDetails): fields
// without a value are left out, lists newest first (remarks) or in time order (activity).
import type { Dispute, OrderDetails, RemarkEntry } from '@eta/contracts';
import { ok, type RecordedCall, type StubReply } from './api-stub';

export const DETAIL_ORDER_ID = 'ETA-200020076';

export function remarkEntry(overrides: Partial<RemarkEntry> = {}): RemarkEntry {
  return {
    id: 1,
    order_id: DETAIL_ORDER_ID,
    create_ts: '2026-11-20T15:04:05.000Z',
    us_date: '11/20/2026',
    us_time: '10:04:05 EST',
    remark_name: 'Ben Ode',
    remark: 'Customer asked for a call back',
    whatsapp: false,
    telephone: false,
    status_refund: false,
    voided: false,
    chargeback: false,
    report_error: false,
    ...overrides,
  };
}

export function orderDetails(overrides: Partial<OrderDetails> = {}): OrderDetails {
  return {
    order_id: DETAIL_ORDER_ID,
    email: 'maria@example.com',
    landing_site: 'default',
    payment_status: 'Success',
    amount_cents: 8900,
    currency: 'USD',
    process_status: 'Pending',
    processing_type: 'Standard',
    create_ts: '2026-11-19T09:30:00.000Z',
    assign_date: '2026-11-20T15:04:05.000Z',
    applying_for_someone: false,
    telephone_number: '7700900123',
    country_code: '44',
    travel_document: 'Passport - ordinary/regular',
    citizen_country: 'United Kingdom',
    passport_number: 'X1234567',
    passport_surname: 'Lopez',
    passport_first_name: 'Maria',
    birth_year: 1980,
    birth_month: 7,
    birth_date: 4,
    passport_exp_year: 2031,
    passport_exp_month: 1,
    passport_exp_date: 30,
    marital_status: 'Married',
    occupation: 'Engineer',
    preferred_language: 'English',
    street_name: 'Kirkgate',
    city: 'Leeds',
    have_you_ever_been_refused_a_visa_or_permit: false,
    customer_sign: 'signatures/ETA-200020076.png',
    customer_date: '2026-11-19T15:00:00.000Z',
    ip_address: '203.0.113.5',
    legal_version: 1,
    version: 3,
    assign_to: 'Asha Rao',
    assign_to_id: 7,
    uploadDoc: [],
    mailHistory: [],
    downloadHistory: [],
    remark: [],
    activity: [],
    timing: { travel_at: null, urgent: false, status_since: '2026-11-20T15:04:05.000Z', overdue_since: null },
    ...overrides,
  } as OrderDetails;
}

export const isDetailCall = (call: RecordedCall, orderId = DETAIL_ORDER_ID): boolean =>
  call.method === 'GET' && call.path === `/api/admin/get-orders-details/${orderId}`;

export const detailReply = (order: OrderDetails): StubReply => ok(order);

export const notFoundReply = (orderId: string): StubReply => ({
  status: 404,
  body: { status: 0, code: 'ORDER_NOT_FOUND', message: `Order ${orderId} was not found.` },
});

/** The chargebacks of an order (of any order without `orderId`) (issue 21): most orders have none. */
export const isDisputesCall = (call: RecordedCall, orderId?: string): boolean =>
  call.method === 'GET' &&
  (orderId ? call.path === `/api/admin/disputes/${orderId}` : /^\/api\/admin\/disputes\/[^/]+$/.test(call.path));

/** A Stripe chargeback opened on the order, evidence due `dueInDays` from `now`, nothing sent yet. */
export function dispute(overrides: Partial<Dispute> = {}, { now = new Date(), dueInDays = 5 } = {}): Dispute {
  const opened = new Date(now.getTime() - 2 * 86_400_000).toISOString();
  return {
    gateway_name: 'Stripe',
    dispute_id: 'dp_1QxDispute0001',
    reason: 'product_not_received',
    amount_cents: 8900,
    currency: 'USD',
    status: 'needs_response',
    // An hour past the whole days, so the days left are exactly `dueInDays`.
    evidence_due_by: new Date(now.getTime() + dueInDays * 86_400_000 + 3_600_000).toISOString(),
    outcome: null,
    outcome_at: null,
    evidence_state: null,
    evidence_pack_type: null,
    evidence_by: null,
    evidence_at: null,
    created_at: opened,
    history: [
      {
        at: opened,
        status: 'needs_response',
        outcome: null,
        by: 'Stripe',
        note: 'Chargeback opened at Stripe: product_not_received, 89.00 USD (dispute dp_1QxDispute0001).',
      },
    ],
    ...overrides,
  };
}
