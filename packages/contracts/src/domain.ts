// Domain vocabulary shared by the server and the web app: roles, statuses, queues.

export const STAFF_TYPES = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'] as const;
export type StaffType = (typeof STAFF_TYPES)[number];

/**
 * Who may do what: ONE role → capability table (spec §6 and apps/server/src/modules/auth/README.md). The web
 * reads it for what it shows, the server for what it allows, so the two cannot drift apart.
 */
const EVERYONE: readonly StaffType[] = STAFF_TYPES;
const except = (...hidden: StaffType[]): readonly StaffType[] => EVERYONE.filter((role) => !hidden.includes(role));

export const CAPABILITIES = {
  /** Counts, queues, search, Assign to me, Move to New orders, Refunded it: every signed-in staff member. */
  workOrders: EVERYONE,
  /** Spec §6: the Order History link is hidden from Telecaller, so its list and search are refused too. */
  viewOrderHistory: except('Telecaller'),
  /** Soft delete (status Deleted): spec §6 "Delete Order ... shown to Manager and Admin only". */
  deleteOrders: ['Admin', 'Manager'],
  /** Spec §6: in the My Orders view only Admin sees Delete Order (a display rule; deleteOrders decides). */
  deleteInMyOrders: ['Admin'],
  /** Restoring a Deleted order to New (DESIGN §3). */
  restoreDeleted: ['Admin'],
  /** Assigning orders to someone else, taking over or releasing an order someone else holds. */
  assignToOthers: ['Admin', 'Manager'],
  /** Spec §6: Night Staff do not see Change Password. */
  changePassword: except('Night Staff'),
  /**
   * Spec §6 calls team and gateway screens administrative (and hides them from Night Staff); issue 10 settles
   * it: only Admin and Manager manage the team and choose the payment gateway.
   */
  manageTeam: ['Admin', 'Manager'],
  changeGateway: ['Admin', 'Manager'],
  /** Spec §6: Order Processed is shown only to Admin. */
  viewProcessedOrders: ['Admin'],
  /** Spec §2/§6: Country Order List is hidden from nobody. */
  viewCountryReport: EVERYONE,
  /** The audit trail (who did what, security events): Admin only. */
  viewActivity: ['Admin'],
  /** Landing sites: their intake keys and versioned legal texts (issue 20): Admin only. */
  manageLandingSites: ['Admin'],
  /** The gateways' health (configured, webhook URL, last webhook, last error) and unmatched webhooks (issue 21). */
  viewGatewayHealth: ['Admin'],
  /** Sending a chargeback's evidence to the gateway (issue 21). */
  submitEvidence: ['Admin', 'Manager'],
  /** The Disputes report (issue 21). */
  viewDisputesReport: ['Admin', 'Manager'],
  /** Retention policies per landing site, the retention job's runs, Dry run and Run now (issue 24). */
  manageRetention: ['Admin'],
  /** Placing and releasing a legal hold on an order, which keeps it from every erasure (issue 24). */
  placeLegalHold: ['Admin'],
  /** Customers' requests: a subject-access export and an erasure request by e-mail address (issue 24). */
  answerSubjectRequests: ['Admin'],
  /** Who opened an order's personal data ("Viewed by" on the order, issue 24). Reads across orders: viewActivity. */
  viewAccessRecords: ['Admin', 'Manager'],
  /** Acknowledging an unusual-reading alert on the Activity page (issue 24). */
  acknowledgeAccessAlerts: ['Admin'],
  /**
   * Staff sign-in (issue 34): which roles must use a second factor, and resetting a member's factors (never reading
   * them). A member's sessions are seen and ended by whoever manages the member (manageTeam, with its rank rule).
   */
  manageSignIn: ['Admin'],
  /** Target times per processing type, past which an open order is "waiting too long" (issue 35). */
  manageTargets: ['Admin'],
} as const satisfies Record<string, readonly StaffType[]>;
export type Capability = keyof typeof CAPABILITIES;

export const can = (role: StaffType, capability: Capability): boolean =>
  (CAPABILITIES[capability] as readonly StaffType[]).includes(role);

/**
 * Inside Manage Team (issue 22): who may act on whom. A member may edit, give a new password to or delete only
 * members of a lower rank, and give only a type of a lower rank, so nobody raises anyone (themself included) to
 * their own level or above. Admin is the top: an Admin acts on everyone and may give the Admin type.
 */
