// The side menu of spec §2: every link with its folder count; who sees which link comes from the contracts'
// capability table (the one the server enforces).
import type { Capability, FolderCountKey, QueueName, StaffType } from '@eta/contracts';
import { QUEUES, can, queueCapability } from '@eta/contracts/domain';
import { paths } from '../../config/paths';

export interface NavItem {
  label: string;
  path: string;
  countKey?: FolderCountKey;
  /** Only roles holding this capability see the link; none means everyone. */
  capability?: Capability;
}

const queueLink = (label: string, queue: QueueName): NavItem => ({
  label,
  path: QUEUES[queue].path,
  countKey: QUEUES[queue].countKey,
  capability: queueCapability(queue),
});

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', path: paths.dashboard },
  queueLink('My Orders', 'myOrder'),
  queueLink('New Orders', 'newOrder'),
  queueLink('Priority Orders', 'priorityOrder'),
  queueLink('Pending Orders', 'pendingOrder'),
  queueLink('Completed Orders', 'completedOrder'),
  queueLink('Future Orders', 'futureOrder'),
  queueLink('Awaiting Customer', 'awaitingResponse'),
  queueLink('Awaiting Govt', 'awaitingGovt'),
  queueLink('Customer Called', 'customerCalled'),
  queueLink('Contact Customer', 'contactCustomer'),
  queueLink('Order History', 'orderHistory'),
  queueLink('Deleted Orders', 'deletedOrder'),
  queueLink('Refunds', 'refundOrder'),
  queueLink('Charge Back', 'chargeBack'),
  { label: 'Waiting too long', path: paths.waitingTooLong, capability: 'viewOrderHistory' },
  { label: 'Country Order List', path: paths.countryOrderList, capability: 'viewCountryReport' },
  { label: 'Manage Invoices', path: paths.sendInvoice },
  { label: 'Manage Team', path: paths.manageTeam, capability: 'manageTeam' },
  { label: 'Order Processed', path: paths.processedOrder, capability: 'viewProcessedOrders' },
  { label: 'Disputes Report', path: paths.disputesReport, capability: 'viewDisputesReport' },
  { label: 'Gateway Setting', path: paths.gatewaySetting, capability: 'changeGateway' },
  { label: 'Landing Sites', path: paths.landingSites, capability: 'manageLandingSites' },
  { label: 'Activity', path: paths.activity, capability: 'viewActivity' },
  { label: 'Data Retention', path: paths.retention, capability: 'manageRetention' },
  { label: 'Customer Requests', path: paths.subjectRequests, capability: 'answerSubjectRequests' },
  { label: 'Change Password', path: paths.changePassword, capability: 'changePassword' },
  { label: 'Sign-in & Security', path: paths.security },
];

export function navItemsFor(role: StaffType): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.capability || can(role, item.capability));
}
