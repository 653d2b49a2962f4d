import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FolderCounts, PresencePerson } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../test/api-stub';
import { openStream, sendEvent, stubEventSource, ticketReply } from '../test/fake-event-source';
import { FOLDER_COUNTS, isFolderCountCall, isListCall, listPage, orderRow } from '../test/orders';
import { preloadRoutes, renderRoutes } from '../test/render';
import { signIn } from '../test/session';

beforeAll(preloadRoutes);

const WHOLE_CONSOLE = { timeout: 20_000 };
const TICKET = '/api/admin/events/ticket';

/** The console signed in as Asha Rao (staff id 1), with a live-desk stream the test plays the server's side of. */
function renderLiveConsole(path: string, extra: StubHandler = () => undefined) {
  const token = signIn('Asha Rao', 'Team');
  const streams = stubEventSource();
  let tickets = 0;
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    if (call.method === 'POST' && call.path === TICKET) return ticketReply(++tickets);
    return extra(call);
  });
  const router = renderRoutes(path);
  return { api, router, streams, token };
}

const menuCount = (label: string) =>
  within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: new RegExp(`^${label}`) })
    .textContent;

async function streamOpened(streams: { length: number }, count = 1) {
  // A reconnect waits out its first pause (up to a second) before asking for a ticket.
  await waitFor(() => expect(streams.length).toBe(count), { timeout: 5000 });
  openStream().open();
}

const priya: PresencePerson = { staffId: 2, name: 'Priya Shah', activity: 'viewing' };
const self: PresencePerson = { staffId: 1, name: 'Asha Rao', activity: 'viewing' };

describe('Live desk in the console', WHOLE_CONSOLE, () => {
  it('opens one stream on a ticket after sign-in, and its counts move the side menu and the tiles', async () => {
    const { api, streams, token } = renderLiveConsole('/admin');
    const tile = await screen.findByTestId('tile-newOrdersCount', {}, { timeout: 5000 });
    await waitFor(() => expect(tile.textContent).toBe(`${FOLDER_COUNTS.newOrdersCount}New Orders`));
    await streamOpened(streams);

    const [ticketCall] = api.callsTo('POST', TICKET);
    expect(ticketCall?.headers.Authorization).toBe(token);
    expect(streams.map((stream) => stream.url)).toEqual(['/api/admin/events?ticket=ticket-1']);

    const moved: FolderCounts = { ...FOLDER_COUNTS, newOrdersCount: 41, pendingOrdersCount: 17 };
    sendEvent('counts', moved);
    // The cache's patch reaches the screen on the store's next batched notification, not within the event.
    await waitFor(() => expect(tile.textContent).toBe('41New Orders'));
    expect(menuCount('New Orders')).toBe('New Orders41');
    expect(menuCount('Pending Orders')).toBe('Pending Orders17');
    // Pushed, not fetched: the counts were asked for once, when the page opened.
    expect(api.callsTo('GET', '/api/admin/get-folder-count')).toHaveLength(1);
  });

  it('comes back by itself on a new ticket after the stream drops, and closes on sign-out', async () => {
    const { api, streams } = renderLiveConsole('/admin');
    await streamOpened(streams);

    openStream().fail();
    expect(streams[0]!.isClosed).toBe(true);
    // Nothing is shown for a dropped stream; it is back within the first pause (at most a second).
    await streamOpened(streams, 2);
    expect(streams.map((stream) => stream.ticket)).toEqual(['ticket-1', 'ticket-2']);
    expect(api.callsTo('POST', TICKET)).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
    sendEvent('counts', { ...FOLDER_COUNTS, newOrdersCount: 5 });
    await waitFor(() => expect(menuCount('New Orders')).toBe('New Orders5'));

    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    await userEvent.click(within(menu).getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(streams.every((stream) => stream.isClosed)).toBe(true);
  });

  it('shows an avatar on a list row for someone else on the order, never for oneself', async () => {
    const { streams } = renderLiveConsole('/admin/recent-order', (call) =>
      isListCall(call, 'newOrder')
        ? listPage([orderRow(), orderRow({ order_id: 'ETA-200020077', passport_first_name: 'Ken' })])
        : undefined,
    );
    const row = (orderId: string) => screen.getByText(orderId).closest('tr') as HTMLElement;
    await screen.findByText('ETA-200020077', {}, { timeout: 5000 });
    await streamOpened(streams);

    sendEvent('presence', { orderId: 'ETA-200020076', people: [priya, self] });
    sendEvent('presence', { orderId: 'eta-200020077', people: [{ ...self, activity: 'editing-remarks' }] });

    const avatar = within(row('ETA-200020076')).getByRole('img', { name: 'Priya Shah is viewing' });
    expect(avatar.textContent).toBe('PS');
    expect(within(row('ETA-200020076')).queryByRole('img', { name: /Asha Rao/ })).toBeNull();
    expect(within(row('ETA-200020077')).queryByRole('img', { name: /is (viewing|editing remarks)/ })).toBeNull();
    await userEvent.hover(avatar);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Priya Shah is viewing');

    sendEvent('presence', { orderId: 'ETA-200020076', people: [{ ...priya, activity: 'editing-remarks' }] });
    expect(within(row('ETA-200020076')).getByRole('img', { name: 'Priya Shah is editing remarks' })).toBeTruthy();
    sendEvent('presence', { orderId: 'ETA-200020076', people: [] });
    expect(within(row('ETA-200020076')).queryByRole('img', { name: /Priya Shah/ })).toBeNull();
  });

  it('forgets presence heard before a reconnect: the new snapshot is the truth', async () => {
    const { streams } = renderLiveConsole('/admin/recent-order', (call) =>
      isListCall(call, 'newOrder') ? listPage([orderRow()]) : undefined,
    );
    await screen.findByText('ETA-200020076', {}, { timeout: 5000 });
    await streamOpened(streams);
    sendEvent('presence', { orderId: 'ETA-200020076', people: [priya] });
    expect(screen.getByRole('img', { name: 'Priya Shah is viewing' })).toBeTruthy();

    // Priya left while the stream was down: the snapshot after the reconnect no longer names her order.
    openStream().fail();
    await streamOpened(streams, 2);
    expect(screen.queryByRole('img', { name: 'Priya Shah is viewing' })).toBeNull();
  });
});
