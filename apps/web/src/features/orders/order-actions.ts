// The bulk and row actions of the order lists: which queue offers which, their confirmation and success texts
// (spec §2, §4, §6, §8). Role rules come from the contracts' capability table, the one the server enforces.
import type { QueueName, StaffType } from '@eta/contracts';
import { can, plural } from '@eta/contracts/domain';
import { DEFAULT_CONFIRM_TEXT } from '../../components/confirm-dialog';

export type OrderActionKind = 'assignToMe' | 'moveToNew' | 'delete' | 'refund' | 'restore';

interface OrderActionText {
  label: string;
  confirmText: string;
  /** The success toast for `count` changed orders. */
  successText: (count: number) => string;
}

export const ORDER_ACTIONS: Record<OrderActionKind, OrderActionText> = {
  assignToMe: {
    label: 'Assign to me',
    confirmText: 'Are you sure want to assigned orders.',
    successText: () => 'Order has been assigned successfully',
  },
  moveToNew: {
    label: 'Move to New orders',
    confirmText: 'Are you sure want to move orders to new orders.',
    successText: (count) => `${plural(count, 'order')} moved to New orders`,
  },
  delete: {
    label: 'Delete Order',
    confirmText: DEFAULT_CONFIRM_TEXT,
    successText: () => 'Order has been deleted successfully',
  },
  refund: {
    label: 'Refunded it',
    confirmText: 'Are you sure want to mark orders as refunded.',
    successText: (count) => `${plural(count, 'order')} marked as refunded`,
  },
  restore: {
    label: 'Restore to New',
    confirmText: 'Are you sure want to restore orders to new orders.',
    successText: (count) => `${plural(count, 'order')} restored to New orders`,
  },
};

const ASSIGNABLE_QUEUES: readonly QueueName[] = ['newOrder', 'priorityOrder', 'pendingOrder'];

/** Delete is for Manager and Admin; in My Orders only for Admin; never where it means nothing. */
export function canDeleteIn(queue: QueueName, role: StaffType): boolean {
  if (queue === 'refundOrder' || queue === 'deletedOrder') return false;
  return can(role, queue === 'myOrder' ? 'deleteInMyOrders' : 'deleteOrders');
}

export function bulkActionsFor(queue: QueueName, role: StaffType): OrderActionKind[] {
  const actions: OrderActionKind[] = [];
  if (ASSIGNABLE_QUEUES.includes(queue)) actions.push('assignToMe');
  if (queue === 'myOrder') actions.push('moveToNew');
  if (queue === 'refundOrder') actions.push('refund');
  if (queue === 'deletedOrder' && can(role, 'restoreDeleted')) actions.push('restore');
  if (canDeleteIn(queue, role)) actions.push('delete');
  return actions;
}
