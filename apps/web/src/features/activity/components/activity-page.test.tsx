// Activity (Admin): newest first, in words (issue 33) with each raw record under Details, the filters sent as typed,
// Older/Newer over the server's cursor.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityRow } from '@eta/contracts';
import { ok, stubApi } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);

const row = (id: number, action: string, extra: Partial<ActivityRow> = {}): ActivityRow => ({
  id,
  at: `2026-11-20T10:00:${String(60 - id).padStart(2, '0')}.000Z`,
  actor_id: null,
  actor_name: null,
  action,
  order_id: null,
  target: null,
  before: null,
  after: null,
  ip: '203.0.113.9',
  ...extra,
});

describe('Activity', { timeout: 20_000 }, () => {
  it('lists the trail with security events, filters it, and pages over the cursor', async () => {
    signIn('Grace Whitfield', 'Admin');
    const api = stubApi((call) => {
      if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
      if (call.path === '/api/admin/activity-people') return ok([{ id: 7, name: 'Theo Team', active: false }]);
      if (call.path === '/api/admin/activity') {
        if (call.query.get('cursor') === 'c2') return ok({ rows: [row(3, 'staff.login')], next: null });
        return ok({
          rows: [
            row(1, 'security.login-failed', { target: 'intruder@evil.test' }),
            row(2, 'order.change-status', {
              actor_id: 7,
              actor_name: 'Theo Team',
              order_id: 'ETA-200020076',
              before: { process_status: 'New' },
              after: { process_status: 'Completed' },
            }),
          ],
          next: 'c2',
        });
      }
      return undefined;
    });
    renderRoutes('/admin/activity');
    const table = await screen.findByRole('table', { name: 'Activity' });
    await within(table).findByText('Sign-in failed');
    expect(within(table).getByText('Not signed in')).toBeTruthy();
    expect(within(table).getByText('Status: New → Completed')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await within(table).findByText('Signed in')).toBeTruthy();
    expect(api.callsTo('GET', '/api/admin/activity').at(-1)?.query.get('cursor')).toBe('c2');
    await userEvent.click(screen.getByRole('button', { name: 'Newer' }));
    expect(await within(table).findByText('Sign-in failed')).toBeTruthy();

    await userEvent.click(screen.getByRole('combobox', { name: 'Person' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Theo Team (deleted)' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Order ID' }), 'ETA-200020076');
    await userEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Account locked after failed sign-ins' }));
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(Object.fromEntries(api.callsTo('GET', '/api/admin/activity').at(-1)!.query)).toEqual({
        actorId: '7',
        orderId: 'ETA-200020076',
        action: 'security.lockout',
        limit: '50',
      }),
    );
  });

  it('says what happened in words, with the raw record one click away', async () => {
    signIn('Grace Whitfield', 'Admin');
    stubApi((call) => {
      if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
      if (call.path === '/api/admin/activity-people') return ok([]);
      if (call.path === '/api/admin/activity') {
        return ok({
          rows: [
            row(1, 'portal.download', {
              actor_name: 'Customer',
              order_id: 'ETA-200020076',
              target: 'ETA-200020076',
              after: { location: 'United States', browser: 'Mobile Safari 17' },
            }),
            row(2, 'order.intake', {
              actor_name: 'Landing site default',
              order_id: 'ETA-200020076',
              target: 'ETA-200020076',
              after: { landing_site: 'default', payment_status: 'Success' },
            }),
          ],
          next: null,
        });
      }
      return undefined;
    });
    renderRoutes('/admin/activity');
    const table = await screen.findByRole('table', { name: 'Activity' });
    const download = (await within(table).findByText('Approved eTA downloaded from the portal')).closest('tr')!;
    const intake = within(table).getByText('Order received').closest('tr')!;
    expect(within(intake).getByText('Payment: → Success')).toBeTruthy();
    // No internal name or JSON on screen until asked for.
    expect(within(table).queryByText(/portal\.download|order\.intake|\{/)).toBeNull();
    expect(screen.queryByRole('region', { name: 'Recorded as' })).toBeNull();

    const details = within(download).getByRole('button', { name: 'Details' });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(details);
    const record = within(table).getByLabelText('Recorded as');
    expect(JSON.parse(record.textContent!)).toEqual({
      action: 'portal.download',
      target: 'ETA-200020076',
      before: null,
      after: { location: 'United States', browser: 'Mobile Safari 17' },
    });
    expect(within(download).getByRole('button', { name: 'Hide details' }).getAttribute('aria-expanded')).toBe('true');
    // One record open at a time; Hide details closes it.
    await userEvent.click(within(intake).getByRole('button', { name: 'Details' }));
    expect(JSON.parse(within(table).getByLabelText('Recorded as').textContent!)).toMatchObject({
      action: 'order.intake',
    });
    await userEvent.click(within(intake).getByRole('button', { name: 'Hide details' }));
    expect(within(table).queryByLabelText('Recorded as')).toBeNull();
  });

  it("opens on an order's trail from the order's link", async () => {
    signIn('Grace Whitfield', 'Admin');
    const api = stubApi((call) => {
      if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
      if (call.path === '/api/admin/activity-people') return ok([]);
      if (call.path === '/api/admin/activity') return ok({ rows: [row(1, 'order.assign')], next: null });
      return undefined;
    });
    renderRoutes('/admin/activity?orderId=ETA-200020076');
    await within(await screen.findByRole('table', { name: 'Activity' })).findByText('Assigned');
    expect(api.callsTo('GET', '/api/admin/activity')[0]?.query.get('orderId')).toBe('ETA-200020076');
    expect((screen.getByRole('textbox', { name: 'Order ID' }) as HTMLInputElement).value).toBe('ETA-200020076');
  });

  it('is for Admin only', async () => {
    signIn('Rajesh Menon', 'Manager');
    const api = stubApi((call) => (isFolderCountCall(call) ? ok(FOLDER_COUNTS) : undefined));
    renderRoutes('/admin/activity');
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    expect(api.calls.filter((c) => c.path.includes('activity'))).toEqual([]);
  });
});
