// Selected rows keep only { id, status } (spec §3); the selection empties when the page in view changes.
import { useCallback, useState } from 'react';
import type { OrderListRow, ProcessStatus } from '@eta/contracts';

export interface SelectedOrder {
  id: string;
  status: ProcessStatus;
}

export function useRowSelection(resetKey: string) {
  const [selection, setSelection] = useState<SelectedOrder[]>([]);
  const [selectionKey, setSelectionKey] = useState(resetKey);
  if (selectionKey !== resetKey) {
    setSelectionKey(resetKey);
    setSelection([]);
  }

  const isSelected = useCallback((id: string) => selection.some((order) => order.id === id), [selection]);

  const toggle = useCallback((row: OrderListRow) => {
    setSelection((current) =>
      current.some((order) => order.id === row.order_id)
        ? current.filter((order) => order.id !== row.order_id)
        : [...current, { id: row.order_id, status: row.process_status }],
    );
  }, []);

  const toggleAll = useCallback((rows: readonly OrderListRow[]) => {
    setSelection((current) =>
      rows.length > 0 && rows.every((row) => current.some((order) => order.id === row.order_id))
        ? []
        : rows.map((row) => ({ id: row.order_id, status: row.process_status })),
    );
  }, []);

  const remove = useCallback((ids: readonly string[]) => {
    setSelection((current) => current.filter((order) => !ids.includes(order.id)));
  }, []);

  return { selection, isSelected, toggle, toggleAll, remove };
}

export type RowSelection = ReturnType<typeof useRowSelection>;
