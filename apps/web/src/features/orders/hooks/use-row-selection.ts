// Selected rows keep their id and status (spec §3) and the version the person saw, so that an action on them is
// refused rather than overwriting someone else's change. The selection empties when the page in view changes.
// It lives in a small store outside React state: a tick re-renders the row and the controls that show it
// (the select-all box, the count), never the page around them, so ticking stays instant at 5,000 rows.
import { useState, useSyncExternalStore } from 'react';
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

export class RowSelection {
  /** Keyed by order id: a page of 5,000 rows asks "is this one selected?" for every row it shows. */
  private readonly selected = new Map<string, SelectedOrder>();
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly isSelected = (id: string): boolean => this.selected.has(id);

  readonly size = (): number => this.selected.size;

  /** The selected orders, in the order they were ticked. */
  readonly orders = (): SelectedOrder[] => [...this.selected.values()];

  readonly toggle = (row: OrderListRow): void => {
    if (!this.selected.delete(row.order_id)) this.selected.set(row.order_id, toSelectedOrder(row));
    this.notify();
  };

  /** Ticks every row of the page, or unticks them all when they are all ticked already. */
  readonly toggleAll = (rows: readonly OrderListRow[]): void => {
    const allTicked = rows.length > 0 && rows.every((row) => this.selected.has(row.order_id));
    this.selected.clear();
    if (!allTicked) rows.forEach((row) => this.selected.set(row.order_id, toSelectedOrder(row)));
    this.notify();
  };

  readonly remove = (ids: readonly string[]): void => {
    ids.forEach((id) => this.selected.delete(id));
    this.notify();
  };

  private notify(): void {
    this.listeners.forEach((listener) => listener());
  }
}

/** A fresh, empty selection whenever `resetKey` (queue, month, page, size or search) changes. */
export function useRowSelection(resetKey: string): RowSelection {
  const [current, setCurrent] = useState(() => ({ key: resetKey, selection: new RowSelection() }));
  if (current.key !== resetKey) {
    const next = { key: resetKey, selection: new RowSelection() };
    setCurrent(next);
    return next.selection;
  }
  return current.selection;
}

export function useIsSelected(selection: RowSelection, id: string): boolean {
  return useSyncExternalStore(selection.subscribe, () => selection.isSelected(id));
}

/** How many orders are selected: all of them, or those among `rows`. */
export function useSelectedCount(selection: RowSelection, rows?: readonly OrderListRow[]): number {
  return useSyncExternalStore(selection.subscribe, () =>
    rows ? rows.reduce((count, row) => count + (selection.isSelected(row.order_id) ? 1 : 0), 0) : selection.size(),
  );
}
