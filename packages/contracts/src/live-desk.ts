// The live desk's wire format (DESIGN §6): the server-sent events of GET /api/admin/events, the ticket a browser
// opens them with, and the presence call. The server and the console both read these.
// The stream is state-based: on every (re)connect, Last-Event-ID or not, it starts with a counts snapshot and one
// presence event per order someone is on; `order` events missed while disconnected are not replayed (a page that
// cares re-reads its order). Events carry an `id:`, the stream a `retry:` hint and a comment heartbeat every ~15 s.
import { Type, type Static } from 'typebox';
import { Envelope } from './envelope.js';
import { FolderCountsPayload, ProcessStatusSchema } from './orders.js';

/** The stream's path; a browser opens it as `${LIVE_EVENTS_PATH}?ticket=…` (EventSource cannot send headers). */
export const LIVE_EVENTS_PATH = '/api/admin/events';
/** The `event:` names on the stream. */
export const LIVE_EVENT_NAMES = ['counts', 'presence', 'order'] as const;
export type LiveEventName = (typeof LIVE_EVENT_NAMES)[number];

/** The browser repeats its presence this often while the page is open … */
export const PRESENCE_HEARTBEAT_SECONDS = 20;
/** … and an entry not repeated for this long is gone (a closed tab, a lost network). */
export const PRESENCE_EXPIRES_SECONDS = 45;

/** POST /api/admin/events/ticket (staff token) → a single-use ticket for one stream, valid a few seconds. */
export const EventsTicket = Type.Object({
  ticket: Type.String(),
  expiresInSeconds: Type.Integer({ minimum: 1 }),
});
export type EventsTicket = Static<typeof EventsTicket>;
export const EventsTicketResponse = Envelope(EventsTicket);

/** GET /api/admin/events: a ticket (browsers) or the staff token in Authorization (other clients). */
export const EventsQuery = Type.Object({ ticket: Type.Optional(Type.String({ maxLength: 2000 })) });
export type EventsQuery = Static<typeof EventsQuery>;

/** `event: counts`: the same object GET /api/admin/get-folder-count answers in `data` for the stream's person. */
export const CountsEvent = FolderCountsPayload;
export type CountsEvent = Static<typeof CountsEvent>;

export const PRESENCE_ACTIVITIES = ['viewing', 'editing-remarks'] as const;
export type PresenceActivity = (typeof PRESENCE_ACTIVITIES)[number];
export const PresenceActivitySchema = Type.Enum(PRESENCE_ACTIVITIES);

export const PresencePerson = Type.Object({
  staffId: Type.Integer(),
  name: Type.String(),
  activity: PresenceActivitySchema,
});
export type PresencePerson = Static<typeof PresencePerson>;

/** `event: presence`: everyone now on one order (an empty list: nobody any more). */
export const PresenceEvent = Type.Object({
  orderId: Type.String(),
  people: Type.Array(PresencePerson),
});
export type PresenceEvent = Static<typeof PresenceEvent>;

/**
 * What a write added to an order's detail page without moving its version: a comment (Comment History), a mail
 * (Email History: a resend, an invoice) or a customer's download (Download History). A page at the same version can
 * still lack it, so the page looks for `id` among that list's rows instead of comparing versions.
 */
export const ORDER_ADDITION_KINDS = ['comment', 'mail', 'download'] as const;
export type OrderAdditionKind = (typeof ORDER_ADDITION_KINDS)[number];
export const OrderAddition = Type.Object({
  kind: Type.Enum(ORDER_ADDITION_KINDS),
  /** The new row's id: a remark's, a mail's or a download's, as the order's details list them. */
  id: Type.Integer(),
});
export type OrderAddition = Static<typeof OrderAddition>;

/**
 * `event: order`: an order changed (moved, claimed, written); the detail page compares `version` with its own, and
 * looks for `added` (when there is one) among its lists.
 */
export const OrderChangedEvent = Type.Object({
  orderId: Type.String(),
  version: Type.Integer(),
  status: ProcessStatusSchema,
  /** Who changed it; null when no staff member did (a customer's payment, a gateway's webhook, intake). */
  byStaffId: Type.Union([Type.Integer(), Type.Null()]),
  byName: Type.Union([Type.String(), Type.Null()]),
  added: Type.Optional(OrderAddition),
});
export type OrderChangedEvent = Static<typeof OrderChangedEvent>;

/** PUT /api/admin/orders/:orderId/presence, repeated every PRESENCE_HEARTBEAT_SECONDS; `left` ends it at once. */
export const PresenceParams = Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 100 }) });
export const PresenceBody = Type.Object({
  activity: Type.Enum([...PRESENCE_ACTIVITIES, 'left'] as const),
});
export type PresenceBody = Static<typeof PresenceBody>;
/** Answers who is on the order now (the caller included), as the next presence event would. */
export const PresenceResponse = Envelope(PresenceEvent);
