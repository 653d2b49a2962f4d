import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderChangedEvent, OrderDetails, PresencePerson } from '@eta/contracts';
import { encodeOrderId } from '../../../lib/order-id';
import { ok, stubApi } from '../../../test/api-stub';
import { openStream, sendEvent, stubEventSource, ticketReply } from '../../../test/fake-event-source';
import {
  DETAIL_ORDER_ID,
  detailReply,
  isDetailCall,
  isDisputesCall,
  orderDetails,
  remarkEntry,
} from '../../../test/order-details';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';
import { PRESENCE_HEARTBEAT_MS } from '../hooks/use-presence-heartbeat';

beforeAll(preloadRoutes);
afterEach(() => {
  vi.useRealTimers();
});

const WHOLE_CONSOLE = { timeout: 20_000 };
const PRESENCE = `/api/admin/orders/${DETAIL_ORDER_ID}/presence`;

/**
 * The whole console at the order's page, signed in as Asha Rao (staff id 1), with a live-desk stream; the server
 * answers with the order as `current()` holds it at each call.
 */
function renderLiveOrder(first: OrderDetails) {
  signIn('Asha Rao', 'Team');
  const streams = stubEventSource();
  let order = first;
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    if (call.method === 'POST' && call.path === '/api/admin/events/ticket') return ticketReply(1);
    if (call.method === 'PUT' && call.path === PRESENCE) return ok({ orderId: DETAIL_ORDER_ID, people: [] });
    if (isDisputesCall(call)) return ok([]);
    if (isDetailCall(call)) return detailReply(order);
    return undefined;
  });
  const router = renderRoutes(`/admin/view-order/${encodeOrderId(DETAIL_ORDER_ID)}`);
  return {
    api,
    router,
    streams,
    /** What the server answers from now on. */
    changeOrder: (next: OrderDetails) => (order = next),
    detailCalls: () => api.calls.filter((call) => isDetailCall(call)).length,
    presenceSent: () => api.callsTo('PUT', PRESENCE).map((call) => (call.body as { activity: string }).activity),
  };
}

/** The page with its stream open; the whole console's first render can take seconds on a busy machine. */
async function liveOrderPage(streams: { length: number }) {
  await screen.findByRole('heading', { level: 1, name: DETAIL_ORDER_ID }, { timeout: 5000 });
  await waitFor(() => expect(streams.length).toBe(1), { timeout: 5000 });
  act(() => openStream().open());
}

const presenceLine = () => screen.getByRole('status', { name: 'Also on this order' });
const person = (staffId: number, name: string, activity: PresencePerson['activity']): PresencePerson => ({
  staffId,
  name,
  activity,
});
const changeBy = (overrides: Partial<OrderChangedEvent>): OrderChangedEvent => ({
  orderId: DETAIL_ORDER_ID,
  version: 4,
  status: 'Completed',
  byStaffId: 2,
  byName: 'Priya',
  ...overrides,
});

