import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QueueName, StaffType } from '@eta/contracts';
import { registerNavigate } from '../../../lib/navigation';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { FOLDER_COUNTS, hoursFromNow, isFolderCountCall, isListCall, listPage, orderRow } from '../../../test/orders';
import { detailReply, isDetailCall, orderDetails } from '../../../test/order-details';
import { encodeOrderId } from '../../../lib/order-id';
import { preloadRoutes, renderRoutes, renderWithApp } from '../../../test/render';
import { signIn } from '../../../test/session';
import { QueuePage } from './queue-page';

beforeAll(() => {
  // Far from UTC, so a table that rendered local time would show another day and hour.
  vi.stubEnv('TZ', 'Pacific/Auckland');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

function renderQueue(queue: QueueName, role: StaffType, handler: StubHandler, route = '/') {
  const token = signIn('Asha Rao', role);
  const api = stubApi(handler);
  renderWithApp(<QueuePage queue={queue} user={{ name: 'Asha Rao', type: role }} />, { route });
  return { api, token };
}

const table = () => screen.getByRole('table');
const columnHeaders = () =>
  within(table())
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent);
const rowOf = async (orderId: string) => (await screen.findByText(orderId)).closest('tr') as HTMLElement;

describe('Shared order table', () => {
  it('asks for the queue with page, limit, delay and user name, and shows the rows in UTC', async () => {
    const { api, token } = renderQueue('newOrder', 'Team', (call) =>
      isListCall(call, 'newOrder') ? listPage([orderRow({ status_since: hoursFromNow(-2) })]) : undefined,
    );

    const row = await rowOf('ETA-200020076');
    expect(new Date('2024-03-05T23:04:09.000Z').getHours()).not.toBe(23);
    expect(within(row).getByText('05/03/2024 23:04:09 UTC').getAttribute('title')).toBe('03/05/2024 18:04:09 EST');
    expect(within(row).getByText('Maria Lopez')).toBeTruthy();
    expect(within(row).getByText('+1 6045550100')).toBeTruthy();
    // The status, with the time the order has been in it.
    expect(within(row).getByText('2 h in New')).toBeTruthy();
    expect(columnHeaders()).toEqual(['', 'Order Id', 'Name', 'Email', 'Telephone', 'Date & Time', 'Status', 'Action']);

    const [call] = api.callsTo('GET', '/api/admin/get-orders-list/newOrder');
    expect(call?.path).toBe('/api/admin/get-orders-list/newOrder');
    expect(Object.fromEntries(call?.query ?? [])).toEqual({ page: '1', limit: '10', delay: '1', userName: 'Asha Rao' });
    expect(call?.headers.Authorization).toBe(token);
    expect(screen.getByRole('heading', { name: 'New Orders' })).toBeTruthy();
  });

  it('hides Telephone in Contact Customer', async () => {
    renderQueue('contactCustomer', 'Team', (call) =>
      isListCall(call, 'contactCustomer') ? listPage([orderRow({ process_status: 'Contact Customer' })]) : undefined,
    );
    const row = await rowOf('ETA-200020076');
    expect(columnHeaders()).not.toContain('Telephone');
    expect(within(row).queryByText('+1 6045550100')).toBeNull();
  });

  it('shows the refund columns with the refund date and only View', async () => {
    renderQueue('refundOrder', 'Admin', (call) =>
      isListCall(call, 'refundOrder')
        ? listPage([orderRow({ process_status: 'Refunds', refund_date: '2024-12-31T22:30:00.000Z' })])
        : undefined,
    );
    const row = await rowOf('ETA-200020076');
    expect(columnHeaders()).toEqual([
      '',
      'Order Id',
      'Email',
      'Telephone',
      'Date & Time',
      'Refund Date',
      'Status',
      'Action',
    ]);
    expect(within(row).getByText('31/12/2024')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'View' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Refunded it' })).toBeTruthy();
  });

  it('greys View for an assigned order and names who holds it', async () => {
    renderQueue('pendingOrder', 'Team', (call) =>
      isListCall(call, 'pendingOrder')
        ? listPage([
            orderRow({ order_id: 'ETA-100000001', assign_to: 'Ben Ode', process_status: 'Pending' }),
            orderRow({ order_id: 'ETA-100000002', assign_to: '' }),
          ])
        : undefined,
    );
    const assignedView = within(await rowOf('ETA-100000001')).getByRole('link', { name: 'View' });
    const freeView = within(await rowOf('ETA-100000002')).getByRole('link', { name: 'View' });
    expect(assignedView.className).not.toBe(freeView.className);
    expect(freeView.getAttribute('href')).toBe(`/admin/view-order/${btoa('ETA-100000002').replace(/=+$/, '')}`);

    await userEvent.hover(assignedView);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Assigned to Ben Ode');

    await userEvent.unhover(assignedView);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    await userEvent.hover(freeView);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it.each<[QueueName, StaffType, boolean]>([
    ['newOrder', 'Admin', true],
    ['newOrder', 'Manager', true],
    ['newOrder', 'Team', false],
    ['newOrder', 'Telecaller', false],
    ['newOrder', 'Night Staff', false],
    ['myOrder', 'Admin', true],
    ['myOrder', 'Manager', false],
  ])('in %s, %s sees Delete: %s', async (queue, role, seesDelete) => {
    renderQueue(queue, role, (call) => (isListCall(call, queue) ? listPage([orderRow()]) : undefined));
    const row = await rowOf('ETA-200020076');
    expect(within(row).queryByRole('button', { name: 'Delete' }) !== null).toBe(seesDelete);
    expect(screen.queryByRole('button', { name: 'Delete Order' }) !== null).toBe(seesDelete);
  });

  it("says 'No data available in table' for an empty queue and 'No records found' for a search without hits", async () => {
    const { api } = renderQueue('newOrder', 'Team', (call) => {
      if (isListCall(call, 'newOrder')) return listPage([]);
      if (call.path === '/api/admin/search-order') return listPage([]);
      return undefined;
    });

    expect(await screen.findByText('No data available in table')).toBeTruthy();
    expect(screen.queryByText('No records found')).toBeNull();

    await userEvent.type(screen.getByLabelText('Search'), 'zz');
    expect(await screen.findByText('No records found', {}, { timeout: 2000 })).toBeTruthy();
    // One search after the typing stops (500 ms debounce), with the queue's page window.
    expect(api.callsTo('POST', '/api/admin/search-order').map((call) => call.body)).toEqual([
      { start: 0, end: 10, searchVal: 'zz', folderName: 'newOrder' },
    ]);
    expect(screen.getByTestId('location').textContent).toBe('/?q=zz&page=1');
  });

  it('says what a search covered: more matches than read, an exact lookup, only the newest orders', async () => {
    const answers: Record<string, object> = {
      jones: { totalCapped: true, total: 11 },
      'harry@mail.test': { exactMatch: true, total: 1 },
      xq: { searchedNewest: 500, totalCapped: true, total: 0 },
      gmailcom: { searchedNewest: 10_000, totalCapped: true, total: 0 },
      gmail: { totalCapped: true, total: 1_000 },
      'eta-2005': { someMatches: true, totalCapped: true, total: 1_000 },
    };
    renderQueue('orderHistory', 'Admin', (call) => {
      if (isListCall(call, 'orderHistory')) return listPage([]);
      if (call.path !== '/api/admin/search-order') return undefined;
      const { searchVal } = call.body as { searchVal: string };
      const rows = searchVal === 'xq' || searchVal === 'gmailcom' ? [] : [orderRow()];
      return ok({ rows, page: 1, limit: 10, ...answers[searchVal] });
    });
    const box = screen.getByLabelText('Search');

    await userEvent.type(box, 'jones');
    expect(await screen.findByText('Showing 1 to 1 of 11+ entries', {}, { timeout: 2000 })).toBeTruthy();
    // The next page is there to open: at least 11 match.
    expect(screen.getByRole('button', { name: 'Go to page 2' })).toBeTruthy();
    expect(screen.queryByText(/Exact matches|were searched/)).toBeNull();

    await userEvent.clear(box);
    await userEvent.type(box, 'harry@mail.test');
    const exact = await screen.findByText(/^Exact matches of “harry@mail.test”/, {}, { timeout: 2000 });
    expect(exact.textContent).toMatch(/as an order id, e-mail address, telephone number/);

    await userEvent.clear(box);
    await userEvent.type(box, 'xq');
    const short = await screen.findByText(/Only the newest 500 orders were searched/, {}, { timeout: 2000 });
    expect(short.textContent).toMatch(/at least three letters or digits/);

    await userEvent.clear(box);
    await userEvent.type(box, 'gmailcom');
    const common = await screen.findByText(/too many orders to search them all/, {}, { timeout: 2000 });
    expect(common.textContent).toMatch(/only the newest 10,000 were searched/);

    await userEvent.clear(box);
    await userEvent.type(box, 'gmail');
    expect(await screen.findByText('Showing 1 to 1 of 1,000+ entries', {}, { timeout: 2000 })).toBeTruthy();
    expect(screen.getByText(/More than 1,000 orders match “gmail”: a search shows the first 1,000/)).toBeTruthy();

    await userEvent.clear(box);
    await userEvent.type(box, 'eta-2005');
    const some = await screen.findByText(/too many to put in date order quickly/, {}, { timeout: 2000 });
    expect(some.textContent).toMatch(
      /^More than 1,000 orders match “eta-2005”.*these are some of them, not the newest/,
    );
    expect(screen.queryByText(/a search shows the first 1,000/)).toBeNull();
  });

  it('assigns the selected orders to me after confirmation, with their versions, and takes them out of the list', async () => {
    let assigned = false;
    const { api } = renderQueue('newOrder', 'Team', (call) => {
      if (isListCall(call, 'newOrder')) {
        const rows = [
          orderRow({ order_id: 'ETA-100000001', version: 3 }),
          orderRow({ order_id: 'ETA-100000002', version: 7 }),
        ];
        return listPage(assigned ? rows.slice(1) : rows);
      }
      if (call.path === '/api/admin/assign-order-status') {
        assigned = true;
        return ok({
          updated: ['ETA-100000001'],
          skipped: [{ orderId: 'ETA-100000002', code: 'ALREADY_IN_STATUS', reason: 'is already assigned to Asha Rao' }],
        });
      }
      return undefined;
    });

    await rowOf('ETA-100000001');
    const assign = screen.getByRole('button', { name: 'Assign to me' });
    expect(assign.hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByLabelText('Select all orders on this page'));
    await userEvent.click(assign);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure want to assigned orders.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));

    expect(await screen.findByText('Order has been assigned successfully')).toBeTruthy();
    expect(await screen.findByText('Not changed: ETA-100000002 is already assigned to Asha Rao.')).toBeTruthy();
    expect(screen.queryByText(/changed by someone else/)).toBeNull();
    expect(api.callsTo('PUT', '/api/admin/assign-order-status').map((call) => call.body)).toEqual([
      {
        orderId: ['ETA-100000001', 'ETA-100000002'],
        assignto: 'Asha Rao',
        versions: { 'ETA-100000001': 3, 'ETA-100000002': 7 },
      },
    ]);
    await waitFor(() => expect(screen.queryByText('ETA-100000001')).toBeNull());
    expect(screen.getByText('ETA-100000002')).toBeTruthy();
  });

  it.each<QueueName>(['priorityOrder', 'pendingOrder'])(
    'offers Assign to me in %s and assigns there',
    async (queue) => {
      let assigned = false;
      const { api } = renderQueue(queue, 'Telecaller', (call) => {
        if (isListCall(call, queue)) {
          return listPage(assigned ? [] : [orderRow({ order_id: 'ETA-100000009', version: 4 })]);
        }
        if (call.path === '/api/admin/assign-order-status') {
          assigned = true;
          return ok({ updated: ['ETA-100000009'], skipped: [] });
        }
        return undefined;
      });

      await userEvent.click(within(await rowOf('ETA-100000009')).getByLabelText('Select order ETA-100000009'));
      await userEvent.click(screen.getByRole('button', { name: 'Assign to me' }));
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));

      expect(await screen.findByText('Order has been assigned successfully')).toBeTruthy();
      expect(api.callsTo('PUT', '/api/admin/assign-order-status').map((call) => call.body)).toEqual([
        { orderId: ['ETA-100000009'], assignto: 'Asha Rao', versions: { 'ETA-100000009': 4 } },
      ]);
      await waitFor(() => expect(screen.queryByText('ETA-100000009')).toBeNull());
    },
  );

  it('deletes one row softly after the default confirmation', async () => {
    const { api } = renderQueue('completedOrder', 'Manager', (call) => {
      if (isListCall(call, 'completedOrder')) return listPage([orderRow({ process_status: 'Completed', version: 5 })]);
      if (call.path === '/api/admin/change-order-status') return ok({ updated: ['ETA-200020076'], skipped: [] });
      return undefined;
    });

    await userEvent.click(within(await rowOf('ETA-200020076')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));

    expect(await screen.findByText('Order has been deleted successfully')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/change-order-status').map((call) => call.body)).toEqual([
      {
        orderId: ['ETA-200020076'],
        updatingStatus: 'Deleted',
        permanentDeletedFlag: false,
        versions: { 'ETA-200020076': 5 },
      },
    ]);
  });

  it('marks refunds as refunded through their own call and counts them in words', async () => {
    const refunds = [
      orderRow({ order_id: 'ETA-100000001', process_status: 'Refunds', version: 2 }),
      orderRow({ order_id: 'ETA-100000002', process_status: 'Refunds', version: 6 }),
    ];
    const { api } = renderQueue('refundOrder', 'Team', (call) => {
      if (isListCall(call, 'refundOrder')) return listPage(refunds);
      if (call.path === '/api/admin/move-to-complete-refund') {
        return ok({ updated: ['ETA-100000001', 'ETA-100000002'], skipped: [] }, '2 order(s) refunded.');
      }
      return undefined;
    });

    await rowOf('ETA-100000001');
    await userEvent.click(screen.getByLabelText('Select all orders on this page'));
    await userEvent.click(screen.getByRole('button', { name: 'Refunded it' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure want to mark orders as refunded.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));

    expect(await screen.findByText('2 orders marked as refunded')).toBeTruthy();
    expect(screen.queryByText(/\(s\)/)).toBeNull();
    expect(api.callsTo('PUT', '/api/admin/move-to-complete-refund').map((call) => call.body)).toEqual([
      { orderId: ['ETA-100000001', 'ETA-100000002'], versions: { 'ETA-100000001': 2, 'ETA-100000002': 6 } },
    ]);
    expect(api.calls.filter((call) => call.path === '/api/admin/change-order-status')).toEqual([]);
  });

  it("names each refund its gateway refused with the gateway's reason, in a toast that stays", async () => {
    const refunds = [
      orderRow({ order_id: 'ETA-100000001', process_status: 'Refunds' }),
      orderRow({ order_id: 'ETA-100000002', process_status: 'Refunds' }),
      orderRow({ order_id: 'ETA-100000003', process_status: 'Refunds' }),
    ];
    renderQueue('refundOrder', 'Team', (call) => {
      if (isListCall(call, 'refundOrder')) return listPage(refunds);
      if (call.path === '/api/admin/move-to-complete-refund') {
        return ok({
          updated: ['ETA-100000001'],
          skipped: [
            { orderId: 'ETA-100000002', code: 'REFUND_FAILED', reason: 'was not refunded: Stripe: already refunded' },
            {
              orderId: 'ETA-100000003',
              code: 'REFUND_FAILED',
              reason: 'was not refunded: Stripe: Charge ch_3 has been disputed.',
            },
          ],
        });
      }
      return undefined;
    });

    await rowOf('ETA-100000001');
    await userEvent.click(screen.getByLabelText('Select all orders on this page'));
    await userEvent.click(screen.getByRole('button', { name: 'Refunded it' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));

    expect(await screen.findByText('1 order marked as refunded')).toBeTruthy();
    const refused = screen.getByText(
      'Not changed: ETA-100000002 was not refunded: Stripe: already refunded and ETA-100000003 was not refunded: ' +
        'Stripe: Charge ch_3 has been disputed.',
    );
    const toast = refused.closest('.Toastify__toast')!;
    expect(toast.className).toContain('Toastify__toast--warning');
    // No countdown: it stays until the person closes it.
    expect(toast.querySelector('.Toastify__progress-bar--wrp')?.getAttribute('data-hidden')).toBe('true');
    const success = screen.getByText('1 order marked as refunded').closest('.Toastify__toast')!;
    expect(success.querySelector('.Toastify__progress-bar--wrp')?.getAttribute('data-hidden')).toBe('false');
  });

  it('moves my order back to New orders and says "1 order", not "1 orders"', async () => {
    const { api } = renderQueue('myOrder', 'Team', (call) => {
      if (isListCall(call, 'myOrder'))
        return listPage([orderRow({ assign_to: 'Asha Rao', process_status: 'Pending' })]);
      if (call.path === '/api/admin/assign-order-status') return ok({ updated: ['ETA-200020076'], skipped: [] });
      return undefined;
    });

    await userEvent.click(within(await rowOf('ETA-200020076')).getByLabelText('Select order ETA-200020076'));
    await userEvent.click(screen.getByRole('button', { name: 'Move to New orders' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));

    expect(await screen.findByText('1 order moved to New orders')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/assign-order-status').map((call) => call.body)).toEqual([
      { orderId: ['ETA-200020076'], assignto: '', versions: { 'ETA-200020076': 1 } },
    ]);
  });

  it.each<[QueueName, StaffType, boolean]>([
    ['deletedOrder', 'Admin', true],
    ['deletedOrder', 'Manager', false],
    ['deletedOrder', 'Team', false],
    ['newOrder', 'Admin', false],
    ['orderHistory', 'Admin', false],
  ])('in %s, %s is offered Restore to New: %s', async (queue, role, offered) => {
    renderQueue(queue, role, (call) => (isListCall(call, queue) ? listPage([orderRow()]) : undefined));
    await rowOf('ETA-200020076');
    expect(screen.queryByRole('button', { name: 'Restore to New' }) !== null).toBe(offered);
  });

  it('lets an Admin restore deleted orders to New after confirmation', async () => {
    let restored = false;
    const { api } = renderQueue('deletedOrder', 'Admin', (call) => {
      if (isListCall(call, 'deletedOrder')) {
        return listPage(restored ? [] : [orderRow({ process_status: 'Deleted', version: 9 })]);
      }
      if (call.path === '/api/admin/change-order-status') {
        restored = true;
        return ok({ updated: ['ETA-200020076'], skipped: [] });
      }
      return undefined;
    });

    await userEvent.click(within(await rowOf('ETA-200020076')).getByLabelText('Select order ETA-200020076'));
    await userEvent.click(screen.getByRole('button', { name: 'Restore to New' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure want to restore orders to new orders.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));

    expect(await screen.findByText('1 order restored to New orders')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/change-order-status').map((call) => call.body)).toEqual([
      { orderId: ['ETA-200020076'], updatingStatus: 'New', versions: { 'ETA-200020076': 9 } },
    ]);
    expect(await screen.findByText('No data available in table')).toBeTruthy();
  });

  it("shows the server's message when a move is refused", async () => {
    renderQueue('myOrder', 'Admin', (call) => {
      if (isListCall(call, 'myOrder'))
        return listPage([orderRow({ assign_to: 'Asha Rao', process_status: 'Pending' })]);
      if (call.path === '/api/admin/assign-order-status')
        return { status: 409, body: { status: 0, message: 'Order was changed by someone else' } };
      return undefined;
    });

    await userEvent.click(within(await rowOf('ETA-200020076')).getByLabelText('Select order ETA-200020076'));
    await userEvent.click(screen.getByRole('button', { name: 'Move to New orders' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure want to move orders to new orders.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));

    expect(await screen.findByText('Order was changed by someone else')).toBeTruthy();
    expect(screen.getByText('ETA-200020076')).toBeTruthy();
  });

  it('says so, rather than showing an empty queue, when the list cannot be loaded', async () => {
    renderQueue('newOrder', 'Team', () => ({ status: 500, body: { status: 0, message: 'Database unavailable' } }));
    expect(await screen.findByText('The orders could not be loaded. Database unavailable')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Database unavailable');
    expect(screen.queryByText('No data available in table')).toBeNull();
  });

  it('ends the session on 401: message shown, stored user removed, back to the entry', async () => {
    const navigate = vi.fn();
    registerNavigate(navigate);
    renderQueue('newOrder', 'Team', () => ({ status: 401, body: { status: 401, message: 'Session expired' } }));

    expect(await screen.findByText('Session expired')).toBeTruthy();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
  });
});

describe('Pagination', () => {
  const thirtySeven = (call: { query: URLSearchParams }) => {
    const limit = Number(call.query.get('limit'));
    const page = Number(call.query.get('page'));
    const rows = Array.from({ length: Math.min(limit, 37 - (page - 1) * limit) }, (_, index) =>
      orderRow({ order_id: `ETA-3000000${String((page - 1) * limit + index).padStart(2, '0')}` }),
    );
    return listPage(rows, { total: 37, page, limit });
  };

  it("asks for limit = the queue's total when rows per page is All", async () => {
    const { api } = renderQueue('orderHistory', 'Admin', (call) =>
      isListCall(call, 'orderHistory') ? thirtySeven(call) : undefined,
    );
    expect(await screen.findByText('Showing 1 to 10 of 37 entries')).toBeTruthy();

    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), 'All');

    expect(await screen.findByText('Showing 1 to 37 of 37 entries')).toBeTruthy();
    expect(api.calls.at(-1)?.query.get('limit')).toBe('37');
    expect(screen.getByTestId('location').textContent).toBe('/?limit=all&page=1');
  });

  it('moves between pages and keeps page and size in the URL', async () => {
    const { api } = renderQueue(
      'orderHistory',
      'Admin',
      (call) => (isListCall(call, 'orderHistory') ? thirtySeven(call) : undefined),
      '/?page=2&limit=25',
    );
    expect(await screen.findByText('Showing 26 to 37 of 37 entries')).toBeTruthy();
    const [first] = api.callsTo('GET', '/api/admin/get-orders-list/orderHistory');
    expect(first?.query.get('page')).toBe('2');
    expect(first?.query.get('limit')).toBe('25');

    await userEvent.click(screen.getByRole('button', { name: 'Go to page 1' }));
    expect(await screen.findByText('Showing 1 to 25 of 37 entries')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/?page=1&limit=25');
  });

  it('moves a link past the end of the list to its last page', async () => {
    const { api } = renderQueue(
      'orderHistory',
      'Admin',
      (call) => (isListCall(call, 'orderHistory') ? thirtySeven(call) : undefined),
      '/?page=9',
    );
    expect(await screen.findByText('Showing 31 to 37 of 37 entries')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/?page=4');
    const listCalls = api.callsTo('GET', '/api/admin/get-orders-list/orderHistory');
    expect(listCalls.map((call) => call.query.get('page'))).toEqual(['9', '4']);
  });

  it('collapses long page ranges with an ellipsis', async () => {
    renderQueue('orderHistory', 'Admin', (call) =>
      isListCall(call, 'orderHistory') ? listPage([orderRow()], { total: 200, page: 1, limit: 10 }) : undefined,
    );
    expect(await screen.findByRole('button', { name: 'Go to page 20' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Go to page 10' })).toBeNull();
    expect(screen.getByText('…')).toBeTruthy();
  });
});

describe('A queue inside the console', () => {
  beforeAll(preloadRoutes);

  /** The whole console at a queue's route, with the folder counts the layout loads. */
  function renderConsoleQueue(path: string, handler: StubHandler) {
    signIn('Asha Rao', 'Team');
    const api = stubApi((call) => (isFolderCountCall(call) ? ok(FOLDER_COUNTS) : handler(call)));
    const router = renderRoutes(path);
    const listCalls = () => api.calls.filter((call) => isListCall(call, 'newOrder')).length;
    const countCalls = () => api.calls.filter(isFolderCountCall).length;
    return { api, router, listCalls, countCalls };
  }

  const threeNewOrders = [
    orderRow({ order_id: 'ETA-100000001', version: 1 }),
    orderRow({ order_id: 'ETA-100000002', version: 1 }),
    orderRow({ order_id: 'ETA-100000003', version: 1 }),
  ];

  async function assignAll() {
    await screen.findByText('ETA-100000001');
    await userEvent.click(screen.getByLabelText('Select all orders on this page'));
    await userEvent.click(screen.getByRole('button', { name: 'Assign to me' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
  }

  it('Refresh asks again for the list and for the counts', async () => {
    const { listCalls, countCalls } = renderConsoleQueue('/admin/recent-order', (call) =>
      isListCall(call, 'newOrder') ? listPage(threeNewOrders) : undefined,
    );
    await screen.findByText('ETA-100000001');
    await waitFor(() => expect(countCalls()).toBe(1));
    expect(listCalls()).toBe(1);

    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));

    await waitFor(() => expect(listCalls()).toBe(2));
    await waitFor(() => expect(countCalls()).toBe(2));
  });

  it('names an order someone else changed meanwhile, gives other skips their own reason, and reloads', async () => {
    let moved = false;
    const { api, listCalls, countCalls } = renderConsoleQueue('/admin/recent-order', (call) => {
      if (isListCall(call, 'newOrder')) {
        // After the move: ETA-1 is gone, ETA-2 shows its new version, ETA-3 is still there.
        return listPage(
          moved ? [orderRow({ order_id: 'ETA-100000002', version: 2 }), threeNewOrders[2]!] : threeNewOrders,
        );
      }
      if (call.path === '/api/admin/assign-order-status') {
        moved = true;
        return ok({
          updated: ['ETA-100000001'],
          skipped: [
            { orderId: 'ETA-100000002', code: 'STALE_VERSION', reason: 'was changed by someone else meanwhile' },
            { orderId: 'ETA-100000003', code: 'NOT_PAID', reason: 'is not paid (payment Pending)' },
          ],
        });
      }
      return undefined;
    });
    await waitFor(() => expect(countCalls()).toBe(1));

    await assignAll();

    expect(
      await screen.findByText('ETA-100000002 was changed by someone else; the list has been reloaded.'),
    ).toBeTruthy();
    expect(screen.getByText('Not changed: ETA-100000003 is not paid (payment Pending).')).toBeTruthy();
    expect(screen.getByText('Order has been assigned successfully')).toBeTruthy();
    expect(screen.queryByText(/ETA-100000003 was changed/)).toBeNull();
    await waitFor(() => expect(listCalls()).toBe(2));
    await waitFor(() => expect(countCalls()).toBe(2));
    await waitFor(() => expect(screen.queryByLabelText('Select order ETA-100000001')).toBeNull());
    // Nothing is sent again on the person's behalf: they decide on the reloaded rows.
    expect(api.callsTo('PUT', '/api/admin/assign-order-status')).toHaveLength(1);
    expect(api.callsTo('PUT', '/api/admin/assign-order-status')[0]?.body).toMatchObject({
      versions: { 'ETA-100000001': 1, 'ETA-100000002': 1, 'ETA-100000003': 1 },
    });
  });

  it('names the orders of a refused move (409) in its own words, once, and reloads the list and the counts', async () => {
    const { listCalls, countCalls } = renderConsoleQueue('/admin/recent-order', (call) => {
      if (isListCall(call, 'newOrder')) return listPage(threeNewOrders);
      if (call.path === '/api/admin/assign-order-status') {
        return {
          status: 409,
          body: {
            status: 0,
            code: 'STALE_VERSION',
            message: 'Nothing was changed: order ETA-100000001 was changed by someone else meanwhile (and 2 more).',
            data: {
              updated: [],
              skipped: [
                { orderId: 'ETA-100000001', code: 'STALE_VERSION', reason: 'was changed by someone else meanwhile' },
                { orderId: 'ETA-100000002', code: 'STALE_VERSION', reason: 'was changed by someone else meanwhile' },
                { orderId: 'ETA-100000003', code: 'ORDER_HELD', reason: 'is held by Ben Ode' },
              ],
            },
          },
        };
      }
      return undefined;
    });
    await waitFor(() => expect(countCalls()).toBe(1));

    await assignAll();

    expect(
      await screen.findByText(
        'ETA-100000001 and ETA-100000002 were changed by someone else; the list has been reloaded.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Not changed: ETA-100000003 is held by Ben Ode.')).toBeTruthy();
    expect(screen.queryByText(/^Nothing was changed/)).toBeNull();
    expect(screen.queryByText('Order has been assigned successfully')).toBeNull();
    await waitFor(() => expect(listCalls()).toBe(2));
    await waitFor(() => expect(countCalls()).toBe(2));
    expect(screen.getByLabelText('Select order ETA-100000001')).toBeTruthy();
  });

  describe('a tap on a row', { timeout: 20_000 }, () => {
    /** New Orders with three orders, each of which opens. */
    const renderThree = () =>
      renderConsoleQueue('/admin/recent-order?page=1&limit=10', (call) => {
        if (isListCall(call, 'newOrder')) return listPage(threeNewOrders);
        const opened = threeNewOrders.find((row) => isDetailCall(call, row.order_id));
        return opened ? detailReply(orderDetails({ order_id: opened.order_id })) : undefined;
      });
    const cellOf = async (orderId: string, text: string) =>
      within((await screen.findByText(orderId)).closest('tr')!).getByText(text);

    it('opens its order, as View does, with the way back to the list (View is off-screen on a phone)', async () => {
      const { router } = renderThree();
      await userEvent.click(await cellOf('ETA-100000002', 'Maria Lopez'));

      expect(await screen.findByRole('heading', { level: 1, name: 'ETA-100000002' })).toBeTruthy();
      expect(router.state.location.pathname).toBe(`/admin/view-order/${encodeOrderId('ETA-100000002')}`);
      await userEvent.click(screen.getByRole('button', { name: 'Back to New Orders' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'New Orders' })).toBeTruthy();
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        '/admin/recent-order?page=1&limit=10',
      );
    });

    it('leaves the checkbox, a selection of text and a modified click to what they do', async () => {
      const { router } = renderThree();
      const list = router.state.location.pathname;
      const name = await cellOf('ETA-100000001', 'Maria Lopez');

      // Ticking a row selects it (a tap beside the box too) and stays on the list.
      await userEvent.click(screen.getByLabelText('Select order ETA-100000001'));
      expect((screen.getByLabelText('Select order ETA-100000001') as HTMLInputElement).checked).toBe(true);
      await userEvent.click(screen.getByLabelText('Select order ETA-100000001').closest('td')!);
      expect(router.state.location.pathname).toBe(list);
      // Selecting the name to copy it (pressed, dragged across it, let go): that click opens nothing.
      await userEvent.pointer([
        { keys: '[MouseLeft>]', target: name, offset: 0 },
        { offset: 5 },
        { keys: '[/MouseLeft]' },
      ]);
      expect(window.getSelection()!.toString()).toBe('Maria');
      expect(router.state.location.pathname).toBe(list);
      // Ctrl+click is for a new tab, which View's link gives.
      const user = userEvent.setup();
      await user.keyboard('{Control>}');
      await user.click(name);
      await user.keyboard('{/Control}');

      expect(router.state.location.pathname).toBe(list);
      expect(screen.getByRole('heading', { level: 1, name: 'New Orders' })).toBeTruthy();
    });

    it('keeps View as the way in from the keyboard', async () => {
      const { router } = renderThree();
      const view = within((await screen.findByText('ETA-100000003')).closest('tr')!).getByRole('link', {
        name: 'View',
      });
      view.focus();
      await userEvent.keyboard('{Enter}');
      expect(await screen.findByRole('heading', { level: 1, name: 'ETA-100000003' })).toBeTruthy();
      expect(router.state.location.pathname).toBe(`/admin/view-order/${encodeOrderId('ETA-100000003')}`);
    });
  });
});
