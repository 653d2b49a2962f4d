// One live-desk stream (issue 23): a single-use ticket, then an EventSource on it. When the stream fails it is
// closed and opened again on a new ticket after a growing pause: the browser's own retry would reuse the spent
// ticket, which the server refuses.
import type {
  CountsEvent,
  LIVE_EVENTS_PATH as CONTRACT_LIVE_EVENTS_PATH,
  LiveEventName,
  OrderChangedEvent,
  PresenceEvent,
} from '@eta/contracts';

export interface LiveDeskHandlers {
  /** A fresh ticket, or null when none could be had (the connection then tries again after a pause). */
  fetchTicket: () => Promise<string | null>;
  /** The stream is open; the server's snapshots (counts, presence) follow. */
  onOpen: () => void;
  onCounts: (counts: CountsEvent) => void;
  onPresence: (presence: PresenceEvent) => void;
  onOrder: (change: OrderChangedEvent) => void;
}

export interface LiveDeskConnection {
  close: () => void;
}

/** Typed as the contracts' (their TypeBox module stays out of the bundle), so a change there fails the build here. */
const LIVE_EVENTS_PATH: typeof CONTRACT_LIVE_EVENTS_PATH = '/api/admin/events';
/** The first pause after a failure; each further failure doubles it, up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 30_000;

/**
 * Between half and all of the pause, so that the tabs a restarted server dropped do not all come back in the
 * same instant.
 */
const withJitter = (ms: number): number => ms * (0.5 + Math.random() / 2);

function listen<T>(stream: EventSource, name: LiveEventName, handle: (data: T) => void): void {
  stream.addEventListener(name, (event: MessageEvent<string>) => {
    let data: T;
    try {
      data = JSON.parse(event.data) as T;
    } catch {
      // A broken event is dropped; the next one (or the snapshot after a reconnect) brings the state again.
      return;
    }
    handle(data);
  });
}

export function openLiveDesk(handlers: LiveDeskHandlers): LiveDeskConnection {
  let stream: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let isClosed = false;

  const retryLater = () => {
    if (isClosed) return;
    const pause = Math.min(RETRY_FIRST_MS * 2 ** failures, RETRY_MAX_MS);
    failures += 1;
    retryTimer = setTimeout(() => void connect(), withJitter(pause));
  };

  const connect = async () => {
    const ticket = await handlers.fetchTicket();
    if (isClosed) return;
    if (!ticket) {
      retryLater();
      return;
    }
    const opened = new EventSource(`${LIVE_EVENTS_PATH}?ticket=${encodeURIComponent(ticket)}`);
    stream = opened;
    opened.onopen = () => {
      failures = 0;
      handlers.onOpen();
    };
    opened.onerror = () => {
      opened.close();
      if (stream === opened) stream = null;
      retryLater();
    };
    listen(opened, 'counts', handlers.onCounts);
    listen(opened, 'presence', handlers.onPresence);
    listen(opened, 'order', handlers.onOrder);
  };

  void connect();
  return {
    close: () => {
      isClosed = true;
      clearTimeout(retryTimer);
      stream?.close();
      stream = null;
    },
  };
}
