// The dashboard's urgent orders and late orders (issue 35), in the whole console as a person sees it.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FolderCountsPayload, StaffType } from '@eta/contracts';
import { ok, stubApi } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall, isQueueSettingsCall, queueSettings } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);

function renderDashboard(role: StaffType, counts: FolderCountsPayload, urgentTravelHours = 72) {
  signIn('Asha Rao', role);
  stubApi((call) => {
    if (isFolderCountCall(call)) return ok(counts);
    if (isQueueSettingsCall(call)) return ok(queueSettings({ urgentTravelHours }));
    return undefined;
  });
  renderRoutes('/admin');
}

/** The whole console's first render in jsdom can take seconds on a busy machine. */
const CONSOLE = { timeout: 20_000 };
const LOADED = { timeout: 10_000 };
const tile = (key: string) => screen.getByTestId(`tile-${key}`);
/** The tile once the counts are in (a loading tile shows a placeholder instead of its number). */
async function loadedTile(key: string) {
  await waitFor(() => expect(tile(key).textContent).toMatch(/^\d/), LOADED);
  return tile(key);
}

describe('Dashboard: urgent and late orders', CONSOLE, () => {
  it('counts the urgent orders under their tiles and per queue, and the orders waiting too long', async () => {
    renderDashboard(
      'Team',
      {
        ...FOLDER_COUNTS,
        urgentCounts: { newOrdersCount: 3, pendingOrdersCount: 1, myOrdersCount: 0, allOrdersCount: 4 },
        waitingTooLongCount: 12,
      },
      48,
    );

    const urgentNew = within(await loadedTile('newOrdersCount')).getByRole('link', { name: '3 urgent in New Orders' });
    expect(urgentNew.textContent).toBe('3 urgent');
    expect(urgentNew.getAttribute('href')).toBe('/admin/recent-order');
    expect(
      within(await tile('pendingOrdersCount')).getByRole('link', { name: '1 urgent in Pending Orders' }),
    ).toBeTruthy();
    // None urgent: no line under the tile.
    expect(tile('myOrdersCount').textContent).toBe(`${FOLDER_COUNTS.myOrdersCount}My Orders`);

    const panel = await screen.findByRole('region', { name: 'Travelling within 48 h' }, LOADED);
    const links = within(panel).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['New Orders: 3', '/admin/recent-order'],
      ['Pending Orders: 1', '/admin/pending-order'],
      ['Order History: 4', '/admin/order-history'],
    ]);

    const waiting = tile('waitingTooLong');
    expect(waiting.textContent).toBe('12Waiting too long');
    expect(within(waiting).getByRole('link').getAttribute('href')).toBe('/admin/waiting-too-long');
  });

  it('says "500+" when the count of late orders stopped at 500, and when no order travels soon', async () => {
    renderDashboard('Admin', {
      ...FOLDER_COUNTS,
      urgentCounts: {},
      waitingTooLongCount: 500,
      waitingTooLongCapped: true,
    });
    expect((await loadedTile('waitingTooLong')).textContent).toBe('500+Waiting too long');
    const panel = await screen.findByRole('region', { name: 'Travelling within 72 h' }, LOADED);
    expect(within(panel).getByText('No open order travels within 72 h.')).toBeTruthy();
  });

  it('says "5,000+" where the urgent counts stopped counting (each a lower bound)', async () => {
    renderDashboard('Manager', {
      ...FOLDER_COUNTS,
      urgentCounts: { newOrdersCount: 5000, pendingOrdersCount: 0 },
      urgentCapped: true,
      waitingTooLongCount: 3,
    });
    expect(
      within(await loadedTile('newOrdersCount')).getByRole('link', { name: '5,000+ urgent in New Orders' }),
    ).toBeTruthy();
    expect(within(tile('pendingOrdersCount')).queryByRole('link', { name: /urgent/ })).toBeNull();
    const panel = await screen.findByRole('region', { name: 'Travelling within 72 h' }, LOADED);
    expect(
      within(panel)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['New Orders: 5,000+']);
  });

  it('shows a Telecaller no Waiting too long tile (they may not open that list)', async () => {
    const { allOrdersCount: _hidden, ...counts } = FOLDER_COUNTS;
    renderDashboard('Telecaller', { ...counts, urgentCounts: { newOrdersCount: 2 } });
    expect(
      within(await loadedTile('newOrdersCount')).getByRole('link', { name: '2 urgent in New Orders' }),
    ).toBeTruthy();
    expect(screen.queryByTestId('tile-waitingTooLong')).toBeNull();
  });
});
