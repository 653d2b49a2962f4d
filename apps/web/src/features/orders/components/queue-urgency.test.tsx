// A queue's urgent orders and waiting time (issue 35): the chips and time in status on list rows, and the "Urgent
// first" switch, kept per member on the server.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QueueName, QueueSettings } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { hoursFromNow, isListCall, isQueueSettingsCall, listPage, orderRow, queueSettings } from '../../../test/orders';
import { renderWithApp } from '../../../test/render';
import { signIn } from '../../../test/session';
import { QueuePage } from './queue-page';

beforeAll(() => {
  // Far from UTC, so a tooltip that rendered local time would show another hour.
  vi.stubEnv('TZ', 'Pacific/Auckland');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/** '2026-11-20T10:00:00.000Z' → '20/11/2026 10:00:00 UTC', written out here rather than with the code under test. */
function utcText(iso: string): string {
  const [date = '', time = ''] = iso.split('T');
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year} ${time.slice(0, 8)} UTC`;
}

/** The queue page with the member's queue settings kept as the server would keep them. */
function renderQueue(queue: QueueName, handler: StubHandler, initial: QueueSettings | null = queueSettings()) {
  signIn('Asha Rao', 'Team');
  let settings = initial;
  const api = stubApi((call) => {
    if (isQueueSettingsCall(call))
      return settings ? ok(settings) : { status: 500, body: { status: 0, message: 'down' } };
    if (call.method === 'PUT' && call.path === '/api/admin/queue-settings/urgent-first') {
      const { urgentFirst } = call.body as { urgentFirst: boolean };
      settings = queueSettings({ urgentFirstQueues: urgentFirst ? [queue] : [] });
      return ok(settings, urgentFirst ? 'Urgent orders first.' : 'In queue order.');
    }
    return handler(call);
  });
  renderWithApp(<QueuePage queue={queue} user={{ name: 'Asha Rao', type: 'Team' }} />);
  const listCalls = () => api.calls.filter((call) => isListCall(call, queue));
  return { api, listCalls };
}

const rowOf = async (orderId: string) => (await screen.findByText(orderId)).closest('tr') as HTMLElement;
const titleOf = (element: HTMLElement) => element.closest('[title]')?.getAttribute('title');
const urgentSwitch = () => screen.getByRole('switch', { name: 'Urgent first' });

describe('A list row’s urgency and waiting time', () => {
  it('shows when an urgent traveller flies, how long the order has been in its status, and that it is late', async () => {
    const travelAt = hoursFromNow(50);
    const overdueSince = '2026-11-20T10:00:00.000Z';
    renderQueue('pendingOrder', (call) =>
      isListCall(call, 'pendingOrder')
        ? listPage([
            orderRow({
              order_id: 'ETA-100000001',
              process_status: 'Pending',
              urgent: true,
              travel_at: travelAt,
              status_since: hoursFromNow(-2),
              overdue_since: overdueSince,
            }),
            orderRow({ order_id: 'ETA-100000002', process_status: 'Pending', status_since: hoursFromNow(-0.5) }),
          ])
        : undefined,
    );

    const late = await rowOf('ETA-100000001');
    const chip = within(late).getByText('Travels in 2 days');
    expect(titleOf(chip)).toBe(`Travel time: ${utcText(travelAt)}`);
    // The chip sits in the Order Id cell.
    expect(chip.closest('td')).toBe(within(late).getByText('ETA-100000001').closest('td'));
    expect(within(late).getByText('2 h in Pending')).toBeTruthy();
    expect(titleOf(within(late).getByText('Late'))).toBe('Past its Standard target since 20/11/2026 10:00:00 UTC');

    const calm = await rowOf('ETA-100000002');
    expect(within(calm).getByText('30 min in Pending')).toBeTruthy();
    expect(within(calm).queryByText(/^Travels/)).toBeNull();
    expect(within(calm).queryByText('Late')).toBeNull();
  });

  it('shows a closed order’s status alone, and no Urgent first where no order is open', async () => {
    const { api } = renderQueue('completedOrder', (call) =>
      isListCall(call, 'completedOrder')
        ? listPage([orderRow({ process_status: 'Completed', status_since: hoursFromNow(-5) })])
        : undefined,
    );
    const row = await rowOf('ETA-200020076');
    expect(within(row).getByText('Completed')).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Urgent first' })).toBeNull();
    expect(api.calls.filter(isQueueSettingsCall)).toEqual([]);
  });
});

describe('Urgent first', () => {
  it('asks for the list once, urgent first, when the member sorts the queue so', async () => {
    const { listCalls } = renderQueue(
      'newOrder',
      (call) => (isListCall(call, 'newOrder') ? listPage([orderRow()], {}) : undefined),
      queueSettings({ urgentFirstQueues: ['newOrder', 'pendingOrder'] }),
    );
    await rowOf('ETA-200020076');
    expect(urgentSwitch()).toHaveProperty('checked', true);
    expect(listCalls().map((call) => call.query.get('sort'))).toEqual(['urgent']);
  });

  it('keeps the choice on the server: switched on, the list comes urgent first; off, in queue order', async () => {
    const { api, listCalls } = renderQueue('pendingOrder', (call) =>
      isListCall(call, 'pendingOrder') ? listPage([orderRow({ process_status: 'Pending' })]) : undefined,
    );
    await rowOf('ETA-200020076');
    expect(urgentSwitch()).toHaveProperty('checked', false);
    // The settings first, then the list once, in queue order.
    expect(api.calls.findIndex(isQueueSettingsCall)).toBeLessThan(
      api.calls.findIndex((c) => isListCall(c, 'pendingOrder')),
    );
    expect(listCalls().map((call) => call.query.get('sort'))).toEqual([null]);

    await userEvent.click(urgentSwitch());
    await waitFor(() => expect(urgentSwitch()).toHaveProperty('checked', true));
    await waitFor(() => expect(listCalls().map((call) => call.query.get('sort'))).toEqual([null, 'urgent']));

    await userEvent.click(urgentSwitch());
    await waitFor(() => expect(urgentSwitch()).toHaveProperty('checked', false));
    await waitFor(() => expect(listCalls().map((call) => call.query.get('sort'))).toEqual([null, 'urgent', null]));
    expect(api.callsTo('PUT', '/api/admin/queue-settings/urgent-first').map((call) => call.body)).toEqual([
      { queue: 'pendingOrder', urgentFirst: true },
      { queue: 'pendingOrder', urgentFirst: false },
    ]);
  });

  it('leaves a search in its own order, and says so', async () => {
    const { api } = renderQueue(
      'newOrder',
      (call) => {
        if (isListCall(call, 'newOrder')) return listPage([orderRow()]);
        if (call.path === '/api/admin/search-order') return listPage([orderRow()]);
        return undefined;
      },
      queueSettings({ urgentFirstQueues: ['newOrder'] }),
    );
    await rowOf('ETA-200020076');
    expect(screen.queryByText(/Search results keep their own order/)).toBeNull();

    await userEvent.type(screen.getByLabelText('Search'), 'maria');
    expect(
      await screen.findByText('Search results keep their own order; Urgent first applies to the list.'),
    ).toBeTruthy();
    await waitFor(() =>
      expect(api.callsTo('POST', '/api/admin/search-order').map((call) => call.body)).toEqual([
        { start: 0, end: 10, searchVal: 'maria', folderName: 'newOrder' },
      ]),
    );
  });

  it('lists in queue order, with the switch disabled, when the settings cannot be read', async () => {
    const { listCalls } = renderQueue(
      'newOrder',
      (call) => (isListCall(call, 'newOrder') ? listPage([orderRow()]) : undefined),
      null,
    );
    await rowOf('ETA-200020076');
    expect(listCalls().map((call) => call.query.get('sort'))).toEqual([null]);
    expect(urgentSwitch()).toHaveProperty('disabled', true);
    expect(document.querySelector('.Toastify__toast--error')).toBeNull();
  });
});