export const STAFF_RANK = {
  Admin: 3,
  Manager: 2,
  Team: 1,
  Telecaller: 1,
  'Night Staff': 1,
} as const satisfies Record<StaffType, number>;

/** Whether `actor` may edit, set the password of, or delete a member of type `target` (with manageTeam). */
export const mayManageMember = (actor: StaffType, target: StaffType): boolean =>
  can(actor, 'manageTeam') && (actor === 'Admin' || STAFF_RANK[target] < STAFF_RANK[actor]);

/** Whether `actor` may create a member of type `type` or give an existing member that type. */
export const mayGiveType = mayManageMember;

export const PROCESS_STATUSES = [
  'New',
  'Pending',
  'Awaiting',
  'AwaitingGovt',
  'Customer Called',
  'Contact Customer',
  'Completed',
  'Refunds',
  'Refund Completed',
  'ChargeBack',
  'Deleted',
] as const;
export type ProcessStatus = (typeof PROCESS_STATUSES)[number];

/** How a status reads to a person (titles of spec §2 where it names them). */
export const STATUS_LABELS: Record<ProcessStatus, string> = {
  New: 'New',
  Pending: 'Pending',
  Awaiting: 'Awaiting Response',
  AwaitingGovt: 'Awaiting Govt',
  'Customer Called': 'Customer Called',
  'Contact Customer': 'Contact Customer',
  Completed: 'Completed',
  Refunds: 'Refunds',
  'Refund Completed': 'Refund Completed',
  ChargeBack: 'Charge Back',
  Deleted: 'Deleted',
};

/**
 * The statuses of orders the desk still has to finish (issue 35): only these are urgent or waiting too long. The same
 * list is in the predicates of orders_urgent_idx and orders_waiting_idx (migration 033).
 */
export const OPEN_STATUSES = [
  'New',
  'Pending',
  'Awaiting',
  'AwaitingGovt',
  'Customer Called',
  'Contact Customer',
] as const satisfies readonly ProcessStatus[];

export const PROCESSING_TYPES = ['Standard', 'Priority', 'Future'] as const;
export type ProcessingType = (typeof PROCESSING_TYPES)[number];

