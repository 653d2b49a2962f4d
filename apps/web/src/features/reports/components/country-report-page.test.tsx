// Country Order Details and Processed By (spec §2, §8): the filter, the columns, search, the bar chart of the
// same rows, the success toast with the server's message, 'No records found', and the CSV of the same filter.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CountryReportRow, ProcessedReportRow } from '@eta/contracts';
import { ok, stubApi } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);
afterEach(() => vi.restoreAllMocks());

const COUNTRY = '/api/admin/get-country-order-count';
const ROWS: CountryReportRow[] = [
  { citizen_country: 'Canada', count: 30, standard_count: 10, priority_count: 15, future_count: 5 },
  { citizen_country: 'India', count: 12, standard_count: 12, priority_count: 0, future_count: 0 },
  { citizen_country: '', count: 3, standard_count: 3, priority_count: 0, future_count: 0 },
];

function renderCountry(all: CountryReportRow[] = ROWS) {
  signIn('Tom Becker', 'Night Staff');
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    if (call.path === COUNTRY) {
      const search = ((call.body as { search?: string }).search ?? '').toLowerCase();
      const rows = all.filter((r) => r.citizen_country.toLowerCase().includes(search));
      return ok(rows, `Orders by country: ${rows.length} countries.`);
    }
    if (call.path === `${COUNTRY}/csv`) return { body: null, raw: { content: 'S. No\r\n', contentType: 'text/csv' } };
    return undefined;
  });
  renderRoutes('/admin/country-order-list');
  return api;
}

describe('Country Order Details', { timeout: 20_000 }, () => {
  it('shows the counts with the spec columns, a chart of the same rows and the message as a success toast', async () => {
    renderCountry();
    const table = await screen.findByRole('table', { name: 'Country Order Details' });
    await within(table).findByText('Canada');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual([
      'S. No',
      'State/Territory',
      'Order Count',
      'Standard Processing',
      'Priority Processing',
      'Future Order Processing',
    ]);
    const canada = within(table).getByText('Canada').closest('tr')!;
    expect([...canada.querySelectorAll('td')].map((c) => c.textContent)).toEqual([
      '1',
      'Canada',
      '30',
      '10',
      '15',
      '5',
    ]);
    expect(within(table).getByText('Not given')).toBeTruthy();
    const chart = screen.getByRole('figure', { name: 'Orders by country' });
    expect(
      within(chart)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Canada30', 'India12', 'Not given3']);
    expect(
      (await screen.findByText('Orders by country: 3 countries.')).closest('.Toastify__toast')!.className,
    ).toContain('Toastify__toast--success');
  });

  it('sends the dates on Submit, searches, and downloads the CSV of the same filter', async () => {
    const api = renderCountry();
    await screen.findByText('Canada', { selector: 'td' });
    await userEvent.type(screen.getByLabelText('From'), '2026-03-01');
    await userEvent.type(screen.getByLabelText('To'), '2026-03-31');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(api.callsTo('POST', COUNTRY).at(-1)?.body).toEqual({ fromDate: '2026-03-01', toDate: '2026-03-31' }),
    );

    await userEvent.type(screen.getByRole('textbox', { name: 'Search country' }), 'zz');
    expect(await screen.findByText('No records found', { selector: 'td div' }, { timeout: 3000 })).toBeTruthy();
    expect(api.callsTo('POST', COUNTRY).at(-1)?.body).toEqual({
      fromDate: '2026-03-01',
      toDate: '2026-03-31',
      search: 'zz',
    });

    const createObjectURL = vi.fn(() => 'blob:csv');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const csv = api.callsTo('GET', `${COUNTRY}/csv`);
    expect(Object.fromEntries(csv[0]!.query)).toEqual({ fromDate: '2026-03-01', toDate: '2026-03-31', search: 'zz' });
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('country-orders-2026-03-01-to-2026-03-31.csv');
  });
});

