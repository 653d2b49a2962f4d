// Which actions the order detail page offers (spec §2, §4, §6; DESIGN §3). The role rules come from the
// contracts' capability table, the one the server enforces; the server still checks every move.
import type { OrderDetails, ProcessStatus, StaffType } from '@eta/contracts';
import { can, EVIDENCE_STATUSES, MOVE_TO_BUTTONS, STATUS_LABELS } from '@eta/contracts/domain';
import { DEFAULT_CONFIRM_TEXT } from '../../components/confirm-dialog';

export interface MoveOption {
  status: ProcessStatus;
  label: string;
  confirmText: string;
}

/** Statuses that never go back to New through "Move to New orders" (the server's closed statuses). */
const CLOSED: readonly ProcessStatus[] = ['Completed', 'Deleted', 'Refund Completed'];

export const RESTORE_OPTION: MoveOption = {
  status: 'New',
  label: 'Restore to New',
  confirmText: 'Are you sure want to restore this order to New orders?',
};

/**
 * Completed without an approved document (issue 22): the customer is then told the order is approved while
 * nothing can be downloaded, so the question says so before the move.
 */
export const COMPLETED_WITHOUT_DOCUMENT_TEXT =
  'This order has no approved document yet: its customer will be told it is approved, but there is nothing to ' +
  'download until a document is uploaded. Are you sure want to move this order to Completed?';

/**
 * The Move-to buttons for an order in `status`: each hidden when the order already has that status, Delete only
 * for the roles that delete; a Deleted order offers only Restore to New (Admin); Refund Completed offers nothing.
 */
export function moveOptions(status: ProcessStatus, role: StaffType, hasDocument = true): MoveOption[] {
  if (status === 'Refund Completed') return [];
  if (status === 'Deleted') return can(role, 'restoreDeleted') ? [RESTORE_OPTION] : [];
  return MOVE_TO_BUTTONS.filter(
    (button) => button.status !== status && (button.status !== 'Deleted' || can(role, 'deleteOrders')),
  ).map((button) => ({
    status: button.status,
    label: button.label,
    confirmText:
      button.status === 'Deleted'
        ? DEFAULT_CONFIRM_TEXT
        : button.status === 'Completed' && !hasDocument
          ? COMPLETED_WITHOUT_DOCUMENT_TEXT
          : `Are you sure want to move this order to ${STATUS_LABELS[button.status]}?`,
  }));
}

/** Defence packs and transaction details only for Completed, Customer Called (spec §4) or ChargeBack (issue 33). */
export const hasEvidenceActions = (status: ProcessStatus): boolean => EVIDENCE_STATUSES.includes(status);

const sameName = (a: string | undefined, b: string): boolean =>
  a !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/** A Future order before its processing date (UTC calendar day) cannot be claimed yet. */
function isNotDueYet(order: OrderDetails, today: string): boolean {
  const date = typeof order.processing_date === 'string' ? order.processing_date : undefined;
  return order.processing_type === 'Future' && date !== undefined && date > today;
}

export interface HolderActions {
  assignToMe: boolean;
  /** Manager and Admin: assign to someone else by name. */
  assignToOther: boolean;
  moveToNew: boolean;
}

/** The holder actions with the queues' rules (order-moves.service): who may claim, reassign or release the order. */
export function holderActions(
  order: OrderDetails,
  user: { name: string; type: StaffType },
  today = new Date().toISOString().slice(0, 10),
): HolderActions {
  const status = order.process_status as ProcessStatus;
  const mayTakeOver = can(user.type, 'assignToOthers');
  const isMine = sameName(order.assign_to, user.name);
  const isHeld = order.assign_to !== undefined;
  const claimable = (status === 'New' || status === 'Pending') && !isNotDueYet(order, today);
  return {
    assignToMe: claimable && !isMine && (!isHeld || mayTakeOver),
    assignToOther: claimable && mayTakeOver,
    moveToNew: isHeld && !CLOSED.includes(status) && (isMine || mayTakeOver),
  };
}
