// The side menu of spec §2: every link with its folder count; who sees which link comes from config/permissions.
import type { FolderCountKey, StaffType } from '@eta/contracts';
import { QUEUES } from '@eta/contracts/domain';
import { paths } from '../../config/paths';
import { can, type Permission } from '../../config/permissions';

export interface NavItem {
  label: string;
  path: string;
  countKey?: FolderCountKey;
  /** Only roles holding this permission see the link; no permission means everyone. */
  permission?: Permission;
}

const queueLink = (label: string, queue: keyof typeof QUEUES, permission?: Permission): NavItem => ({
  label,
  path: QUEUES[queue].path,
  countKey: QUEUES[queue].countKey,
  permission,
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
  queueLink('Order History', 'orderHistory', 'viewOrderHistory'),
  queueLink('Deleted Orders', 'deletedOrder'),
  queueLink('Refunds', 'refundOrder'),
  queueLink('Charge Back', 'chargeBack'),
  { label: 'Country Order List', path: paths.countryOrderList },
  { label: 'Manage Invoices', path: paths.sendInvoice },
  { label: 'Manage Team', path: paths.manageTeam, permission: 'manageTeam' },
  { label: 'Order Processed', path: paths.processedOrder, permission: 'viewProcessedOrders' },
  { label: 'Gateway Setting', path: paths.gatewaySetting, permission: 'changeGateway' },
  { label: 'Change Password', path: paths.changePassword, permission: 'changePassword' },
];

export function navItemsFor(role: StaffType): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.permission || can(role, item.permission));
}
