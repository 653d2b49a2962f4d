// Tells the live desk that this person is on the order: the activity at once and whenever it changes, again every
// PRESENCE_HEARTBEAT_MS while the tab is visible, and "left" when the page closes or the tab is hidden (a
// background tab's timers are slowed past the server's expiry, and nobody is looking at it).
import { useEffect, useSyncExternalStore } from 'react';
import type {
  PRESENCE_HEARTBEAT_SECONDS as CONTRACT_PRESENCE_HEARTBEAT_SECONDS,
  PresenceActivity,
} from '@eta/contracts';
import { useAppDispatch } from '../../../lib/store';
import { sendPresence, type PresenceArgs } from '../api/presence-api';

/**
 * Typed as the contracts' (their TypeBox module stays out of the bundle), so a change there fails the build here;
 * the server forgets a presence not repeated for PRESENCE_EXPIRES_SECONDS (45).
 */
const PRESENCE_HEARTBEAT_SECONDS: typeof CONTRACT_PRESENCE_HEARTBEAT_SECONDS = 20;
export const PRESENCE_HEARTBEAT_MS = PRESENCE_HEARTBEAT_SECONDS * 1000;

function subscribeToVisibility(listener: () => void): () => void {
  document.addEventListener('visibilitychange', listener);
  return () => document.removeEventListener('visibilitychange', listener);
}

const isTabVisible = (): boolean => document.visibilityState !== 'hidden';

/** `orderId` null: not on an order (yet), nothing is sent. */
export function usePresenceHeartbeat(orderId: string | null, activity: PresenceActivity): void {
  const dispatch = useAppDispatch();
  const isVisible = useSyncExternalStore(subscribeToVisibility, isTabVisible, () => true);

  useEffect(() => {
    if (!orderId || !isVisible) return undefined;
    // Untracked: nothing reads these answers from the store.
    const send = (args: PresenceArgs) => void dispatch(sendPresence.initiate(args, { track: false }));
    send({ orderId, activity });
    const beat = setInterval(() => send({ orderId, activity }), PRESENCE_HEARTBEAT_MS);
    return () => clearInterval(beat);
  }, [dispatch, orderId, activity, isVisible]);

  useEffect(() => {
    if (!orderId || !isVisible) return undefined;
    return () => void dispatch(sendPresence.initiate({ orderId, activity: 'left' }, { track: false }));
  }, [dispatch, orderId, isVisible]);
}