export const PAYMENT_STATUSES = ['Success', 'Pending', 'Failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const MAIL_PROVIDERS = ['AWS', 'Sendgrid'] as const;
export type MailProvider = (typeof MAIL_PROVIDERS)[number];

/** The 14 folder counts of spec §3, in the order the spec lists them. */
export const FOLDER_COUNT_KEYS = [
  'myOrdersCount',
  'newOrdersCount',
  'priorityOrdersCount',
  'pendingOrdersCount',
  'completedOrdersCount',
  'awaitingOrdersCount',
  'awaitingGovtCount',
  'customerCalledCount',
  'contactCustomerOrdersCount',
  'allOrdersCount',
  'deletedOrdersCount',
  'refundOrdersCount',
  'chargeBackCount',
  'futureOrdersCount',
] as const;
export type FolderCountKey = (typeof FOLDER_COUNT_KEYS)[number];
/** The counts of the queues the signed-in person may open. */
export type FolderCounts = Partial<Record<FolderCountKey, number>>;

/** Queues of DESIGN §3: list name → route, title and the folder count that belongs to it. */
export const QUEUES = {
  newOrder: { path: '/admin/recent-order', title: 'New Orders', countKey: 'newOrdersCount' },
  priorityOrder: { path: '/admin/priority-order', title: 'Priority Orders', countKey: 'priorityOrdersCount' },
  pendingOrder: { path: '/admin/pending-order', title: 'Pending Orders', countKey: 'pendingOrdersCount' },
  myOrder: { path: '/admin/my-order', title: 'My Orders', countKey: 'myOrdersCount' },
  completedOrder: { path: '/admin/completed-order', title: 'Completed Orders', countKey: 'completedOrdersCount' },
  awaitingResponse: { path: '/admin/awaiting-response', title: 'Awaiting Response', countKey: 'awaitingOrdersCount' },
  awaitingGovt: { path: '/admin/awaiting-govt', title: 'Awaiting Govt', countKey: 'awaitingGovtCount' },
  customerCalled: { path: '/admin/called', title: 'Customer Called', countKey: 'customerCalledCount' },
  contactCustomer: {
    path: '/admin/contact-customer',
    title: 'Contact Customer',
    countKey: 'contactCustomerOrdersCount',
  },
  orderHistory: {
    path: '/admin/order-history',
    title: 'Order History',
    countKey: 'allOrdersCount',
    capability: 'viewOrderHistory',
  },
  deletedOrder: { path: '/admin/deleted-order', title: 'Deleted Orders', countKey: 'deletedOrdersCount' },
  refundOrder: { path: '/admin/refund-order', title: 'Refund Orders', countKey: 'refundOrdersCount' },
  chargeBack: { path: '/admin/chargeback', title: 'Charge Back', countKey: 'chargeBackCount' },
  futureOrder: { path: '/admin/future-order', title: 'Future Orders', countKey: 'futureOrdersCount' },
} as const satisfies Record<string, { path: string; title: string; countKey: FolderCountKey; capability?: Capability }>;
export type QueueName = keyof typeof QUEUES;

/** The capability a queue needs beyond workOrders (list, search and counts alike). */
export const queueCapability = (queue: QueueName): Capability =>
  (QUEUES[queue] as { capability?: Capability }).capability ?? 'workOrders';
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

/**
 * Whether a queue can hold open orders (OPEN_STATUSES), and so urgent or late ones (issue 35): all but the four of
 * closed or disputed orders. The server's queues.test checks this against each queue's statuses.
 */
export const holdsOpenOrders = (queue: QueueName): boolean =>
  !(['completedOrder', 'deletedOrder', 'refundOrder', 'chargeBack'] as QueueName[]).includes(queue);

/** An Admin's target time per processing type is 1 minute to 90 days (issue 35). */
export const TARGET_MINUTES_MAX = 60 * 24 * 90;

/** Spec §9: future orders are grouped by the 12 month abbreviations. */
export const MONTH_LABELS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100, 500] as const;
/** Largest page the server hands out in one answer ("All" on a huge queue is capped here). */
export const MAX_PAGE_SIZE = 5000;
/**
 * A queue search shows at most its first this-many matches, and counts no further ("1,000+"): more costs more than it
 * tells anyone (issue 31).
 */
export const SEARCH_MATCHES_SHOWN = 1_000;
export const MIN_PASSWORD_LENGTH = 6;
/** Longest remark a person may write (a page of text); longer is refused with a clear message. */
export const REMARK_MAX_LENGTH = 5000;
export const MIN_TRANSACTION_FIELD_LENGTH = 1;
/** Statuses the detail page's Move-to buttons set (spec §4), in the spec's order, with their labels. */
export const MOVE_TO_BUTTONS = [
  { status: 'Awaiting', label: 'Move to Awaiting Response' },
  { status: 'Refunds', label: 'Completed Refunds' },
  { status: 'Completed', label: 'Completed Orders' },
  { status: 'Deleted', label: 'Delete' },
  { status: 'Contact Customer', label: 'Contact Customer' },
  { status: 'AwaitingGovt', label: 'Awaiting Govt' },
  { status: 'Customer Called', label: 'Customer Called' },
  { status: 'ChargeBack', label: 'ChargeBack' },
] as const satisfies readonly { status: ProcessStatus; label: string }[];
/**
 * Defence packs and transaction details are unlocked for these statuses: Completed and Customer Called (spec §4), and
 * ChargeBack, which an order reaches from them and where a pack is needed most (issue 33).
 */
export const EVIDENCE_STATUSES: readonly ProcessStatus[] = ['Completed', 'Customer Called', 'ChargeBack'];
/** Spec §9: defence pack types. Pack 1 leads with the e-mail history, pack 2 with the download history. */
export const DEFENCE_PACK_TYPES = [1, 2] as const;
export type DefencePackType = (typeof DEFENCE_PACK_TYPES)[number];
/** What every order buys (spec §1): the line the invoices and the defence packs print. */
export const SERVICE_DESCRIPTION = 'Canada eTA (Electronic Travel Authorization) application service';
/** Spec §5 and §9: the Send Invoice form's order id is at least this long. */
export const MIN_INVOICE_ORDER_ID_LENGTH = 6;

