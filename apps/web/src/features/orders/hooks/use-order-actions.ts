// Runs a bulk or row action after its Yes/No confirmation and reports the outcome: a success toast, and a
// warning naming the orders someone else moved in the meantime (the server skips those).
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ORDER_ACTIONS, type OrderActionKind } from '../order-actions';
import {
  useAssignOrdersMutation,
  useChangeOrderStatusMutation,
  useCompleteRefundsMutation,
  type BulkResponse,
} from '../api/orders-api';

interface PendingAction {
  kind: OrderActionKind;
  ids: string[];
}

interface UseOrderActionsOptions {
  userName: string;
  /** Called with the ids the server changed, so they leave the list in view. */
  onChanged: (ids: string[]) => void;
}

function report(kind: OrderActionKind, ids: readonly string[], response: BulkResponse): string[] {
  const updated = response.data?.updated ?? [...ids];
  const skipped = response.data?.skipped ?? [];
  if (updated.length > 0) toast.success(ORDER_ACTIONS[kind].successText ?? response.message);
  if (skipped.length > 0) {
    const list = skipped.map(({ orderId, reason }) => `${orderId} (${reason})`).join(', ');
    toast.warning(`Not changed, another person moved them meanwhile: ${list}`);
  }
  return updated;
}

export function useOrderActions({ userName, onChanged }: UseOrderActionsOptions) {
  const [assignOrders] = useAssignOrdersMutation();
  const [changeOrderStatus] = useChangeOrderStatusMutation();
  const [completeRefunds] = useCompleteRefundsMutation();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const run = ({ kind, ids }: PendingAction) => {
    switch (kind) {
      case 'assignToMe':
        return assignOrders({ orderId: ids, assignto: userName });
      case 'moveToNew':
        return assignOrders({ orderId: ids, assignto: '' });
      case 'delete':
        return changeOrderStatus({ orderId: ids, updatingStatus: 'Deleted', permanentDeletedFlag: false });
      case 'refund':
        return completeRefunds({ orderId: ids });
    }
  };

  const confirm = async () => {
    if (!pending) return;
    setIsBusy(true);
    try {
      const response = await run(pending).unwrap();
      onChanged(report(pending.kind, pending.ids, response));
    } catch {
      // The API layer has shown the server's message already.
    } finally {
      setIsBusy(false);
      setPending(null);
    }
  };

  return {
    requestAction: (kind: OrderActionKind, ids: string[]) => {
      if (ids.length > 0) setPending({ kind, ids });
    },
    confirmDialog: {
      open: pending !== null,
      text: pending ? ORDER_ACTIONS[pending.kind].confirmText : undefined,
      busy: isBusy,
      onConfirm: () => void confirm(),
      onCancel: () => setPending(null),
    },
  };
}
