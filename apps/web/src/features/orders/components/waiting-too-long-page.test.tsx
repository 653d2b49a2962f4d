// "Waiting too long" (issue 35) in the whole console: the late orders, oldest wait first, with their holder; the
// target times, an Admin's to set.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderListRow, StaffType } from '@eta/contracts';
import { encodeOrderId } from '../../../lib/order-id';
import { ok, stubApi, type RecordedCall, type StubReply } from '../../../test/api-stub';
import {
  FOLDER_COUNTS,
  hoursFromNow,
  isFolderCountCall,
  isQueueSettingsCall,
  listPage,
  orderRow,
  queueSettings,
} from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);

const isWaitingCall = (call: RecordedCall) => call.method === 'GET' && call.path === '/api/admin/waiting-too-long';

function renderWaiting(
  role: StaffType,
  rows: OrderListRow[],
  extra: (call: RecordedCall) => StubReply | undefined = () => undefined,
) {
  signIn('Asha Rao', role);
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    if (isQueueSettingsCall(call)) return ok(queueSettings());
    if (isWaitingCall(call)) return listPage(rows);
    return extra(call);
  });
  renderRoutes('/admin/waiting-too-long');
  return api;
}

const LATE_ROWS = [
  // Priority (target 2 h), late by 1.5 h: waited 3.5 h; urgent.
  orderRow({
    order_id: 'ETA-100000001',
    passport_first_name: 'Ana',
    passport_surname: 'Silva',
    process_status: 'Pending',
    processing_type: 'Priority',
    status_since: hoursFromNow(-3),
    overdue_since: hoursFromNow(-1.5),
    assign_to: 'Ben Ode',
    urgent: true,
    travel_at: hoursFromNow(5.5),
  }),
  // Standard (target 24 h), late by 30 h: waited 54 h; nobody holds it.
  orderRow({ order_id: 'ETA-100000002', status_since: hoursFromNow(-54), overdue_since: hoursFromNow(-30) }),
];

/** The whole console's first render in jsdom can take seconds on a busy machine. */
const CONSOLE = { timeout: 20_000 };
const LOADED = { timeout: 10_000 };
const table = () => screen.getByRole('table', { name: 'Waiting too long' });
const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('Waiting too long', CONSOLE, () => {
  it('lists the late orders with their wait, status and holder, each linking to its order', async () => {
    const api = renderWaiting('Team', LATE_ROWS);
    await screen.findByText('ETA-100000002', {}, LOADED);
    const [, first, second] = within(table()).getAllByRole('row');
    expect(cellsOf(first!)).toEqual([
      'ETA-100000001Travels in 5 h',
      'Ana Silva',
      'Priority',
      '3 h in Pending',
      '3 hLate by 1 h',
      'Ben Ode',
    ]);
    expect(cellsOf(second!)).toEqual([
      'ETA-100000002',
      'Maria Lopez',
      'Standard',
      '2 days in New',
      '2 daysLate by 30 h',
      'Not assigned',
    ]);
    expect(within(first!).getByRole('link', { name: 'ETA-100000001' }).getAttribute('href')).toBe(
      `/admin/view-order/${encodeOrderId('ETA-100000001')}`,
    );
    expect(Object.fromEntries(api.calls.find(isWaitingCall)?.query ?? [])).toEqual({ page: '1', limit: '10' });
    // Everyone but an Admin reads the targets.
    expect(screen.getByText('Priority: 2 h · Standard: 24 h · Future: 24 h')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Target times' })).toBeNull();
  });

  it('says so when no order waits longer than its target', async () => {
    renderWaiting('Manager', []);
    expect(await screen.findByText('No order is waiting longer than its target time.', {}, LOADED)).toBeTruthy();
  });

  it('lets an Admin set the target times in hours, sent in minutes (empty: no target)', async () => {
    const api = renderWaiting('Admin', LATE_ROWS, (call) =>
      call.method === 'PUT' && call.path === '/api/admin/processing-targets'
        ? ok(queueSettings({ targets: call.body as never }), 'Target times saved.')
        : undefined,
    );
    const form = await screen.findByRole('form', { name: 'Target times' }, LOADED);
    const priority = within(form).getByLabelText('Priority (hours)');
    await waitFor(() => expect(priority).toHaveProperty('value', '2'));

    await userEvent.clear(priority);
    await userEvent.type(priority, 'soon');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(
      await within(form).findByText('Between 1 minute and 90 days (2160 h); leave it empty for no target.'),
    ).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/processing-targets')).toEqual([]);

    await userEvent.clear(priority);
    await userEvent.type(priority, '1.5');
    await userEvent.clear(within(form).getByLabelText('Future (hours)'));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Target times saved.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/processing-targets').map((call) => call.body)).toEqual([
      { Standard: 1440, Priority: 90, Future: null },
    ]);
  });

  it('is not for a Telecaller, and asks nothing for them', async () => {
    const api = renderWaiting('Telecaller', LATE_ROWS);
    expect(await screen.findByText('You do not have access to this page.', {}, LOADED)).toBeTruthy();
    expect(api.calls.filter(isWaitingCall)).toEqual([]);
  });
});
