// The ChargeBack queue (issue 21): each order's dispute (reason, amount, evidence due date) and how many days are
// left to answer it, overdue ones marked in red, evidence sent shown as such; the rows stay in the server's order
// (soonest due first). Other queues keep their columns.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DisputeSummary, OrderListRow } from '@eta/contracts';
import { stubApi } from '../../../test/api-stub';
import { isListCall, listPage, orderRow } from '../../../test/orders';
import { renderWithApp } from '../../../test/render';
import { signIn } from '../../../test/session';
import { QueuePage } from './queue-page';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Due `days` whole days from now (negative: overdue), an hour past them so the count is exact. */
const dueIn = (days: number) => new Date(Date.now() + days * DAY_MS + HOUR_MS).toISOString();
/** The due date as the table writes it: DD/MM/YYYY in UTC. */
const shownDate = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');

function disputed(orderId: string, dispute: Partial<DisputeSummary>): OrderListRow {
  return orderRow({
    order_id: orderId,
    process_status: 'ChargeBack',
    dispute: {
      reason: 'fraudulent',
      amount_cents: 8900,
      currency: 'USD',
      status: 'needs_response',
      evidence_due_by: dueIn(10),
      evidence_state: null,
      ...dispute,
    },
  });
}

function renderChargeBack(rows: OrderListRow[]) {
  signIn('Asha Rao', 'Manager');
  stubApi((call) => (isListCall(call, 'chargeBack') ? listPage(rows) : undefined));
  renderWithApp(<QueuePage queue="chargeBack" user={{ name: 'Asha Rao', type: 'Manager' }} />);
}

const cellsOf = (row: HTMLElement) => [...row.querySelectorAll('td')].map((cell) => cell.textContent);
const rowOf = async (orderId: string) => (await screen.findByText(orderId)).closest('tr') as HTMLElement;

describe('ChargeBack queue', () => {
  it('shows reason, amount, evidence due and days left, overdue first in red, in the order the server sent', async () => {
    const overdue = dueIn(-2);
    const soon = dueIn(2);
    renderChargeBack([
      disputed('ETA-100000001', { evidence_due_by: overdue, reason: 'product_not_received', amount_cents: 12_950 }),
      disputed('ETA-100000002', { evidence_due_by: soon, currency: 'usd' }),
      disputed('ETA-100000003', { evidence_due_by: dueIn(12), reason: 'credit_not_processed' }),
    ]);

    const first = await rowOf('ETA-100000001');
    const table = screen.getByRole('table', { name: 'Charge Back' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      '',
      'Order Id',
      'Name',
      'Email',
      'Date & Time',
      'Reason',
      'Amount',
      'Evidence due',
      'Days left',
      'Action',
    ]);
    expect(cellsOf(first).slice(5, 9)).toEqual([
      'Product not received',
      '129.50 USD',
      shownDate(overdue),
      'Overdue 2 days',
    ]);
    expect(within(first).getByText('Overdue 2 days').closest('.MuiChip-root')!.className).toContain(
      'MuiChip-colorError',
    );

    const second = await rowOf('ETA-100000002');
    expect(cellsOf(second).slice(5, 9)).toEqual(['Fraudulent', '89.00 USD', shownDate(soon), '2 days left']);
    expect(within(second).getByText('2 days left').closest('.MuiChip-root')!.className).toContain(
      'MuiChip-colorWarning',
    );
    expect(cellsOf(await rowOf('ETA-100000003'))[8]).toBe('12 days left');

    const ids = within(table)
      .getAllByRole('checkbox', { name: /^Select order / })
      .map((box) => box.getAttribute('aria-label'));
    expect(ids).toEqual(['Select order ETA-100000001', 'Select order ETA-100000002', 'Select order ETA-100000003']);
  });

  it('shows evidence sent or saved as a draft, decided and closed disputes, and an order without a dispute', async () => {
    renderChargeBack([
      disputed('ETA-100000001', { evidence_due_by: dueIn(-1), evidence_state: 'draft' }),
      disputed('ETA-100000002', { evidence_due_by: dueIn(-3), evidence_state: 'submitted', status: 'under_review' }),
      disputed('ETA-100000003', { evidence_due_by: dueIn(-20), evidence_state: 'submitted', status: 'won' }),
      orderRow({ order_id: 'ETA-100000004', process_status: 'ChargeBack', dispute: null }),
      disputed('ETA-100000005', { evidence_due_by: dueIn(-9), status: 'RESOLVED' }),
    ]);

    const draft = await rowOf('ETA-100000001');
    expect(cellsOf(draft)[8]).toBe('Overdue 1 dayDraft saved');
    // Submitted: the gateway is reviewing it, so the date no longer counts against the desk.
    const submitted = await rowOf('ETA-100000002');
    expect(cellsOf(submitted)[8]).toBe('Evidence submitted');
    expect(within(submitted).queryByText(/Overdue/)).toBeNull();
    expect(cellsOf(await rowOf('ETA-100000003'))[8]).toBe('Won');
    // Closed at the gateway (PayPal's word) without an outcome in the row: not overdue either.
    expect(cellsOf(await rowOf('ETA-100000005'))[8]).toBe('Closed');
    // Moved to ChargeBack by hand: no gateway dispute to show.
    expect(cellsOf(await rowOf('ETA-100000004')).slice(5, 9)).toEqual(['', '', '', '']);
  });
});