describe('Country Order Details, From after To (issue 22)', { timeout: 20_000 }, () => {
  it('says so on the To field, asks the server nothing and leaves no old rows, count or chart on screen', async () => {
    const api = renderCountry();
    const table = await screen.findByRole('table', { name: 'Country Order Details' });
    await within(table).findByText('Canada');
    expect(screen.getByText('1–3 of 3')).toBeTruthy();
    const asked = api.callsTo('POST', COUNTRY).length;

    await userEvent.type(screen.getByLabelText('From'), '2026-03-31');
    await userEvent.type(screen.getByLabelText('To'), '2026-03-01');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText('The To date must be on or after the From date.')).toBeTruthy();
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
    expect(within(table).queryByText('Canada')).toBeNull();
    expect(within(table).getByText('Choose a To date on or after the From date and Submit.')).toBeTruthy();
    expect(screen.getByText('0–0 of 0')).toBeTruthy();
    const chart = screen.getByRole('figure', { name: 'Orders by country' });
    expect(within(chart).queryAllByRole('listitem')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Download CSV' }).hasAttribute('disabled')).toBe(true);
    expect(api.callsTo('POST', COUNTRY)).toHaveLength(asked);
    expect(document.querySelector('.Toastify__toast--error')).toBeNull();

    // Dates in order again: the report for them.
    await userEvent.clear(screen.getByLabelText('To'));
    await userEvent.type(screen.getByLabelText('To'), '2026-04-30');
    expect(screen.queryByText('The To date must be on or after the From date.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await within(table).findByText('Canada');
    expect(api.callsTo('POST', COUNTRY).at(-1)?.body).toEqual({ fromDate: '2026-03-31', toDate: '2026-04-30' });
  });
});

describe('Country Order Details, many countries', { timeout: 20_000 }, () => {
  it('pages the table ten rows at a time, numbering on from the page before', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      citizen_country: `Country ${String(i + 1).padStart(2, '0')}`,
      count: 100 - i,
      standard_count: 100 - i,
      priority_count: 0,
      future_count: 0,
    }));
    renderCountry(many);
    const table = await screen.findByRole('table', { name: 'Country Order Details' });
    await within(table).findByText('Country 01');
    expect(within(table).queryByText('Country 11')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    const eleventh = (await within(table).findByText('Country 11')).closest('tr')!;
    expect(eleventh.querySelector('td')?.textContent).toBe('11');
    expect(within(table).queryByText('Country 01')).toBeNull();
  });
});

describe('Processed By', { timeout: 20_000 }, () => {
  it('shows S. No, Name, Order Count with deleted members named, for an Admin', async () => {
    signIn('Grace Whitfield', 'Admin');
    const rows: ProcessedReportRow[] = [
      { staff_id: 4, processed_by: 'Priya Sharma', active: true, count: 40 },
      { staff_id: 9, processed_by: 'Gwen Gone', active: false, count: 2 },
    ];
    stubApi((call) => {
      if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
      if (call.path === '/api/admin/get-processed-by-count') return ok(rows, 'Orders processed: 2 staff members.');
      return undefined;
    });
    renderRoutes('/admin/processed-order');
    const table = await screen.findByRole('table', { name: 'Processed By' });
    await within(table).findByText('Priya Sharma');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['S. No', 'Name', 'Order Count']);
    expect(
      [...within(table).getByText('Gwen Gone (deleted)').closest('tr')!.querySelectorAll('td')].map(
        (c) => c.textContent,
      ),
    ).toEqual(['2', 'Gwen Gone (deleted)', '2']);
  });

  it('is not open to a Manager, even by URL', async () => {
    signIn('Rajesh Menon', 'Manager');
    const api = stubApi((call) => (isFolderCountCall(call) ? ok(FOLDER_COUNTS) : undefined));
    renderRoutes('/admin/processed-order');
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/get-processed-by-count')).toEqual([]);
  });
});
