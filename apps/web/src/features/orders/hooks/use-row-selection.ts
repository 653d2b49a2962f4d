// Selected rows keep their id and status (spec §3) and the version the person saw, so that an action on them is
// refused rather than overwriting someone else's change. The selection empties when the page in view changes.
import { useCallback, useMemo, useState } from 'react';
import type { OrderListRow, ProcessStatus } from '@eta/contracts';

export interface SelectedOrder {
  id: string;
  status: ProcessStatus;
  version: number;
}

export const toSelectedOrder = (row: OrderListRow): SelectedOrder => ({
  id: row.order_id,
  status: row.process_status,
  version: row.version,
});

/** Keyed by order id: a page of 5,000 rows asks "is this one selected?" for every row it renders. */
type Selection = ReadonlyMap<string, SelectedOrder>;

const EMPTY: Selection = new Map();

export function useRowSelection(resetKey: string) {
  const [selected, setSelected] = useState<Selection>(EMPTY);
  const [selectionKey, setSelectionKey] = useState(resetKey);
  if (selectionKey !== resetKey) {
    setSelectionKey(resetKey);
    setSelected(EMPTY);
  }

  const selection = useMemo(() => [...selected.values()], [selected]);
  const isSelected = useCallback((id: string) => selected.has(id), [selected]);

  const toggle = useCallback((row: OrderListRow) => {
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(row.order_id)) next.delete(row.order_id);
      else next.set(row.order_id, toSelectedOrder(row));
      return next;
    });
  }, []);

  const toggleAll = useCallback((rows: readonly OrderListRow[]) => {
    setSelected((current) =>
      rows.length > 0 && rows.every((row) => current.has(row.order_id))
        ? EMPTY
        : new Map(rows.map((row) => [row.order_id, toSelectedOrder(row)])),
    );
  }, []);

  const remove = useCallback((ids: readonly string[]) => {
    setSelected((current) => {
      const next = new Map(current);
      ids.forEach((id) => next.delete(id));
      return next;
    });
  }, []);

  return { selection, isSelected, toggle, toggleAll, remove };
}

export type RowSelection = ReturnType<typeof useRowSelection>;
