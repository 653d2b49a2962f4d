import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, stubApi } from '../../../test/api-stub';
import { isListCall, listPage, orderRow } from '../../../test/orders';
import { renderWithApp } from '../../../test/render';
import { signIn } from '../../../test/session';
import { FutureOrderPage } from './future-order-page';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Today, as the page sees it (only the clock is faked; timers run as usual). */
function today(iso: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
}

afterEach(() => {
  vi.useRealTimers();
});

const monthCounts = (count: (month: number) => number) =>
  ok(MONTHS.map((label, index) => ({ month: index + 1, label, count: count(index + 1) })));

/** The month tiles' text (count, then month), in the order the page shows them. */
const tiles = () =>
  [...document.querySelectorAll('[data-testid^="future-month-"]')].map((tile) => tile.textContent ?? '');

describe('Future Order', () => {
  it("shows twelve month tiles and opens a month's orders, with the month in the URL", async () => {
    // In January every month ahead is this year's.
    today('2025-01-10T12:00:00Z');
    signIn('Asha Rao', 'Manager');
    const api = stubApi((call) => {
      if (call.path === '/api/admin/future-order-counts') return monthCounts((month) => (month === 3 ? 4 : 0));
      if (isListCall(call, 'futureOrder')) {
        return listPage([
          orderRow({ processing_type: 'Future', processing_date: '2025-03-14', process_month: 'Mar 2025' }),
        ]);
      }
      return undefined;
    });
    renderWithApp(<FutureOrderPage user={{ name: 'Asha Rao', type: 'Manager' }} />);

    const march = await screen.findByTestId('future-month-3');
    await waitFor(() => expect(march.textContent).toBe('4Mar 2025'));
    expect(tiles().map((text) => text.slice(1))).toEqual(MONTHS.map((month) => `${month} 2025`));

    await userEvent.click(within(march).getByRole('button'));

    const row = (await screen.findByText('ETA-200020076')).closest('tr') as HTMLElement;
    expect(within(row).getByText('14/03/2025')).toBeTruthy();
    expect(within(row).getByText('Mar 2025')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Future Orders — Mar 2025' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/?month=3');
    expect(api.callsTo('GET', '/api/admin/get-orders-list/futureOrder')[0]?.query.get('month')).toBe('3');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      '',
      'Order ID',
      'Name',
      'Email',
      'Telephone',
      'Date & Time',
      'Processing Date',
      'Process Month',
      'Status',
      'Action',
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByTestId('future-month-12')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/');
  });

  it('lists the months in time order from the current one, each with its year (issue 22)', async () => {
    today('2026-11-24T12:00:00Z');
    signIn('Asha Rao', 'Team');
    stubApi((call) => {
      if (call.path === '/api/admin/future-order-counts') return monthCounts((month) => (month === 1 ? 1 : 3));
      if (isListCall(call, 'futureOrder')) {
        return listPage([
          orderRow({ processing_type: 'Future', processing_date: '2027-01-14', process_month: 'Jan 2027' }),
        ]);
      }
      return undefined;
    });
    renderWithApp(<FutureOrderPage user={{ name: 'Asha Rao', type: 'Team' }} />);

    const january = await screen.findByTestId('future-month-1');
    await waitFor(() => expect(january.textContent).toBe('1Jan 2027'));
    // On 24 Nov 2026 the page once showed Jan 2027 … Oct 2027, then "Nov" and "Dec" without a year, last.
    expect(tiles()).toEqual([
      '3Nov 2026',
      '3Dec 2026',
      '1Jan 2027',
      '3Feb 2027',
      '3Mar 2027',
      '3Apr 2027',
      '3May 2027',
      '3Jun 2027',
      '3Jul 2027',
      '3Aug 2027',
      '3Sep 2027',
      '3Oct 2027',
    ]);
    expect(within(january).getByRole('button').getAttribute('aria-label')).toBe('Jan 2027: 1 order');
    expect(within(screen.getByTestId('future-month-12')).getByRole('button').getAttribute('aria-label')).toBe(
      'Dec 2026: 3 orders',
    );

    await userEvent.click(within(january).getByRole('button'));
    expect(await screen.findByRole('heading', { name: 'Future Orders — Jan 2027' })).toBeTruthy();
    expect(within(await screen.findByRole('row', { name: /ETA-200020076/ })).getByText('14/01/2027')).toBeTruthy();
  });
});
