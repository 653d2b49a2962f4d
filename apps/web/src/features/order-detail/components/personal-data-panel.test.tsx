// The order's personal data state on the detail page (issue 24), in the whole console: an erased order says so with
// the time; an Admin places a legal hold with a reason and releases it (the order reloads after each); others see the
// hold but cannot change it.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetails, StaffType } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { DETAIL_ORDER_ID, detailReply, isDetailCall, isDisputesCall, orderDetails } from '../../../test/order-details';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';
import { encodeOrderId } from '../../../lib/order-id';

beforeAll(preloadRoutes);
const WHOLE_CONSOLE = { timeout: 20_000 };

function renderOrder(order: () => OrderDetails, role: StaffType = 'Admin', handler: StubHandler = () => undefined) {
  signIn('Asha Rao', role);
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    const own = handler(call);
    if (own) return own;
    if (isDetailCall(call)) return detailReply(order());
    if (isDisputesCall(call)) return ok([]);
    return undefined;
  });
  renderRoutes(`/admin/view-order/${encodeOrderId(DETAIL_ORDER_ID)}`);
  return api;
}

const section = () => screen.findByRole('region', { name: 'Personal data' }, { timeout: 5000 });

describe('Personal data on the order detail page', WHOLE_CONSOLE, () => {
  it("says when an erased order's personal data was erased and what is kept", async () => {
    renderOrder(() => orderDetails({ erasedAt: '2026-11-20T03:00:00.000Z' }), 'Team');
    const region = within(await section());
    expect(region.getByText('Personal data erased')).toBeTruthy();
    expect(region.getByText('20/11/2026 03:00:00 UTC')).toBeTruthy();
    expect(region.getByText(/order, payment, mail and download records are\s+kept/)).toBeTruthy();
    expect(region.queryByRole('button', { name: 'Place legal hold' })).toBeNull();
  });

  it('lets an Admin place a legal hold with a reason and release it', async () => {
    const user = userEvent.setup();
    let hold: OrderDetails['legalHold'];
    const api = renderOrder(
      () => orderDetails(hold ? { legalHold: hold } : {}),
      'Admin',
      (call) => {
        if (call.method === 'POST' && call.path === '/api/admin/legal-hold') {
          hold = {
            heldAt: '2026-11-21T09:00:00.000Z',
            heldBy: 'Asha Rao',
            reason: (call.body as { reason: string }).reason,
          };
          return ok({ orderId: DETAIL_ORDER_ID, legalHold: hold }, 'Legal hold placed.');
        }
        if (call.method === 'POST' && call.path === '/api/admin/legal-hold/release') {
          hold = undefined;
          return ok({ orderId: DETAIL_ORDER_ID }, 'Legal hold released.');
        }
        return undefined;
      },
    );
    await user.click(within(await section()).getByRole('button', { name: 'Place legal hold' }));
    const dialog = within(await screen.findByRole('dialog', { name: `Place legal hold on ${DETAIL_ORDER_ID}` }));
    await user.click(dialog.getByRole('button', { name: 'Place hold' }));
    expect(await dialog.findByText('Please give the reason for the hold (3 to 500 characters).')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/legal-hold')).toHaveLength(0);
    await user.type(dialog.getByLabelText('Reason'), 'Litigation: case 2026-114');
    await user.click(dialog.getByRole('button', { name: 'Place hold' }));

    expect(await screen.findByText('On legal hold')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/legal-hold').map((c) => c.body)).toEqual([
      { orderId: DETAIL_ORDER_ID, reason: 'Litigation: case 2026-114' },
    ]);
    expect(screen.getByText(/Litigation: case 2026-114/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Release hold' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByText('On legal hold')).toBeNull());
    expect(api.callsTo('POST', '/api/admin/legal-hold/release')).toHaveLength(1);
  });

  it('shows a hold to a Manager without letting them change it', async () => {
    renderOrder(
      () =>
        orderDetails({ legalHold: { heldAt: '2026-11-21T09:00:00.000Z', heldBy: 'Asha Rao', reason: 'Court order' } }),
      'Manager',
    );
    const region = within(await section());
    expect(region.getByText('On legal hold')).toBeTruthy();
    expect(region.getByText(/Placed by Asha Rao/)).toBeTruthy();
    expect(region.queryByRole('button', { name: 'Release hold' })).toBeNull();
  });
});
