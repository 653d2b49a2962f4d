// Domain vocabulary shared by the server and the web app: roles, statuses, queues.

export const STAFF_TYPES = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'] as const;
export type StaffType = (typeof STAFF_TYPES)[number];

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
export type FolderCounts = Record<FolderCountKey, number>;

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
  orderHistory: { path: '/admin/order-history', title: 'Order History', countKey: 'allOrdersCount' },
  deletedOrder: { path: '/admin/deleted-order', title: 'Deleted Orders', countKey: 'deletedOrdersCount' },
  refundOrder: { path: '/admin/refund-order', title: 'Refund Orders', countKey: 'refundOrdersCount' },
  chargeBack: { path: '/admin/chargeback', title: 'Charge Back', countKey: 'chargeBackCount' },
  futureOrder: { path: '/admin/future-order', title: 'Future Orders', countKey: 'futureOrdersCount' },
} as const satisfies Record<string, { path: string; title: string; countKey: FolderCountKey }>;
export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

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
export const MIN_PASSWORD_LENGTH = 6;
