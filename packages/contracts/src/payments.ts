// Payments and disputes (issue 21): the gateways' health for the gateway page, the webhooks the desk could not
// match, a chargeback with its history, the evidence sent from the desk and the Disputes report.
import { Type, type Static } from 'typebox';
import { Envelope } from './envelope.js';

export const GATEWAY_NAMES = ['Stripe', 'PayPal', 'Authorize.Net'] as const;
export type GatewayName = (typeof GATEWAY_NAMES)[number];

/** One gateway as the gateway page shows it: never a secret, only whether one is set. */
export const GatewayHealth = Type.Object({
  gateway_name: Type.String(),
  configured: Type.Boolean({ description: 'its credentials are set in the environment' }),
  /** What the desk can do through it: Authorize.Net refunds only (it has no dispute API). */
  verifiesPayments: Type.Boolean(),
  refunds: Type.Boolean(),
  disputes: Type.Boolean(),
  /** Paste into the gateway's dashboard; null for a gateway without webhooks here. */
  webhookUrl: Type.Union([Type.String(), Type.Null()]),
  lastWebhookAt: Type.Union([Type.String(), Type.Null()]),
  lastWebhookVerified: Type.Union([Type.Boolean(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastErrorAt: Type.Union([Type.String(), Type.Null()]),
  /** A sentence for the page when something is missing or cannot be done (e.g. no dispute API). */
  note: Type.Union([Type.String(), Type.Null()]),
});
export type GatewayHealth = Static<typeof GatewayHealth>;
export const GatewayHealthResponse = Envelope(Type.Array(GatewayHealth));

/** A verified webhook the desk could not match to an order: kept and shown, never dropped. */
export const UnmatchedEvent = Type.Object({
  id: Type.Integer(),
  gateway_name: Type.String(),
  event_id: Type.String(),
  type: Type.String(),
  received_at: Type.String(),
  note: Type.String(),
});
export type UnmatchedEvent = Static<typeof UnmatchedEvent>;
export const UnmatchedEventsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export const UnmatchedEventsResponse = Envelope(
  Type.Object({ rows: Type.Array(UnmatchedEvent), total: Type.Integer({ minimum: 0 }) }),
);

export const DisputeOutcome = Type.Union([Type.Literal('won'), Type.Literal('lost'), Type.Null()]);

export const DisputeHistoryEntry = Type.Object({
  at: Type.String(),
  status: Type.String(),
  outcome: Type.Union([Type.String(), Type.Null()]),
  by: Type.String({ description: 'the gateway, or the staff member who acted' }),
  note: Type.String(),
});
export type DisputeHistoryEntry = Static<typeof DisputeHistoryEntry>;

/** A chargeback as its gateway reports it, with what the desk did about it. */
export const Dispute = Type.Object({
  gateway_name: Type.String(),
  dispute_id: Type.String(),
  reason: Type.String(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  status: Type.String(),
  evidence_due_by: Type.Union([Type.String(), Type.Null()]),
  outcome: DisputeOutcome,
  outcome_at: Type.Union([Type.String(), Type.Null()]),
  evidence_state: Type.Union([Type.Literal('draft'), Type.Literal('submitted'), Type.Null()]),
  evidence_pack_type: Type.Union([Type.Integer(), Type.Null()]),
  evidence_by: Type.Union([Type.String(), Type.Null()]),
  evidence_at: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  history: Type.Array(DisputeHistoryEntry),
});
export type Dispute = Static<typeof Dispute>;
export const DisputeListResponse = Envelope(Type.Array(Dispute));

/** What a ChargeBack list row shows of the order's open dispute. */
export const DisputeSummary = Type.Object({
  reason: Type.String(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  status: Type.String(),
  evidence_due_by: Type.Union([Type.String(), Type.Null()]),
  evidence_state: Type.Union([Type.Literal('draft'), Type.Literal('submitted'), Type.Null()]),
});
export type DisputeSummary = Static<typeof DisputeSummary>;

export const DisputeOrderParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 40 }) });
const PackType = Type.Union([Type.Literal(1), Type.Literal(2)], {
  errorMessage: 'Choose defence pack 1 or 2.',
});
export const EvidencePreviewQuery = Type.Object({ defencePackType: PackType });

/** What would be sent: the text fields the pack answers (by the gateway's names) and the PDF's file name. */
export const EvidencePreview = Type.Object({
  gateway_name: Type.String(),
  dispute_id: Type.String(),
  fields: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
  fileName: Type.String(),
  /** Whether the gateway keeps a draft (Stripe); PayPal takes evidence only as final, so Save draft is not offered. */
  drafts: Type.Boolean(),
});
export type EvidencePreview = Static<typeof EvidencePreview>;
export const EvidencePreviewResponse = Envelope(EvidencePreview);

export const SubmitEvidenceBody = Type.Object({
  defencePackType: PackType,
  /** false: saved at the gateway as a draft, still editable there; true: sent for review, final. */
  submit: Type.Boolean(),
});
export type SubmitEvidenceBody = Static<typeof SubmitEvidenceBody>;
export const SubmitEvidenceResponse = Envelope(Dispute);

/** The Disputes report: one row per month opened, landing site, gateway and reason. */
export const DisputesReportBody = Type.Object({
  fromDate: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 })),
  toDate: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 })),
});
export type DisputesReportBody = Static<typeof DisputesReportBody>;
export const DisputesReportRow = Type.Object({
  month: Type.String({ description: 'YYYY-MM, UTC, of when the dispute was opened' }),
  landing_site: Type.String(),
  gateway_name: Type.String(),
  reason: Type.String(),
  opened: Type.Integer({ minimum: 0 }),
  won: Type.Integer({ minimum: 0 }),
  lost: Type.Integer({ minimum: 0 }),
  open: Type.Integer({ minimum: 0 }),
  /** won / (won + lost), 0-1; null while none is decided. */
  win_rate: Type.Union([Type.Number(), Type.Null()]),
});
export type DisputesReportRow = Static<typeof DisputesReportRow>;
export const DisputesReportResponse = Envelope(
  Type.Object({
    rows: Type.Array(DisputesReportRow),
    totals: Type.Object({
      opened: Type.Integer(),
      won: Type.Integer(),
      lost: Type.Integer(),
      open: Type.Integer(),
      win_rate: Type.Union([Type.Number(), Type.Null()]),
    }),
  }),
);

/** What the intake answer says of the payment once the gateway was asked (or could not be). */
export const IntakePaymentCheck = Type.Object({
  status: Type.Union([Type.Literal('Success'), Type.Literal('Pending'), Type.Literal('Failed')]),
  verified: Type.Boolean({ description: 'the gateway confirmed the payment, its amount and currency' }),
  message: Type.String(),
});
export type IntakePaymentCheck = Static<typeof IntakePaymentCheck>;
