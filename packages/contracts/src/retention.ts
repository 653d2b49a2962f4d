// Retention, legal hold and customers' requests (issue 24): the retention policy per landing site, the retention
// job's runs and dry-run report, an order's legal hold, and subject-access and erasure requests by e-mail address.
import { Type, type Static } from 'typebox';
import { RETENTION_MONTHS_MAX, RETENTION_MONTHS_MIN } from './domain.js';
import { Envelope } from './envelope.js';

export const RetentionPolicy = Type.Object({
  key: Type.String(),
  displayName: Type.String(),
  /** Months after the travel date (else the order date) that an order's personal data is kept. */
  months: Type.Integer(),
});
export type RetentionPolicy = Static<typeof RetentionPolicy>;

export const RetentionPolicyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 40 }) });
export const UpdateRetentionPolicyBody = Type.Object({
  months: Type.Integer({
    minimum: RETENTION_MONTHS_MIN,
    maximum: RETENTION_MONTHS_MAX,
    errorMessage: `Months must be a whole number from ${RETENTION_MONTHS_MIN} to ${RETENTION_MONTHS_MAX}.`,
  }),
});
export type UpdateRetentionPolicyBody = Static<typeof UpdateRetentionPolicyBody>;

export const ERASURE_SKIP_CODES = ['LEGAL_HOLD', 'DISPUTE_OPEN', 'ALREADY_ERASED', 'ORDER_NOT_FOUND'] as const;
export type ErasureSkipCode = (typeof ERASURE_SKIP_CODES)[number];

export const ErasureSkip = Type.Object({
  orderId: Type.String(),
  site: Type.Optional(Type.String()),
  code: Type.Enum(ERASURE_SKIP_CODES),
  reason: Type.String(),
});
export type ErasureSkip = Static<typeof ErasureSkip>;

/** What a run erased (or, dry, would erase) per landing site, which orders, and which it skipped and why. */
export const RetentionReport = Type.Object({
  bySite: Type.Array(Type.Object({ site: Type.String(), erased: Type.Integer(), skipped: Type.Integer() })),
  /** The orders erased (dry: due), the first 500. */
  orders: Type.Array(Type.Object({ orderId: Type.String(), site: Type.String(), dueFrom: Type.String() })),
  skips: Type.Array(ErasureSkip),
  /** More orders or skips than listed. */
  truncated: Type.Boolean(),
});
export type RetentionReport = Static<typeof RetentionReport>;

export const RETENTION_RUN_STATES = ['running', 'finished', 'failed'] as const;

export const RetentionRun = Type.Object({
  id: Type.Integer(),
  dryRun: Type.Boolean(),
  trigger: Type.Union([Type.Literal('daily'), Type.Literal('manual')]),
  startedBy: Type.Optional(Type.String()),
  startedAt: Type.String(),
  cutoffAt: Type.String(),
  heartbeatAt: Type.String(),
  finishedAt: Type.Optional(Type.String()),
  state: Type.Enum(RETENTION_RUN_STATES),
  lastOrderKey: Type.Integer(),
  erased: Type.Integer(),
  skipped: Type.Integer(),
  filesDeleted: Type.Integer(),
  fileFailures: Type.Integer(),
  /** How many times the run was taken over after its process stopped. */
  resumed: Type.Integer(),
  report: Type.Optional(RetentionReport),
  error: Type.Optional(Type.String()),
});
export type RetentionRun = Static<typeof RetentionRun>;

export const RetentionOverview = Type.Object({
  policies: Type.Array(RetentionPolicy),
  runs: Type.Array(RetentionRun),
});
export type RetentionOverview = Static<typeof RetentionOverview>;
export const RetentionOverviewResponse = Envelope(RetentionOverview);
export const RetentionPolicyResponse = Envelope(RetentionPolicy);

export const StartRetentionRunBody = Type.Object({ dryRun: Type.Boolean() });
export type StartRetentionRunBody = Static<typeof StartRetentionRunBody>;
export const RetentionRunResponse = Envelope(RetentionRun);
export const RetentionRunParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** An Admin's legal hold on an order: no erasure touches it until released. */
export const LegalHold = Type.Object({ heldAt: Type.String(), heldBy: Type.String(), reason: Type.String() });
export type LegalHold = Static<typeof LegalHold>;

export const PlaceLegalHoldBody = Type.Object({
  orderId: Type.String({ minLength: 1, maxLength: 64 }),
  reason: Type.String({
    minLength: 3,
    maxLength: 500,
    pattern: '\\S',
    errorMessage: 'Please give the reason for the hold (3 to 500 characters).',
  }),
});
export type PlaceLegalHoldBody = Static<typeof PlaceLegalHoldBody>;
export const ReleaseLegalHoldBody = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) });
export type ReleaseLegalHoldBody = Static<typeof ReleaseLegalHoldBody>;
export const LegalHoldResult = Type.Object({ orderId: Type.String(), legalHold: Type.Optional(LegalHold) });
export const LegalHoldResponse = Envelope(LegalHoldResult);

// Customers' requests.

export const SubjectRequestBody = Type.Object({
  email: Type.String({
    minLength: 3,
    maxLength: 320,
    // Surrounding spaces (a pasted address) are trimmed by the server.
    pattern: '^\\s*[^\\s@]+@[^\\s@]+\\s*$',
    errorMessage: 'Please enter a valid email address.',
  }),
});
export type SubjectRequestBody = Static<typeof SubjectRequestBody>;

export const SubjectOrder = Type.Object({
  orderId: Type.String(),
  createdAt: Type.String(),
  landingSite: Type.String(),
  status: Type.String(),
  erasedAt: Type.Optional(Type.String()),
  legalHold: Type.Optional(LegalHold),
  openDispute: Type.Optional(Type.String()),
  mails: Type.Integer(),
  downloads: Type.Integer(),
  remarks: Type.Integer(),
});
export type SubjectOrder = Static<typeof SubjectOrder>;

export const SubjectSummary = Type.Object({
  email: Type.String(),
  orders: Type.Array(SubjectOrder),
  /** Whether an erasure request would be refused now (an open dispute), and why. */
  erasureRefusal: Type.Optional(Type.String()),
});
export type SubjectSummary = Static<typeof SubjectSummary>;
export const SubjectSummaryResponse = Envelope(SubjectSummary);

export const ErasureRequestBody = Type.Object({
  email: SubjectRequestBody.properties.email,
  /** The Admin confirmed that the erasure cannot be undone. */
  confirm: Type.Literal(true, { errorMessage: 'Please confirm the erasure.' }),
});
export type ErasureRequestBody = Static<typeof ErasureRequestBody>;

export const ErasureResult = Type.Object({
  erased: Type.Array(Type.String()),
  skipped: Type.Array(ErasureSkip),
});
export type ErasureResult = Static<typeof ErasureResult>;
export const ErasureResultResponse = Envelope(ErasureResult);
