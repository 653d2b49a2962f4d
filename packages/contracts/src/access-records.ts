// Reads of personal data on the record (issue 24): who opened an order's detail, a defence pack, a document or a CSV
// export, when and from where. Shown on the order ("Viewed by", Admin and Manager) and on the Activity page (Admin),
// with the alerts an unusual reading pattern raised there.
import { Type, type Static } from 'typebox';
import { ACCESS_KINDS } from './domain.js';
import { Envelope } from './envelope.js';

const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
const Cursor = Type.String({ maxLength: 100 });

export const AccessKindSchema = Type.Enum(ACCESS_KINDS);

export const AccessRecordRow = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  staff_id: Type.Integer(),
  /** The member's name when they read it. */
  staff_name: Type.String(),
  /** The order's public id (ETA-…); null for an export. */
  order_id: Type.Union([Type.String(), Type.Null()]),
  kind: AccessKindSchema,
  /** What exactly: "Defence Pack 1 (PDF)", "Signature image", an export's filter and row count. */
  detail: Type.Union([Type.String(), Type.Null()]),
  ip: Type.String(),
  browser: Type.String(),
  os: Type.String(),
  device_type: Type.String(),
});
export type AccessRecordRow = Static<typeof AccessRecordRow>;

export const AccessRecordPage = Type.Object({
  rows: Type.Array(AccessRecordRow),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next: Type.Union([Type.String(), Type.Null()]),
});
export type AccessRecordPage = Static<typeof AccessRecordPage>;
export const AccessRecordPageResponse = Envelope(AccessRecordPage);

/** GET /api/admin/orders/:orderId/access-records: the order's "Viewed by", newest first. */
export const OrderAccessParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) });
export const OrderAccessQuery = Type.Object({
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
});
export type OrderAccessQuery = Static<typeof OrderAccessQuery>;

/** GET /api/admin/access-records: every read, newest first, filtered. */
export const AccessRecordsQuery = Type.Object({
  /** The member who read. */
  staffId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  /** An order id as people type it (ETA-…), matched exactly, any case. */
  orderId: Type.Optional(Type.String({ maxLength: 64 })),
  kind: Type.Optional(AccessKindSchema),
  fromDate: Type.Optional(Type.String({ pattern: DATE, maxLength: 10, errorMessage: 'From date must be YYYY-MM-DD.' })),
  toDate: Type.Optional(Type.String({ pattern: DATE, maxLength: 10, errorMessage: 'To date must be YYYY-MM-DD.' })),
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
});
export type AccessRecordsQuery = Static<typeof AccessRecordsQuery>;

export const AccessAlert = Type.Object({
  id: Type.Integer(),
  staff_id: Type.Integer(),
  staff_name: Type.String(),
  /** The first and the last read counted. */
  window_start: Type.String(),
  window_end: Type.String(),
  /** Distinct orders opened within the window. */
  order_count: Type.Integer(),
  raised_at: Type.String(),
  acknowledged_at: Type.Union([Type.String(), Type.Null()]),
  acknowledged_by: Type.Union([Type.String(), Type.Null()]),
});
export type AccessAlert = Static<typeof AccessAlert>;

export const AccessAlertsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
});
export type AccessAlertsQuery = Static<typeof AccessAlertsQuery>;
export const AccessAlertsPage = Type.Object({
  rows: Type.Array(AccessAlert),
  total: Type.Integer(),
  /** Alerts not acknowledged yet (all pages). */
  open: Type.Integer(),
});
export type AccessAlertsPage = Static<typeof AccessAlertsPage>;
export const AccessAlertsResponse = Envelope(AccessAlertsPage);

export const AccessAlertParams = Type.Object({ alertId: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) });
export const AccessAlertResponse = Envelope(AccessAlert);