/** Spec §5 "Track order": the form's messages, shown by the portal and answered by the server alike. */
export const TRACK_ORDER_MESSAGES = {
  orderIdRequired: 'Please enter your orderId',
  emailRequired: 'Please enter your email',
} as const;
/** The landing site of pages and links that name none (and of an unknown `?site=`); links to it carry no `?site=`. */
export const DEFAULT_LANDING_SITE = 'default';
/** The header the portal's history and download calls carry the tracking proof in (issued by track-order). */
export const TRACK_PROOF_HEADER = 'x-track-proof';
/**
 * The customer portal's pages (first path segment). The server answers these with the portal's own page
 * (portal.html, no staff-console code); a landing site's relative menu link must lead to one of them.
 */
export const PORTAL_PAGES = ['/track-order', '/get-new-order-details', '/faq', '/contact'] as const;
export const isPortalPath = (pathname: string): boolean =>
  PORTAL_PAGES.some((page) => pathname === page || pathname.startsWith(`${page}/`));
// Administration (issue 10): team, gateway, reports, activity.
/** What the Password column shows for everyone: passwords are stored only as argon2id hashes. */
export const TEAM_PASSWORD_MASK = '••••••••';

/** Spec §5 "Team member" and our wording where the spec shows none. */
export const TEAM_MESSAGES = {
  name: 'Please enter your name.',
  email: 'Please enter your email.',
  invalidEmail: 'Please enter a valid email address.',
  password: 'Please enter your password.',
  type: 'Please select type.',
  deleted: 'Team member deleted successfully.',
} as const;
/** Spec §5 "Gateway". */
export const GATEWAY_REQUIRED = 'Please select gateway.';
/** How a citizen country without a value reads in the country report and its CSV. */
export const COUNTRY_NOT_GIVEN = 'Not given';
/**
 * What a read of personal data opened (issue 24): an order's detail, a defence pack, a document (the signature
 * image), or an export (a CSV, a subject-access export). Each answered read of one of these writes one access record.
 */
export const ACCESS_KINDS = ['detail', 'defence-pack', 'document', 'export'] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];
export const ACCESS_KIND_LABELS: Record<AccessKind, string> = {
  detail: 'Order detail',
  'defence-pack': 'Defence pack',
  document: 'Document',
  export: 'Export',
};

/**
 * Machine-readable reasons carried as `code` beside `message` in every failure envelope and in each skipped
 * order of a bulk result. Clients branch on these, never on the wording.
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'INVALID_TEXT',
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'SESSION_EXPIRED',
  // Staff sign-in beyond the password (issue 34): a wrong code at sign-in; the step between password and code has
  // ended; a call that takes an account over wants the password or a code again; a required factor cannot go.
  'INVALID_CODE',
  'CHALLENGE_EXPIRED',
  'RECENT_PROOF_REQUIRED',
  'PROOF_REJECTED',
  'FACTOR_REQUIRED',
  // The member's role signs in through single sign-on only; a sign-in the policy or the provider refused (issue 34).
  'SSO_REQUIRED',
  'SIGN_IN_REFUSED',
  'SSO_UNAVAILABLE',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'TOO_MANY_ATTEMPTS',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  // A statement ran past its time budget (issue 31): try again, or narrow the request.
  'DATABASE_TIMEOUT',
  // The database cannot be reached (restarting, failing over): try again in a few seconds (issue 32).
  'DATABASE_UNAVAILABLE',
  // Every pooled connection stayed busy past the wait's bound: try again in a moment (issue 32).
  'DATABASE_BUSY',
  // The server is stopping (a restart, a deploy): a read that reached it was turned away untouched, try again.
  'SERVER_RESTARTING',
  // Reasons an order could not be moved.
  'ORDER_NOT_FOUND',
  'NOT_PAID',
  'STALE_VERSION',
  'ORDER_HELD',
  'NOT_ASSIGNED',
  'ALREADY_IN_STATUS',
  'WRONG_STATUS',
  'ORDER_DELETED',
  'ORDER_CLOSED',
  // Documents and mail.
  'UNSUPPORTED_FILE',
  'UNREADABLE_DOCUMENT',
  // The approval does not name the order's traveller, or cannot be read; the mail box is not the order's (issue 35).
  'DOCUMENT_MISMATCH',
  'DOCUMENT_NOT_READ',
  'EMAIL_CHANGE_UNCONFIRMED',
  'NO_DOCUMENT',
  // The document store failed or did not answer in time: nothing was stored or read; try again later (issue 32).
  'DOCUMENT_STORE_UNAVAILABLE',
  'PROVIDER_NOT_CONFIGURED',
  // The public portal.
  'TRACK_PROOF_REQUIRED',
  'DOCUMENT_CHANGED',
  // Team management.
  'EMAIL_TAKEN',
  'SELF_DELETE',
  'LAST_ADMIN',
  // Intake.
  'IDEMPOTENCY_CONFLICT',
  // Payments and disputes.
  'GATEWAY_NOT_CONFIGURED',
  'GATEWAY_ERROR',
  'REFUND_FAILED',
  'NO_DISPUTE',
  'EVIDENCE_SUBMITTED',
  // Retention and customers' requests (issue 24).
  'DISPUTE_OPEN',
  'LEGAL_HOLD',
  'ORDER_ERASED',
  'RETENTION_RUNNING',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** How long a landing site may keep an order's personal data, in months after the travel date (issue 24). */
