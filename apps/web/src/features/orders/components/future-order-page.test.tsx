import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, stubApi } from '../../../test/api-stub';
import { isListCall, listPage, orderRow } from '../../../test/orders';
import { renderWithApp } from '../../../test/render';
import { signIn } from '../../../test/session';
import { FutureOrderPage } from './future-order-page';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

describe('Future Order', () => {
  it("shows twelve month tiles and opens a month's orders, with the month in the URL", async () => {
    signIn('Asha Rao', 'Manager');
    const api = stubApi((call) => {
      if (call.path === '/api/admin/future-order-counts') {
        return ok(MONTHS.map((label, index) => ({ month: index + 1, label, count: index === 2 ? 4 : 0 })));
      }
      if (isListCall(call, 'futureOrder')) {
        return listPage([orderRow({ processing_type: 'Future', processing_date: '2025-03-14', process_month: 'Mar' })]);
      }
      return undefined;
    });
    renderWithApp(<FutureOrderPage user={{ name: 'Asha Rao', type: 'Manager' }} />);

    const march = await screen.findByTestId('future-month-3');
    await waitFor(() => expect(march.textContent).toBe('4Mar'));
    expect(MONTHS.map((_, index) => screen.getByTestId(`future-month-${index + 1}`).textContent?.slice(-3))).toEqual(
      MONTHS,
    );

    await userEvent.click(within(march).getByRole('button'));

    const row = (await screen.findByText('ETA-200020076')).closest('tr') as HTMLElement;
    expect(within(row).getByText('14/03/2025')).toBeTruthy();
    expect(within(row).getByText('Mar')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Future Orders — Mar' })).toBeTruthy();
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
});
