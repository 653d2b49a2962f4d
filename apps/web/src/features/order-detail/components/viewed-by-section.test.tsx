// "Viewed by" on the order detail page (issue 24): Admin and Manager see who opened the order's personal data — when,
// what and from where — newest first, with Show more for older reads; other roles see no section and ask for nothing.
// The reader's own opening leads the list at once, until the server lists it (issue 33).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessRecordRow, StaffType } from '@eta/contracts';
import { encodeOrderId } from '../../../lib/order-id';
import { ok, stubApi, type RecordedCall } from '../../../test/api-stub';
import { DETAIL_ORDER_ID, detailReply, isDetailCall, isDisputesCall, orderDetails } from '../../../test/order-details';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);
// The page opens the order "now": 20/11/2026 11:00:05 UTC, after every read the stubs list.
const NOW = '2026-11-20T11:00:05.000Z';
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(NOW));
});
afterEach(() => {
  vi.useRealTimers();
});
/** The reader's own opening as the list shows it before the server has it (test/session signs in staff id 1). */
const OWN_OPENING = [
  '20/11/2026 11:00:05 UTC',
  'Rajesh Menon',
  'Order detail',
  'This browser, now (on the record within a second)',
];

const READS_PATH = `/api/admin/orders/${DETAIL_ORDER_ID}/access-records`;
const isReadsCall = (call: RecordedCall) => call.method === 'GET' && call.path === READS_PATH;

const read = (id: number, extra: Partial<AccessRecordRow> = {}): AccessRecordRow => ({
  id,
  at: `2026-11-20T10:${String(60 - id).padStart(2, '0')}:00.000Z`,
  staff_id: 7,
  staff_name: 'Theo Team',
  order_id: DETAIL_ORDER_ID,
  kind: 'detail',
  detail: null,
  ip: '198.51.100.7',
  browser: 'Chrome 131',
  os: 'Windows 10',
  device_type: 'desktop',
  ...extra,
});

function renderOrder(role: StaffType, reads: (call: RecordedCall) => { rows: AccessRecordRow[]; next: string | null }) {
  signIn('Rajesh Menon', role);
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    if (isDisputesCall(call)) return ok([]);
    if (isDetailCall(call)) return detailReply(orderDetails());
    if (isReadsCall(call)) return ok(reads(call));
    return undefined;
  });
  renderRoutes(`/admin/view-order/${encodeOrderId(DETAIL_ORDER_ID)}`);
  return api;
}

const viewedBy = () => screen.findByRole('table', { name: 'Viewed by' });
const rowTexts = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .queryAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('Viewed by', { timeout: 20_000 }, () => {
  it('shows who opened what, when and from where, newest first, and older reads on Show more', async () => {
    const api = renderOrder('Manager', (call) =>
      call.query.get('cursor') === 'c2'
        ? { rows: [read(3, { staff_name: 'Asha Rao', kind: 'document', detail: 'Signature image' })], next: null }
        : {
            rows: [
              read(1, { staff_name: 'Grace Whitfield', kind: 'defence-pack', detail: 'Defence Pack 1 (PDF)' }),
              read(2, { ip: '203.0.113.9', browser: 'Mobile Safari 18', os: 'iOS 18.1' }),
            ],
            next: 'c2',
          },
    );
    const table = await viewedBy();
    await within(table).findByText('Grace Whitfield');
    expect(rowTexts(table)).toEqual([
      OWN_OPENING,
      [
        '20/11/2026 10:59:00 UTC',
        'Grace Whitfield',
        'Defence pack: Defence Pack 1 (PDF)',
        '198.51.100.7 (Chrome 131 on Windows 10)',
      ],
      ['20/11/2026 10:58:00 UTC', 'Theo Team', 'Order detail', '203.0.113.9 (Mobile Safari 18 on iOS 18.1)'],
      ['Show more'],
    ]);
    expect(api.callsTo('GET', READS_PATH)[0]?.query.get('limit')).toBe('10');

    await userEvent.click(within(table).getByRole('button', { name: 'Show more' }));
    await within(table).findByText('Asha Rao');
    expect(rowTexts(table).map((cells) => cells[1])).toEqual([
      'Rajesh Menon',
      'Grace Whitfield',
      'Theo Team',
      'Asha Rao',
    ]);
    expect(rowTexts(table)[3]?.[2]).toBe('Document: Signature image');
    expect(within(table).queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(api.callsTo('GET', READS_PATH).at(-1)?.query.get('cursor')).toBe('c2');
  });

  it("shows the reader's own opening at once on an order nobody has opened before", async () => {
    renderOrder('Admin', () => ({ rows: [], next: null }));
    const table = await viewedBy();
    await within(table).findByText('Rajesh Menon');
    expect(rowTexts(table)).toEqual([OWN_OPENING]);
    expect(within(table).queryByText(/Nobody has opened/)).toBeNull();
  });

  it("shows the reader's opening once when the server already lists it, with where it came from", async () => {
    renderOrder('Manager', () => ({
      rows: [
        read(1, { id: 9, staff_id: 1, staff_name: 'Rajesh Menon', at: '2026-11-20T11:00:04.950Z' }),
        read(2, { staff_name: 'Grace Whitfield' }),
      ],
      next: null,
    }));
    const table = await viewedBy();
    await within(table).findByText('Grace Whitfield');
    expect(rowTexts(table)).toEqual([
      ['20/11/2026 11:00:04 UTC', 'Rajesh Menon', 'Order detail', '198.51.100.7 (Chrome 131 on Windows 10)'],
      ['20/11/2026 10:58:00 UTC', 'Grace Whitfield', 'Order detail', '198.51.100.7 (Chrome 131 on Windows 10)'],
    ]);
  });

  it("puts this opening above the reader's earlier one, which is not this opening", async () => {
    renderOrder('Manager', () => ({
      rows: [read(1, { staff_id: 1, staff_name: 'Rajesh Menon', at: '2026-11-19T09:30:00.000Z' })],
      next: null,
    }));
    const table = await viewedBy();
    await within(table).findByText('19/11/2026 09:30:00 UTC');
    expect(rowTexts(table).map((cells) => cells[0])).toEqual(['20/11/2026 11:00:05 UTC', '19/11/2026 09:30:00 UTC']);
    expect(rowTexts(table)[0]).toEqual(OWN_OPENING);
  });

  it.each(['Team', 'Telecaller', 'Night Staff'] as const)('is not shown to %s, who asks for nothing', async (role) => {
    const api = renderOrder(role, () => ({ rows: [read(1)], next: null }));
    await screen.findByRole('heading', { level: 1, name: DETAIL_ORDER_ID });
    await waitFor(() => expect(screen.getByRole('region', { name: 'Activity' })).toBeTruthy());
    expect(screen.queryByRole('region', { name: 'Viewed by' })).toBeNull();
    expect(api.calls.filter(isReadsCall)).toEqual([]);
  });
});