export const RETENTION_MONTHS_MIN = 1;
export const RETENTION_MONTHS_MAX = 240;

/** "1 order", "3 orders": counts read as a person would write them. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * Days from now to a chargeback's evidence due date, whole days rounded down; negative when overdue (the ChargeBack
 * queue, issue 21). Here rather than in payments.ts so that the browser bundle can take it without TypeBox.
 */
export function daysLeft(dueBy: string, now: Date = new Date()): number {
  return Math.floor((new Date(dueBy).getTime() - now.getTime()) / 86_400_000);
}

const US_EASTERN = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

type EasternParts = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'zone', string>;

const HOUR_MS = 3_600_000;
/**
 * New York's offset from UTC and its label, per UTC hour. Intl's formatToParts costs tens of microseconds a call
 * (an order's page formats one date per remark, download and timeline row: 11 % of its CPU in the issue-11
 * profile), while New York changes offset only at a whole UTC hour (2:00 local), so one call per hour suffices.
 */
const easternOffsets = new Map<number, { offsetMs: number; zone: string }>();

function easternOffset(hour: number): { offsetMs: number; zone: string } {
  let offset = easternOffsets.get(hour);
  if (!offset) {
    const at = new Date(hour * HOUR_MS);
    const part = Object.fromEntries(US_EASTERN.formatToParts(at).map((p) => [p.type, p.value]));
    const wall = Date.UTC(
      Number(part.year),
      Number(part.month) - 1,
      Number(part.day),
      Number(part.hour),
      Number(part.minute),
      Number(part.second),
    );
    offset = { offsetMs: wall - at.getTime(), zone: part.timeZoneName ?? '' };
    if (easternOffsets.size >= 100_000) easternOffsets.clear();
    easternOffsets.set(hour, offset);
  }
  return offset;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A moment in America/New_York on the 24-hour clock, labelled EST or EDT as the date requires (spec §9). */
export function easternParts(at: Date): EasternParts {
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('Invalid time value');
  const { offsetMs, zone } = easternOffset(Math.floor(ms / HOUR_MS));
  const wall = new Date(ms + offsetMs);
  return {
    year: String(wall.getUTCFullYear()),
    month: two(wall.getUTCMonth() + 1),
    day: two(wall.getUTCDate()),
    hour: two(wall.getUTCHours()),
    minute: two(wall.getUTCMinutes()),
    second: two(wall.getUTCSeconds()),
    zone,
  };
}

/**
 * Upload Document accepts a PDF or any image (spec §5), judged by the file's content: the image formats
 * cameras, phones, scanners and browsers produce. The value is the stored extension. The defence pack draws
 * JPEG and PNG on a page and names the others (with size and sha256) instead of drawing them.
 */
export const ACCEPTED_DOCUMENT_TYPES = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
  'image/tiff': 'tif',
  'image/heic': 'heic',
  'image/avif': 'avif',
} as const;
export type AcceptedDocumentType = keyof typeof ACCEPTED_DOCUMENT_TYPES;

// The landing sites' key and branding rules, for the server and the console's forms alike.
export * from './landing-site-rules.js';

// Every audit action and what it means in words, for the Activity page, the timelines and the packs.
export * from './audit-actions.js';
