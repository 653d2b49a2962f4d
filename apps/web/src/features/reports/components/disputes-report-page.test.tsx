// The Disputes report (issue 21): rows by month, landing site, gateway and reason with their totals, a chart of the
// disputes opened per month, the date filter (a range the wrong way round is refused before asking), the CSV of the
// same range, an empty state, and who may open it.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DisputesReportRow, StaffType } from '@eta/contracts';
import { ok, stubApi } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);
afterEach(() => vi.restoreAllMocks());

const REPORT = '/api/admin/reports/disputes';

const row = (overrides: Partial<DisputesReportRow>): DisputesReportRow => ({
  month: '2026-03',
  landing_site: 'default',
  gateway_name: 'Stripe',
  reason: 'fraudulent',
  opened: 0,
  won: 0,
  lost: 0,
  open: 0,
  win_rate: null,
  ...overrides,
});

const ROWS: DisputesReportRow[] = [
  row({ month: '2026-02', reason: 'product_not_received', opened: 4, won: 3, lost: 1, win_rate: 0.75 }),
  row({ month: '2026-03', opened: 6, won: 1, lost: 2, open: 3, win_rate: 0.333 }),
  row({ month: '2026-03', landing_site: 'eta-canada-online', gateway_name: 'PayPal', opened: 2, open: 2 }),
];

function renderReport(role: StaffType = 'Manager', rows: DisputesReportRow[] = ROWS) {
  signIn('Rajesh Menon', role);
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    if (call.path === REPORT) {
      const sum = (key: 'opened' | 'won' | 'lost' | 'open') => rows.reduce((n, r) => n + r[key], 0);
      const decided = sum('won') + sum('lost');
      return ok({
        rows,
        totals: {
          opened: sum('opened'),
          won: sum('won'),
          lost: sum('lost'),
          open: sum('open'),
          win_rate: decided === 0 ? null : sum('won') / decided,
        },
      });
    }
    if (call.path === `${REPORT}/csv`) return { body: null, raw: { content: 'Month\r\n', contentType: 'text/csv' } };
    return undefined;
  });
  renderRoutes('/admin/disputes-report');
  return api;
}

const cellsOf = (tableRow: HTMLElement) => [...tableRow.querySelectorAll('td')].map((cell) => cell.textContent);

describe('Disputes report', { timeout: 20_000 }, () => {
  it('shows each row with its win rate, the totals and a chart of the disputes opened per month', async () => {
    renderReport();
    const table = await screen.findByRole('table', { name: 'Disputes Report' }, { timeout: 5000 });
    await within(table).findByText('Product not received');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Month', 'Landing site', 'Gateway', 'Reason', 'Opened', 'Won', 'Lost', 'Open', 'Win rate']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map(cellsOf)).toEqual([
      ['Feb 2026', 'default', 'Stripe', 'Product not received', '4', '3', '1', '0', '75%'],
      ['Mar 2026', 'default', 'Stripe', 'Fraudulent', '6', '1', '2', '3', '33%'],
      ['Mar 2026', 'eta-canada-online', 'PayPal', 'Fraudulent', '2', '0', '0', '2', '—'],
      ['Total', '12', '4', '3', '5', '57%'],
    ]);

    const chart = screen.getByRole('figure', { name: 'Disputes opened by month' });
    expect(
      within(chart)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Feb 20264', 'Mar 20268']);
  });

  it('asks for the dates on Submit, refuses a range the wrong way round, and downloads the CSV of the same range', async () => {
    const api = renderReport();
    await screen.findByText('Product not received', {}, { timeout: 5000 });
    expect(api.callsTo('POST', REPORT).map((call) => call.body)).toEqual([{}]);

    await userEvent.type(screen.getByLabelText('From'), '2026-03-31');
    await userEvent.type(screen.getByLabelText('To'), '2026-03-01');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The To date must be on or after the From date.')).toBeTruthy();
    expect(api.callsTo('POST', REPORT)).toHaveLength(1);
    // The earlier results are not of these dates: table, totals and chart are emptied until a valid Submit.
    expect(screen.queryByText('Product not received')).toBeNull();
    expect(screen.queryByText('Total')).toBeNull();
    expect(screen.getByText('Choose a To date on or after the From date and Submit.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Download CSV' }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.clear(screen.getByLabelText('To'));
    await userEvent.type(screen.getByLabelText('To'), '2026-04-30');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(api.callsTo('POST', REPORT).at(-1)?.body).toEqual({ fromDate: '2026-03-31', toDate: '2026-04-30' }),
    );
    expect(screen.queryByText('The To date must be on or after the From date.')).toBeNull();

    const createObjectURL = vi.fn(() => 'blob:csv');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const csv = api.callsTo('GET', `${REPORT}/csv`);
    expect(Object.fromEntries(csv[0]!.query)).toEqual({ fromDate: '2026-03-31', toDate: '2026-04-30' });
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('disputes-2026-03-31-to-2026-04-30.csv');
  });

  it('says when no dispute was opened, with no totals row and an empty chart', async () => {
    renderReport('Admin', []);
    const table = await screen.findByRole('table', { name: 'Disputes Report' }, { timeout: 5000 });
    expect(await within(table).findByText('No disputes were opened yet.')).toBeTruthy();
    expect(within(table).queryByText('Total')).toBeNull();
    expect(
      within(screen.getByRole('figure', { name: 'Disputes opened by month' })).getByText('No records found'),
    ).toBeTruthy();
  });

  it.each<StaffType>(['Team', 'Telecaller', 'Night Staff'])('is not open to %s, even by URL', async (role) => {
    signIn('Tom Becker', role);
    const api = stubApi((call) => (isFolderCountCall(call) ? ok(FOLDER_COUNTS) : undefined));
    renderRoutes('/admin/disputes-report');
    expect(await screen.findByText('You do not have access to this page.', {}, { timeout: 5000 })).toBeTruthy();
    expect(api.callsTo('POST', REPORT)).toEqual([]);
  });
});
