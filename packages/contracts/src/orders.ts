import { Type, type Static } from 'typebox';
import { ERROR_CODES, FOLDER_COUNT_KEYS, QUEUE_NAMES, MAX_PAGE_SIZE, PROCESS_STATUSES } from './domain.js';
import { Envelope } from './envelope.js';
import { DisputeSummary } from './payments.js';

/** The counts of the queues the signed-in person may open (a Telecaller gets no Order History count, spec §6). */
export const FolderCountsSchema = Type.Object(
  Object.fromEntries(FOLDER_COUNT_KEYS.map((k) => [k, Type.Optional(Type.Integer({ minimum: 0 }))])) as Record<
    (typeof FOLDER_COUNT_KEYS)[number],
    ReturnType<typeof Type.Optional<ReturnType<typeof Type.Integer>>>
  >,
);
export const FolderCountQuery = Type.Object({ userName: Type.Optional(Type.String({ maxLength: 200 })) });
export const FolderCountResponse = Envelope(FolderCountsSchema);

export const QueueNameSchema = Type.Enum(QUEUE_NAMES);
export const ProcessStatusSchema = Type.Enum(PROCESS_STATUSES);

/** Spec §3 "Order list row", Version A (server fields). Dates are ISO 8601 strings in UTC. */
export const OrderListRow = Type.Object({
  order_id: Type.String(),
  process_status: ProcessStatusSchema,
  passport_first_name: Type.Union([Type.String(), Type.Null()]),
  passport_surname: Type.Union([Type.String(), Type.Null()]),
  email: Type.String(),
  telephone_number: Type.Union([Type.String(), Type.Null()]),
  country_code: Type.Union([Type.String(), Type.Null()]),
  create_ts: Type.String(),
  refund_date: Type.Union([Type.String(), Type.Null()]),
  processing_date: Type.Union([Type.String(), Type.Null()]),
  process_month: Type.Union([Type.String(), Type.Null()]),
  processing_type: Type.String(),
  assign_to: Type.String({ description: 'assigned staff name or empty' }),
  version: Type.Integer(),
  /** ChargeBack only: the order's open dispute (reason, amount, evidence due date); null when none is known. */
  dispute: Type.Optional(Type.Union([DisputeSummary, Type.Null()])),
});
export type OrderListRow = Static<typeof OrderListRow>;

export const OrderListParams = Type.Object({ orderName: QueueNameSchema });
export const OrderListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 })),
  delay: Type.Optional(Type.String({ maxLength: 10 })),
  userName: Type.Optional(Type.String({ maxLength: 200 })),
  /** Future queue only: 1-12 narrows the list to orders whose processing month is this one. */
  month: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
});
export const OrderListPage = Type.Object({
  rows: Type.Array(OrderListRow),
  total: Type.Integer({ minimum: 0 }),
  /**
   * Search only: true when more rows match than were read (total is then a lower bound: the page's end and one more,
   * or 1,000, the most a search shows).
   */
  totalCapped: Type.Optional(Type.Boolean()),
  /**
   * Search only: the rows are the orders whose order id, e-mail address, telephone number, passport number or full
   * name is exactly the text; orders that merely contain it are not searched.
   */
  exactMatch: Type.Optional(Type.Boolean()),
  /**
   * Search only: just the queue's newest N orders were searched, because the text is too short (fewer than three
   * letters or digits in a row) or too common for the index within the search's time budget.
   */
  searchedNewest: Type.Optional(Type.Integer({ minimum: 1 })),
  page: Type.Integer(),
  limit: Type.Integer(),
});
export type OrderListPage = Static<typeof OrderListPage>;
export const OrderListResponse = Envelope(OrderListPage);

export const SearchOrderBody = Type.Object({
  start: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
  end: Type.Integer({ minimum: 1, maximum: 10_000_000 }),
  searchVal: Type.String({ maxLength: 200 }),
  folderName: QueueNameSchema,
});
export type SearchOrderBody = Static<typeof SearchOrderBody>;

const OrderIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 5000 });
/**
 * The optimistic-concurrency guard, one per order: order id → the `version` the person saw (a missing one is a 400,
 * issue 22). An order whose version moved on meanwhile is reported back in `skipped` instead of being overwritten.
 */
const Versions = Type.Record(Type.String({ maxLength: 64 }), Type.Integer({ minimum: 1 }));

export const ChangeOrderStatusBody = Type.Object({
  orderId: OrderIds,
  updatingStatus: ProcessStatusSchema,
  permanentDeletedFlag: Type.Optional(Type.Boolean()),
  versions: Versions,
});
export type ChangeOrderStatusBody = Static<typeof ChangeOrderStatusBody>;

export const AssignOrderBody = Type.Object({
  orderId: OrderIds,
  /** Staff name, or empty to move the orders back to New (spec "Move to New orders"). */
  assignto: Type.String({ maxLength: 200 }),
  versions: Versions,
});
export type AssignOrderBody = Static<typeof AssignOrderBody>;

export const MoveToCompleteRefundBody = Type.Object({ orderId: OrderIds, versions: Versions });
export type MoveToCompleteRefundBody = Static<typeof MoveToCompleteRefundBody>;

/** Result of a bulk move: what changed and what was refused, with the reason per order. */
export const BulkResult = Type.Object({
  updated: Type.Array(Type.String()),
  /** Orders that could not move: `code` is the machine-readable reason (ERROR_CODES), `reason` its words. */
  skipped: Type.Array(Type.Object({ orderId: Type.String(), code: Type.Enum(ERROR_CODES), reason: Type.String() })),
});
export type BulkResult = Static<typeof BulkResult>;
export const BulkResponse = Envelope(BulkResult);

export const FutureMonthCounts = Type.Array(
  Type.Object({ month: Type.Integer({ minimum: 1, maximum: 12 }), label: Type.String(), count: Type.Integer() }),
);
export const FutureMonthCountsResponse = Envelope(FutureMonthCounts);
