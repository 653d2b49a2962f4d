import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubEventSource, type FakeEventSource } from '../../test/fake-event-source';
import { openLiveDesk, RETRY_FIRST_MS, RETRY_MAX_MS, type LiveDeskHandlers } from './live-desk-connection';

function handlers(overrides: Partial<LiveDeskHandlers> = {}) {
  let serial = 0;
  return {
    fetchTicket: vi.fn(() => Promise.resolve(`ticket-${++serial}`)),
    onOpen: vi.fn(),
    onCounts: vi.fn(),
    onPresence: vi.fn(),
    onOrder: vi.fn(),
    ...overrides,
  };
}

describe('Live desk connection', () => {
  let streams: FakeEventSource[];
  beforeEach(() => {
    vi.useFakeTimers();
    streams = stubEventSource();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens the stream on a ticket and hands each event over, parsed', async () => {
    const on = handlers();
    const connection = openLiveDesk(on);
    await vi.advanceTimersByTimeAsync(0);

    expect(streams.map((stream) => stream.url)).toEqual(['/api/admin/events?ticket=ticket-1']);
    streams[0]!.open();
    streams[0]!.send('presence', { orderId: 'ETA-1', people: [] });
    streams[0]!.send('order', { orderId: 'ETA-1', version: 4, status: 'Completed', byStaffId: 2, byName: 'Priya' });
    expect(on.onOpen).toHaveBeenCalledTimes(1);
    expect(on.onPresence).toHaveBeenCalledWith({ orderId: 'ETA-1', people: [] });
    expect(on.onOrder).toHaveBeenCalledWith(expect.objectContaining({ version: 4, byName: 'Priya' }));

    connection.close();
    expect(streams[0]!.isClosed).toBe(true);
  });

  it('after an error closes the stream and opens a new one on a new ticket, pausing longer each time', async () => {
    const on = handlers();
    openLiveDesk(on);
    await vi.advanceTimersByTimeAsync(0);

    streams[0]!.fail();
    // The spent stream is closed at once, so the browser's own retry never resends the used ticket.
    expect(streams[0]!.isClosed).toBe(true);
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS);
    expect(streams.map((stream) => stream.ticket)).toEqual(['ticket-1', 'ticket-2']);

    streams[1]!.fail();
    // The second pause is up to twice the first: not over after one first pause.
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS * 0.99);
    expect(streams).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS * 1.01);
    expect(streams.map((stream) => stream.ticket)).toEqual(['ticket-1', 'ticket-2', 'ticket-3']);

    // Once a stream opens, the next failure starts again from the short pause.
    streams[2]!.open();
    streams[2]!.fail();
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS);
    expect(streams).toHaveLength(4);
    expect(on.fetchTicket).toHaveBeenCalledTimes(4);
  });

  it('keeps trying when no ticket can be had, never more often than the longest pause allows', async () => {
    const fetchTicket = vi.fn(() => Promise.resolve<string | null>(null));
    openLiveDesk(handlers({ fetchTicket }));
    await vi.advanceTimersByTimeAsync(10 * RETRY_MAX_MS);
    const calls = fetchTicket.mock.calls.length;
    expect(calls).toBeGreaterThan(5);
    await vi.advanceTimersByTimeAsync(RETRY_MAX_MS);
    expect(fetchTicket.mock.calls.length - calls).toBeLessThanOrEqual(2);
    expect(streams).toEqual([]);
  });

  it('stops for good when closed, even during a pause', async () => {
    const on = handlers();
    const connection = openLiveDesk(on);
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.fail();
    connection.close();
    await vi.advanceTimersByTimeAsync(RETRY_MAX_MS * 2);
    expect(streams).toHaveLength(1);
    expect(on.fetchTicket).toHaveBeenCalledTimes(1);
  });
});