describe('Order detail on the live desk', WHOLE_CONSOLE, () => {
  it('says who else is on the order and what they are doing, never oneself', async () => {
    const { streams } = renderLiveOrder(orderDetails());
    await liveOrderPage(streams);
    expect(presenceLine().textContent).toBe('');

    sendEvent('presence', { orderId: DETAIL_ORDER_ID, people: [person(1, 'Asha Rao', 'viewing')] });
    expect(presenceLine().textContent).toBe('');

    sendEvent('presence', {
      orderId: DETAIL_ORDER_ID,
      people: [person(2, 'Priya', 'viewing'), person(1, 'Asha Rao', 'editing-remarks'), person(3, 'Ben', 'viewing')],
    });
    expect(presenceLine().textContent).toContain('Priya and Ben are viewing.');
    expect(presenceLine().textContent).not.toContain('Asha');

    sendEvent('presence', {
      orderId: DETAIL_ORDER_ID,
      people: [person(2, 'Priya', 'editing-remarks'), person(3, 'Ben', 'viewing')],
    });
    expect(presenceLine().textContent).toContain('Priya is editing remarks. Ben is viewing.');

    // Another order's presence is not this page's.
    sendEvent('presence', { orderId: 'ETA-100000012', people: [person(4, 'Sam', 'viewing')] });
    expect(presenceLine().textContent).not.toContain('Sam');

    sendEvent('presence', { orderId: DETAIL_ORDER_ID, people: [] });
    expect(presenceLine().textContent).toBe('');
  });

  it('tells the server it is viewing (again every 20 s), editing remarks while a remark is written, and left', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { streams, router, presenceSent } = renderLiveOrder(orderDetails());
    await liveOrderPage(streams);
    await waitFor(() => expect(presenceSent()).toEqual(['viewing']));

    act(() => {
      vi.advanceTimersByTime(PRESENCE_HEARTBEAT_MS);
    });
    await waitFor(() => expect(presenceSent()).toEqual(['viewing', 'viewing']));

    const comment = screen.getByRole('textbox', { name: 'Comment' });
    await userEvent.click(comment);
    await waitFor(() => expect(presenceSent().at(-1)).toBe('editing-remarks'));
    await userEvent.type(comment, 'Called the customer');
    // Still writing while the text is there, even with the focus elsewhere; the beat repeats what is true now.
    await userEvent.click(screen.getByRole('heading', { level: 1, name: DETAIL_ORDER_ID }));
    act(() => {
      vi.advanceTimersByTime(PRESENCE_HEARTBEAT_MS);
    });
    await waitFor(() => expect(presenceSent()).toEqual(['viewing', 'viewing', 'editing-remarks', 'editing-remarks']));

    await userEvent.clear(comment);
    await userEvent.click(screen.getByRole('heading', { level: 1, name: DETAIL_ORDER_ID }));
    await waitFor(() => expect(presenceSent().at(-1)).toBe('viewing'));

    await act(() => router.navigate('/admin'));
    await waitFor(() => expect(presenceSent().at(-1)).toBe('left'));
  });

  it("shows someone else's newer change as a notice that stays, and Reload brings the order as it now is", async () => {
    const { streams, changeOrder, detailCalls } = renderLiveOrder(
      orderDetails({ version: 3, process_status: 'Pending' }),
    );
    await liveOrderPage(streams);
    expect(screen.queryByRole('alert')).toBeNull();

    sendEvent('order', changeBy({ version: 4, status: 'Completed', byName: 'Priya' }));
    const notice = screen.getByRole('alert');
    expect(notice.textContent).toContain('Priya moved this order to Completed. Reload to see the change.');

    changeOrder(orderDetails({ version: 4, process_status: 'Completed' }));
    const before = detailCalls();
    await userEvent.click(within(notice).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(detailCalls()).toBe(before + 1));
    expect(await screen.findByText('Status: Completed')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names a change that kept the status, and one that no staff member made', async () => {
    const { streams } = renderLiveOrder(orderDetails({ version: 3, process_status: 'Pending' }));
    await liveOrderPage(streams);

    sendEvent('order', changeBy({ version: 4, status: 'Pending', byName: 'Priya' }));
    expect(screen.getByRole('alert').textContent).toContain('Priya changed this order. Reload to see the change.');
    sendEvent('order', changeBy({ version: 5, status: 'Refunds', byStaffId: null, byName: null }));
    expect(screen.getByRole('alert').textContent).toContain('This order was moved to Refunds.');
  });

  it('shows a comment someone else added in another window (the version stays) until Reload brings it into Comment History', async () => {
    const { streams, changeOrder, detailCalls } = renderLiveOrder(orderDetails({ version: 3 }));
    await liveOrderPage(streams);
    const comments = screen.getByRole('region', { name: 'Comment History' });
    expect(within(comments).queryByText('Called the customer, she will send the new passport')).toBeNull();

    sendEvent('order', changeBy({ version: 3, status: 'Pending', added: { kind: 'comment', id: 901 } }));
    const notice = screen.getByRole('alert');
    expect(notice.textContent).toContain('Priya added a comment. Reload to see the change.');

    changeOrder(
      orderDetails({
        version: 3,
        remark: [
          remarkEntry({ id: 901, remark_name: 'Priya', remark: 'Called the customer, she will send the new passport' }),
        ],
      }),
    );
    const before = detailCalls();
    await userEvent.click(within(notice).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(detailCalls()).toBe(before + 1));
    expect(await within(comments).findByText('Called the customer, she will send the new passport')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("names mails and a customer's download added meanwhile, and says nothing of rows the page already shows or one's own", async () => {
    const shown = remarkEntry({ id: 5 });
    const { streams } = renderLiveOrder(orderDetails({ version: 3, remark: [shown] }));
    await liveOrderPage(streams);

    // Already in Comment History (heard late), and one's own comment from another tab: nothing to reload for.
    sendEvent('order', changeBy({ version: 3, status: 'Pending', added: { kind: 'comment', id: 5 } }));
    sendEvent(
      'order',
      changeBy({ version: 3, status: 'Pending', byStaffId: 1, byName: 'Asha Rao', added: { kind: 'comment', id: 6 } }),
    );
    expect(screen.queryByRole('alert')).toBeNull();

    sendEvent('order', changeBy({ version: 3, status: 'Pending', added: { kind: 'mail', id: 40 } }));
    sendEvent('order', changeBy({ version: 3, status: 'Pending', added: { kind: 'mail', id: 41 } }));
    // The same event heard twice counts once.
    sendEvent('order', changeBy({ version: 3, status: 'Pending', added: { kind: 'mail', id: 41 } }));
    sendEvent(
      'order',
      changeBy({
        version: 3,
        status: 'Pending',
        byStaffId: null,
        byName: 'Customer',
        added: { kind: 'download', id: 7 },
      }),
    );
    expect(screen.getByRole('alert').textContent).toContain(
      'Priya sent 2 mails to the customer. The customer downloaded the approved document. Reload to see the changes.',
    );
  });

  it("shows no notice for one's own change, for a version the page already shows, or for another order", async () => {
    const { streams, detailCalls } = renderLiveOrder(orderDetails({ version: 3 }));
    await liveOrderPage(streams);
    const loads = detailCalls();

    sendEvent('order', changeBy({ version: 3, byStaffId: 2 }));
    sendEvent('order', changeBy({ orderId: 'ETA-100000012', version: 9, byStaffId: 2 }));
    sendEvent('order', changeBy({ version: 4, byStaffId: 1, byName: 'Asha Rao' }));
    expect(screen.queryByRole('alert')).toBeNull();
    // Nothing was reloaded behind the person's back either.
    expect(detailCalls()).toBe(loads);
  });
});
