import { Type, type Static } from 'typebox';
import {
  ERROR_CODES,
  FOLDER_COUNT_KEYS,
  QUEUE_NAMES,
  MAX_PAGE_SIZE,
  PROCESS_STATUSES,
  TARGET_MINUTES_MAX,
} from './domain.js';
import { Envelope } from './envelope.js';
import { DisputeSummary } from './payments.js';

/** The counts of the queues the signed-in person may open (a Telecaller gets no Order History count, spec §6). */
export const FolderCountsSchema = Type.Object(
  Object.fromEntries(FOLDER_COUNT_KEYS.map((k) => [k, Type.Optional(Type.Integer({ minimum: 0 }))])) as Record<
    (typeof FOLDER_COUNT_KEYS)[number],
    ReturnType<typeof Type.Optional<ReturnType<typeof Type.Integer>>>
  >,
);
/**
 * The folder counts' payload: the spec's counts, and beside them (issue 35) the urgent orders of each of those queues
 * that has any (open orders travelling within URGENT_TRAVEL_HOURS) and the open orders past their target time.
 */
export const FolderCountsPayload = Type.Intersect([
  FolderCountsSchema,
  Type.Object({
    urgentCounts: Type.Optional(FolderCountsSchema),
    /** The urgent counts stopped counting (at 5,000 urgent orders): each is a lower bound ("N+"). */
    urgentCapped: Type.Optional(Type.Boolean()),
    waitingTooLongCount: Type.Optional(Type.Integer({ minimum: 0 })),
    /** waitingTooLongCount stopped counting at this many (it is "500+"). */
    waitingTooLongCapped: Type.Optional(Type.Boolean()),
  }),
]);
export type FolderCountsPayload = Static<typeof FolderCountsPayload>;
export const FolderCountQuery = Type.Object({ userName: Type.Optional(Type.String({ maxLength: 200 })) });
export const FolderCountResponse = Envelope(FolderCountsPayload);

export const QueueNameSchema = Type.Enum(QUEUE_NAMES);
export const ProcessStatusSchema = Type.Enum(PROCESS_STATUSES);

/** Urgency and waiting time (issue 35), on list rows and the order's page. */
export const OrderTiming = Type.Object({
  /** When the traveller flies (their date and time, read as UTC); null when they did not say. */
  travel_at: Type.Union([Type.String(), Type.Null()]),
  /** Open, and the travel date is today or later and at most URGENT_TRAVEL_HOURS away. */
  urgent: Type.Boolean(),
  /** When the order took its current status. */
  status_since: Type.String(),
  /** When the order went past its processing type's target time; null when it has not (or is closed). */
  overdue_since: Type.Union([Type.String(), Type.Null()]),
});
export type OrderTiming = Static<typeof OrderTiming>;

/** Spec §3 "Order list row", Version A (server fields), and the order's timing. Dates are ISO 8601 strings in UTC. */
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
  ...OrderTiming.properties,
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
  /** `urgent`: the queue's urgent orders first, soonest travel first, then the rest in queue order (issue 35). */
  sort: Type.Optional(Type.Union([Type.Literal('queue'), Type.Literal('urgent')])),
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
  /**
   * Search only: more orders match than a search shows (1,000), too many to put in date order quickly, and this page
   * is not known to hold the newest of them: the rows are matches, newest first among those read, but newer ones may
   * exist. Typing more of the text narrows it.
   */
  someMatches: Type.Optional(Type.Boolean()),
  /** Lists only: the page is in urgent-first order (sort=urgent). */
  urgentFirst: Type.Optional(Type.Boolean()),
  page: Type.Integer(),
  limit: Type.Integer(),
});
export type OrderListPage = Static<typeof OrderListPage>;
export const OrderListResponse = Envelope(OrderListPage);

/** "Waiting too long" (issue 35): open orders past their processing type's target time, oldest first. */
export const WaitingTooLongQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
});

/** Target time per processing type in minutes; null: no target for that type. */
const TargetMinutes = Type.Union([
  Type.Integer({
    minimum: 1,
    maximum: TARGET_MINUTES_MAX,
    errorMessage: 'A target time is between 1 minute and 90 days.',
  }),
  Type.Null(),
]);
export const ProcessingTargets = Type.Object({
  Standard: TargetMinutes,
  Priority: TargetMinutes,
  Future: TargetMinutes,
});
export type ProcessingTargets = Static<typeof ProcessingTargets>;

/** What the queue screens need besides their rows: the member's sort choices, the urgency window, the targets. */
export const QueueSettings = Type.Object({
  /** The queues this member sorts urgent first (kept per member). */
  urgentFirstQueues: Type.Array(QueueNameSchema),
  /** URGENT_TRAVEL_HOURS: an open order travelling within this many hours is urgent. */
  urgentTravelHours: Type.Integer({ minimum: 1 }),
  targets: ProcessingTargets,
});
export type QueueSettings = Static<typeof QueueSettings>;
export const QueueSettingsResponse = Envelope(QueueSettings);
export const UrgentFirstBody = Type.Object({ queue: QueueNameSchema, urgentFirst: Type.Boolean() });

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
