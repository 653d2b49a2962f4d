// The Activity page (Admin): the audit trail newest first, filtered, paged over keys, exported as CSV.
import { Type, type Static } from 'typebox';
import { Envelope } from './envelope.js';

const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
export const ActivityQuery = Type.Object({
  /** A staff member's id (the person who acted). */
  actorId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  /** An order id as people type it (ETA-…), matched exactly, any case. */
  orderId: Type.Optional(Type.String({ maxLength: 64 })),
  action: Type.Optional(Type.String({ maxLength: 80 })),
  fromDate: Type.Optional(Type.String({ pattern: DATE, maxLength: 10, errorMessage: 'From date must be YYYY-MM-DD.' })),
  toDate: Type.Optional(Type.String({ pattern: DATE, maxLength: 10, errorMessage: 'To date must be YYYY-MM-DD.' })),
  /** The `next` cursor of the previous page; absent for the newest page. */
  cursor: Type.Optional(Type.String({ maxLength: 100 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
});
export type ActivityQuery = Static<typeof ActivityQuery>;
export const ActivityCsvQuery = Type.Omit(ActivityQuery, ['cursor', 'limit']);

export const ActivityRow = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  actor_id: Type.Union([Type.Integer(), Type.Null()]),
  actor_name: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  /** The order's public id (ETA-…), when the row is about an order. */
  order_id: Type.Union([Type.String(), Type.Null()]),
  target: Type.Union([Type.String(), Type.Null()]),
  before: Type.Unknown(),
  after: Type.Unknown(),
  ip: Type.Union([Type.String(), Type.Null()]),
});
export type ActivityRow = Static<typeof ActivityRow>;
export const ActivityPage = Type.Object({
  rows: Type.Array(ActivityRow),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next: Type.Union([Type.String(), Type.Null()]),
});
export type ActivityPage = Static<typeof ActivityPage>;
export const ActivityResponse = Envelope(ActivityPage);

/** Everyone who can appear as the actor of a row, deleted members included, for the person filter. */
export const ActivityPeopleResponse = Envelope(
  Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), active: Type.Boolean() })),
);
