// The tab's live-desk stream while someone is signed in (the staff shell calls this): presence and order changes
// go to the live-desk slice, counts to `onCounts` (the shell hands them to the folder counts' cache).
import { useEffect } from 'react';
import type { CountsEvent } from '@eta/contracts';
import {
  liveDeskClosed,
  liveDeskConnected,
  orderChanged,
  presenceReceived,
} from '../../../lib/live-desk/live-desk-slice';
import { useAppDispatch } from '../../../lib/store';
import { createEventsTicket } from '../api/live-desk-api';
import { openLiveDesk } from '../live-desk-connection';

/** `onCounts` must be stable: a new one opens a new stream. */
export function useLiveDesk(onCounts: (counts: CountsEvent) => void): void {
  const dispatch = useAppDispatch();

  useEffect(() => {
    // A browser without EventSource keeps the reload-on-navigation of the counts, as before the live desk.
    if (typeof EventSource === 'undefined') return undefined;
    const connection = openLiveDesk({
      fetchTicket: async () => {
        // Untracked: a ticket is spent at once, nothing reads it from the store.
        const result = await dispatch(createEventsTicket.initiate(undefined, { track: false }));
        return result.data?.ticket ?? null;
      },
      onOpen: () => dispatch(liveDeskConnected()),
      onCounts,
      onPresence: (presence) => dispatch(presenceReceived(presence)),
      onOrder: (change) => dispatch(orderChanged(change)),
    });
    return () => {
      connection.close();
      dispatch(liveDeskClosed());
    };
  }, [dispatch, onCounts]);
}
