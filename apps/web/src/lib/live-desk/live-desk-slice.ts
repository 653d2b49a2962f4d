// What the live desk (issue 23) has heard about orders: who is on which order now, and the newest change of each
// order made while this tab was open. The connection (features/live-desk) fills it; the lists and the detail page
// read it through ./use-live-order.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { OrderChangedEvent, PresenceEvent, PresencePerson } from '@eta/contracts';

export interface LiveDeskState {
  /** Order id (upper case) → the people on it; an order nobody is on has no entry. */
  presence: Record<string, PresencePerson[]>;
  /** Order id (upper case) → its newest change heard. */
  changes: Record<string, OrderChangedEvent>;
}

/** Order ids are matched without regard to case, as the server and the detail page's cache tag do. */
export const orderKey = (orderId: string): string => orderId.toUpperCase();

const initialState: LiveDeskState = { presence: {}, changes: {} };

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
    },
  },
});

export const { liveDeskConnected, liveDeskClosed, presenceReceived, orderChanged } = liveDeskSlice.actions;
export const liveDeskReducer = liveDeskSlice.reducer;
