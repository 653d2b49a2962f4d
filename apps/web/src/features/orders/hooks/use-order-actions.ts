// Runs a bulk or row action after its Yes/No confirmation, sending the version of each order as the person saw
// it, and reports the outcome by the server's reason codes: a success toast; the orders someone else changed in
// the meantime (STALE_VERSION), by name; every other order that could not move, with its own reason (a refund its
// gateway refused, REFUND_FAILED, with the gateway's reason, until the person closes it). A 409
// (nothing could move) names its orders the same way. After either, the list and the counts reload (orders-api).
import { useCallback, useState } from 'react';
import { toast } from 'react-toastify';
import type { BulkResult } from '@eta/contracts';
import { plural } from '@eta/contracts/domain';
import { ORDER_ACTIONS, type OrderActionKind } from '../order-actions';
import {
  refusedMove,
  useAssignOrdersMutation,
  useChangeOrderStatusMutation,
  useCompleteRefundsMutation,
} from '../api/orders-api';
import type { SelectedOrder } from './use-row-selection';

interface PendingAction {
  kind: OrderActionKind;
  orders: readonly SelectedOrder[];
}

interface UseOrderActionsOptions {
  userName: string;
  /** Called with the ids the server changed, so they leave the list in view. */
  onChanged: (ids: string[]) => void;
}

/** A toast names at most this many orders; a selection of thousands would not fit on the screen. */
const MAX_NAMED = 5;

/** "A", "A and B", "A, B, C, D, E and 3 more orders". */
function joinNamed(items: readonly string[]): string {
  const named = items.slice(0, MAX_NAMED);
  const rest = items.length - named.length;
  const parts = rest > 0 ? [...named, plural(rest, 'more order', 'more orders')] : named;
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}

function report(kind: OrderActionKind, { updated, skipped }: BulkResult): void {
  if (updated.length > 0) toast.success(ORDER_ACTIONS[kind].successText(updated.length));
  const stale = skipped.filter((order) => order.code === 'STALE_VERSION').map((order) => order.orderId);
  if (stale.length > 0) {
    const verb = stale.length === 1 ? 'was' : 'were';
    toast.warning(`${joinNamed(stale)} ${verb} changed by someone else; the list has been reloaded.`);
  }
  const refused = skipped.filter((order) => order.code !== 'STALE_VERSION');
  if (refused.length > 0) {
    // A gateway's reason may end a sentence of its own.
    const named = refused.map(({ orderId, reason }) => `${orderId} ${reason.replace(/\.+$/, '')}`);
    // A refund the gateway refused needs someone to act on it: that toast stays until it is closed.
    const hasFailedRefund = refused.some((order) => order.code === 'REFUND_FAILED');
    toast.warning(`Not changed: ${joinNamed(named)}.`, hasFailedRefund ? { autoClose: false } : {});
  }
}

export function useOrderActions({ userName, onChanged }: UseOrderActionsOptions) {
  const [assignOrders] = useAssignOrdersMutation();
  const [changeOrderStatus] = useChangeOrderStatusMutation();
  const [completeRefunds] = useCompleteRefundsMutation();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const run = ({ kind, orders }: PendingAction) => {
    const orderId = orders.map((order) => order.id);
    const versions = Object.fromEntries(orders.map((order) => [order.id, order.version]));
    switch (kind) {
      case 'assignToMe':
        return assignOrders({ orderId, assignto: userName, versions });
      case 'moveToNew':
        return assignOrders({ orderId, assignto: '', versions });
      case 'delete':
        return changeOrderStatus({ orderId, updatingStatus: 'Deleted', permanentDeletedFlag: false, versions });
      case 'restore':
        return changeOrderStatus({ orderId, updatingStatus: 'New', versions });
      case 'refund':
        return completeRefunds({ orderId, versions });
    }
  };

  const confirm = async () => {
    if (!pending) return;
    setIsBusy(true);
    try {
      const result = await run(pending).unwrap();
      report(pending.kind, result);
      onChanged(result.updated);
    } catch (error) {
      // Any other failure has been shown by the API layer already.
      const refused = refusedMove(error);
      if (refused) report(pending.kind, refused);
    } finally {
      setIsBusy(false);
      setPending(null);
    }
  };

  // Stable, so that memoized table rows do not re-render when the page around them does.
  const requestAction = useCallback((kind: OrderActionKind, orders: readonly SelectedOrder[]) => {
    if (orders.length > 0) setPending({ kind, orders });
  }, []);

  return {
    requestAction,
    confirmDialog: {
      open: pending !== null,
      text: pending ? ORDER_ACTIONS[pending.kind].confirmText : undefined,
      busy: isBusy,
      onConfirm: () => void confirm(),
      onCancel: () => setPending(null),
    },
  };
}
