// Activity (Admin): newest first, the filters sent as typed, Older/Newer over the server's cursor.
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
    await within(table).findByText('security.login-failed');
    expect(within(table).getByText('Not signed in')).toBeTruthy();
    expect(within(table).getByText('{"process_status":"New"} → {"process_status":"Completed"}')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await within(table).findByText('staff.login')).toBeTruthy();
    expect(api.callsTo('GET', '/api/admin/activity').at(-1)?.query.get('cursor')).toBe('c2');
    await userEvent.click(screen.getByRole('button', { name: 'Newer' }));
    expect(await within(table).findByText('security.login-failed')).toBeTruthy();

    await userEvent.click(screen.getByRole('combobox', { name: 'Person' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Theo Team (deleted)' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Order ID' }), 'ETA-200020076');
    await userEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    await userEvent.click(await screen.findByRole('option', { name: 'security.lockout' }));
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

  it('is for Admin only', async () => {
    signIn('Rajesh Menon', 'Manager');
    const api = stubApi((call) => (isFolderCountCall(call) ? ok(FOLDER_COUNTS) : undefined));
    renderRoutes('/admin/activity');
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    expect(api.calls.filter((c) => c.path.includes('activity'))).toEqual([]);
  });
});
