// What the live desk (issue 23) has heard about orders: who is on which order now, the newest change of each order
// made while this tab was open, and the rows writes added to an order without moving its version (a comment, a mail,
// a customer's download). The connection (features/live-desk) fills it; the lists and the detail page read it
// through ./use-live-order.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { OrderChangedEvent, PresenceEvent, PresencePerson } from '@eta/contracts';

export interface LiveDeskState {
  /** Order id (upper case) → the people on it; an order nobody is on has no entry. */
  presence: Record<string, PresencePerson[]>;
  /** Order id (upper case) → its newest change heard. */
  changes: Record<string, OrderChangedEvent>;
  /** Order id (upper case) → the changes heard that added a row to it (`added` set), oldest first. */
  additions: Record<string, OrderChangedEvent[]>;
}

/**
 * Additions kept per order: a page compares them with the rows it shows, so only the latest few matter (an older
 * one is in the page's rows already, or the newer ones bring the page's notice anyway).
 */
export const ADDITIONS_KEPT = 20;

/** Order ids are matched without regard to case, as the server and the detail page's cache tag do. */
export const orderKey = (orderId: string): string => orderId.toUpperCase();

const initialState: LiveDeskState = { presence: {}, changes: {}, additions: {} };

const liveDeskSlice = createSlice({
  name: 'liveDesk',
  initialState,
  reducers: {
    // The server sends a fresh presence snapshot after each connect, so what was heard before is dropped: people
    // who left while the stream was down would otherwise stay on their orders.
    liveDeskConnected(state) {
      state.presence = {};
    },
    liveDeskClosed() {
      return initialState;
    },
    presenceReceived(state, { payload }: PayloadAction<PresenceEvent>) {
      const key = orderKey(payload.orderId);
      if (payload.people.length === 0) delete state.presence[key];
      else state.presence[key] = payload.people;
    },
    orderChanged(state, { payload }: PayloadAction<OrderChangedEvent>) {
      const key = orderKey(payload.orderId);
      const known = state.changes[key];
      if (!known || payload.version > known.version) state.changes[key] = payload;
      const { added } = payload;
      if (!added) return;
      // A comment leaves the order's version as it is: it is kept apart, or the version rule above would drop it.
      const heard = state.additions[key] ?? [];
      if (heard.some((e) => e.added?.kind === added.kind && e.added.id === added.id)) return;
      state.additions[key] = [...heard, payload].slice(-ADDITIONS_KEPT);
    },
  },
});

export const { liveDeskConnected, liveDeskClosed, presenceReceived, orderChanged } = liveDeskSlice.actions;
export const liveDeskReducer = liveDeskSlice.reducer;
