// Activity's reads of personal data (issue 24): every read newest first, filtered by member, order, kind and dates,
// paged over the server's cursor, with an empty state; and the unusual-reading alerts an Admin acknowledges.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccessAlert, AccessRecordRow } from '@eta/contracts';
import { ok, stubApi } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);

const read = (id: number, extra: Partial<AccessRecordRow> = {}): AccessRecordRow => ({
  id,
  at: `2026-11-20T10:00:${String(60 - id).padStart(2, '0')}.000Z`,
  staff_id: 7,
  staff_name: 'Theo Team',
  order_id: 'ETA-200020076',
  kind: 'detail',
  detail: null,
  ip: '198.51.100.7',
  browser: 'Chrome 131',
  os: 'Windows 10',
  device_type: 'desktop',
  ...extra,
});

const alert = (id: number, extra: Partial<AccessAlert> = {}): AccessAlert => ({
  id,
  staff_id: 7,
  staff_name: 'Theo Team',
  window_start: '2026-11-20T09:05:00.000Z',
  window_end: '2026-11-20T09:58:30.000Z',
  order_count: 214,
  raised_at: '2026-11-20T09:58:31.000Z',
  acknowledged_at: null,
  acknowledged_by: null,
  ...extra,
});

describe('Activity: reads', { timeout: 20_000 }, () => {
  it('lists every read, filters them, pages over the cursor and says when none match', async () => {
    signIn('Grace Whitfield', 'Admin');
    const api = stubApi((call) => {
      if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
      if (call.path === '/api/admin/activity') return ok({ rows: [], next: null });
      if (call.path === '/api/admin/activity-people') return ok([{ id: 7, name: 'Theo Team', active: true }]);
      if (call.path === '/api/admin/access-alerts') return ok({ rows: [], total: 0, open: 0 });
      if (call.path === '/api/admin/access-records') {
        if (call.query.get('kind') === 'export') return ok({ rows: [], next: null });
        if (call.query.get('cursor') === 'c2') {
          return ok({ rows: [read(3, { kind: 'document', detail: 'Signature image' })], next: null });
        }
        return ok({
          rows: [
            read(1, { kind: 'export', order_id: null, detail: 'Activity CSV (no filter): 12 rows' }),
            read(2, { ip: '203.0.113.9', browser: 'Mobile Safari 18', os: 'iOS 18.1', device_type: 'mobile' }),
          ],
          next: 'c2',
        });
      }
      return undefined;
    });
    renderRoutes('/admin/activity');
    expect(await screen.findByText('No unusual reading.')).toBeTruthy();
    // The reads are asked for only once their tab is open.
    expect(api.callsTo('GET', '/api/admin/access-records')).toEqual([]);
    await userEvent.click(await screen.findByRole('tab', { name: 'Reads' }));

    const table = await screen.findByRole('table', { name: 'Reads' });
    await within(table).findByText('Export: Activity CSV (no filter): 12 rows');
    expect(within(table).getByText('Order detail')).toBeTruthy();
    expect(within(table).getByText('203.0.113.9 (Mobile Safari 18 on iOS 18.1, mobile)')).toBeTruthy();
    expect(within(table).getByText('20/11/2026 10:00:59')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await within(table).findByText('Document: Signature image')).toBeTruthy();
    expect(api.callsTo('GET', '/api/admin/access-records').at(-1)?.query.get('cursor')).toBe('c2');
    await userEvent.click(screen.getByRole('button', { name: 'Newer' }));
    expect(await within(table).findByText('Order detail')).toBeTruthy();

    await userEvent.click(screen.getByRole('combobox', { name: 'Member' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Theo Team' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Order ID' }), 'ETA-200020076');
    await userEvent.click(screen.getByRole('combobox', { name: 'Kind' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Export' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-30' } });
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(Object.fromEntries(api.callsTo('GET', '/api/admin/access-records').at(-1)!.query)).toEqual({
        staffId: '7',
        orderId: 'ETA-200020076',
        kind: 'export',
        fromDate: '2026-11-01',
        toDate: '2026-11-30',
        limit: '50',
      }),
    );
    expect(await within(table).findByText('No reads on record')).toBeTruthy();
  });

  it('shows the unusual-reading alerts and lets an Admin acknowledge one', async () => {
    signIn('Grace Whitfield', 'Admin');
    let acknowledged = false;
    const api = stubApi((call) => {
      if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
      if (call.path === '/api/admin/activity') return ok({ rows: [], next: null });
      if (call.path === '/api/admin/activity-people') return ok([]);
      if (call.path === '/api/admin/access-alerts') {
        const earlier = alert(1, {
          staff_name: 'Asha Rao',
          order_count: 230,
          acknowledged_at: '2026-11-19T08:00:00.000Z',
          acknowledged_by: 'Grace Whitfield',
        });
        const open = acknowledged
          ? alert(2, { acknowledged_at: '2026-11-20T11:00:00.000Z', acknowledged_by: 'Grace Whitfield' })
          : alert(2);
        return ok({ rows: [open, earlier], total: 2, open: acknowledged ? 0 : 1 });
      }
      if (call.method === 'POST' && call.path === '/api/admin/access-alerts/2/acknowledge') {
        acknowledged = true;
        return ok(
          alert(2, { acknowledged_at: '2026-11-20T11:00:00.000Z' }),
          'The alert about Theo Team is acknowledged.',
        );
      }
      return undefined;
    });
    renderRoutes('/admin/activity');
    const panel = await screen.findByRole('region', { name: /Unusual reading/ });
    expect(
      await within(panel).findByText(
        'Theo Team opened 214 orders between 20/11/2026 09:05:00 and 20/11/2026 09:58:30 UTC. Raised 20/11/2026 09:58:31 UTC.',
      ),
    ).toBeTruthy();
    expect(within(panel).getByRole('heading', { name: 'Unusual reading (1 open)' })).toBeTruthy();
    expect(
      within(panel).getByText(
        'Asha Rao opened 230 orders between 20/11/2026 09:05:00 and 20/11/2026 09:58:30 UTC. Acknowledged by Grace Whitfield on 19/11/2026 08:00:00 UTC.',
      ),
    ).toBeTruthy();
    // Only the open alert can be acknowledged.
    expect(within(panel).getAllByRole('button', { name: /Acknowledge/ })).toHaveLength(1);

    await userEvent.click(within(panel).getByRole('button', { name: 'Acknowledge the alert about Theo Team' }));
    expect(await screen.findByText('The alert about Theo Team is acknowledged.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/access-alerts/2/acknowledge')).toHaveLength(1);
    expect(await within(panel).findByRole('heading', { name: 'Unusual reading' })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: /Acknowledge/ })).toBeNull();
  });
});
