import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffType } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../test/api-stub';
import { FOLDER_COUNTS as COUNTS, isFolderCountCall, isListCall, listPage, orderRow } from '../test/orders';
import { preloadRoutes, renderRoutes } from '../test/render';
import { makeToken, signIn } from '../test/session';

const staffServer =
  (extra: StubHandler = () => undefined): StubHandler =>
  (call) => {
    if (isFolderCountCall(call)) return ok(COUNTS);
    return extra(call);
  };

const signedInAs = (type: StaffType) => signIn('Asha Rao', type);

beforeAll(preloadRoutes);

describe('Entry and routing', () => {
  it("shows sign-in at '/' when signed out", async () => {
    stubApi(() => undefined);
    renderRoutes('/');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(document.title).toContain('Canada eTA');
  });

  it("sends a signed-in user from '/' to the dashboard with the five tiles", async () => {
    signedInAs('Team');
    const api = stubApi(staffServer());
    const router = renderRoutes('/');

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    const tile = await screen.findByTestId('tile-newOrdersCount');
    await waitFor(() => expect(tile.textContent).toBe(`${COUNTS.newOrdersCount}New Orders`));
    expect(within(tile).getByRole('link').getAttribute('href')).toBe('/admin/recent-order');
    expect(within(screen.getByTestId('tile-priorityOrdersCount')).getByRole('link').getAttribute('href')).toBe(
      '/admin/priority-order',
    );
    expect(screen.getByText('Welcome Asha Rao')).toBeTruthy();
    expect(api.callsTo('GET', '/api/admin/get-folder-count')[0]?.query.get('userName')).toBe('Asha Rao');
  });

  it('shows sign-in on an /admin page while signed out and returns to it after login', async () => {
    const api = stubApi(
      staffServer((call) => {
        if (call.path === '/api/admin/admin-login') {
          return {
            body: {
              status: 1,
              message: 'Welcome back',
              jwtToken: makeToken('Asha Rao', 'Admin'),
              data: { id: 1, name: 'Asha Rao', email: 'a@example.com', type: 'Admin' },
            },
          };
        }
        if (isListCall(call, 'refundOrder')) return listPage([orderRow({ process_status: 'Refunds' })]);
        return undefined;
      }),
    );
    const router = renderRoutes('/admin/refund-order?page=1');

    await userEvent.type(await screen.findByLabelText('Email ID'), 'a@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { name: 'Refund Orders' })).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/admin/refund-order?page=1');
    expect(await screen.findByText('ETA-200020076')).toBeTruthy();
    expect(api.callsTo('GET', '/api/admin/get-orders-list/refundOrder')).toHaveLength(1);
  });

  it('reloads the folder counts on every route change', async () => {
    signedInAs('Team');
    const api = stubApi(
      staffServer((call) => (call.path.startsWith('/api/admin/get-orders-list/') ? listPage([]) : undefined)),
    );
    const router = renderRoutes('/admin');
    await screen.findByTestId('tile-myOrdersCount');
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/get-folder-count')).toHaveLength(1));

    await act(() => router.navigate('/admin/recent-order'));
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/get-folder-count')).toHaveLength(2));
    await act(() => router.navigate('/admin/called'));
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/get-folder-count')).toHaveLength(3));
  });

  it('logs out from the header menu: stored user removed, back at sign-in', async () => {
    signedInAs('Manager');
    stubApi(staffServer());
    const router = renderRoutes('/admin');

    await userEvent.click(await screen.findByRole('button', { name: 'Welcome Asha Rao' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it.each([
    [
      'the header menu',
      async () => {
        await userEvent.click(await screen.findByRole('button', { name: 'Welcome Asha Rao' }));
        await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
      },
    ],
    [
      'the side menu',
      async () => {
        const menu = await screen.findByRole('navigation', { name: 'Main menu' });
        await userEvent.click(within(menu).getByRole('button', { name: 'Logout' }));
      },
    ],
  ])('revokes the session on the server when logging out from %s', async (_where, clickLogout) => {
    const token = signedInAs('Team');
    // What the browser still had stored at the moment the logout call left.
    let storedWhenSent: string | null = 'not sent';
    const api = stubApi(
      staffServer((call) => {
        if (call.path !== '/api/admin/logout') return undefined;
        storedWhenSent = window.localStorage.getItem('user');
        return ok(null, 'Logged out');
      }),
    );
    const router = renderRoutes('/admin');

    await clickLogout();

    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    const logoutCalls = api.callsTo('POST', '/api/admin/logout');
    expect(logoutCalls).toHaveLength(1);
    expect(logoutCalls[0]?.headers.Authorization).toBe(token);
    expect(storedWhenSent).not.toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(router.state.location.pathname).toBe('/');
  });

  it('keeps a Telecaller out of Order History even by URL, without asking for the list', async () => {
    signedInAs('Telecaller');
    const api = stubApi(staffServer((call) => (isListCall(call, 'orderHistory') ? listPage([orderRow()]) : undefined)));
    renderRoutes('/admin/order-history');

    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Order History' })).toBeTruthy();
    // The layout around the page has loaded its counts by now; the list was never asked for.
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/get-folder-count')).toHaveLength(1));
    expect(api.calls.filter((call) => call.path.includes('order'))).toEqual([]);
    expect(screen.queryByText('ETA-200020076')).toBeNull();
  });

  it('keeps a Team member out of Gateway Setting and Manage Team even by URL, without asking for their data', async () => {
    signedInAs('Team');
    const api = stubApi(staffServer());
    renderRoutes('/admin/gateway-setting');
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Change Gateway' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeTruthy();
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/get-folder-count')).toHaveLength(1));
    expect(api.calls.filter((call) => /gateway|team/.test(call.path))).toEqual([]);
  });

  it('keeps Night Staff out of Change Password even by URL', async () => {
    signedInAs('Night Staff');
    stubApi(staffServer());
    renderRoutes('/admin/change-password');
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    expect(screen.queryByLabelText('Enter New Password')).toBeNull();
  });

  it('shows a not-found page for unknown routes', async () => {
    stubApi(() => undefined);
    renderRoutes('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});
