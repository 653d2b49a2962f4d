// The staff console in a real browser: an Admin signs in and finds the dashboard, the side menu and
// logout working; a Team member claims orders from a search; a Manager deletes one of them.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN,
  apiGet,
  demoUserEmail,
  resultsDir,
  signIn,
  withServerAndBrowser,
  type RunningServer,
} from './harness.js';

let server: RunningServer;
let browser: Browser;

withServerAndBrowser({}, (s, b) => {
  server = s;
  browser = b;
});

const TILES = ['myOrdersCount', 'newOrdersCount', 'priorityOrdersCount', 'pendingOrdersCount', 'completedOrdersCount'];

async function tileCount(page: Page, key: string): Promise<number> {
  const tile = page.getByTestId(`tile-${key}`);
  await expect.poll(async () => /^\d+/.test((await tile.textContent()) ?? '')).toBe(true);
  return Number(/^(\d+)/.exec((await tile.textContent()) ?? '')![1]);
}

/** Toasts open below the header, so they never cover the user menu. */
async function expectToastBelowHeader(page: Page, text?: string) {
  const alert = page
    .getByRole('alert')
    .filter({ hasText: text ?? /./ })
    .first();
  await alert.waitFor();
  const toast = (await alert.boundingBox())!;
  const header = (await page.locator('header').boundingBox())!;
  expect(toast.y).toBeGreaterThanOrEqual(header.y + header.height);
}

async function logout(page: Page) {
  await page.locator('#account-button').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL(`${server.baseUrl}/`);
  await expect.poll(() => page.getByRole('button', { name: 'Sign In', exact: true }).isVisible()).toBe(true);
}

const demoUser = (type: string) => demoUserEmail(server, type);

describe('staff console', () => {
  it('Admin signs in, sees the five tiles with numbers, opens a side-menu link and logs out', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    await expect.poll(() => page.getByText('Welcome Administrator').isVisible()).toBe(true);
    const counts = await apiGet<Record<string, number>>(page, '/api/admin/get-folder-count');
    for (const key of TILES) expect(await tileCount(page, key)).toBe(counts[key]);
    expect(counts.newOrdersCount).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(resultsDir, 'dashboard.png'), fullPage: true });

    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: /Awaiting Customer/ }).click();
    await page.waitForURL(`${server.baseUrl}/admin/awaiting-response`);
    await expect.poll(() => page.getByRole('heading', { name: 'Awaiting Response' }).isVisible()).toBe(true);
    expect(await menu.getByRole('link', { name: /Awaiting Customer/ }).getAttribute('aria-current')).toBe('page');
    expect(await menu.getByRole('link', { name: /Order Processed/ }).isVisible()).toBe(true);

    await logout(page);
    await page.goto(`${server.baseUrl}/admin/recent-order`);
    await expect.poll(() => page.getByRole('button', { name: 'Sign In', exact: true }).isVisible()).toBe(true);
    await page.close();
  });

  it('a Team member claims two searched orders, finds them in My Orders; a Manager deletes one', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.baseUrl, demoUser('Team'), server.demoPassword);
    const myBefore = await tileCount(page, 'myOrdersCount');
    const newBefore = await tileCount(page, 'newOrdersCount');
    expect(await page.getByRole('link', { name: /Order Processed/ }).count()).toBe(0);

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: /New Orders/ })
      .click();
    await page.waitForURL(/\/admin\/recent-order/);
    await page.getByRole('heading', { name: 'New Orders' }).waitFor();
    const firstId = (await page
      .getByRole('checkbox', { name: /^Select order / })
      .first()
      .getAttribute('aria-label'))!.replace('Select order ', '');
    const fragment = firstId.slice(0, 6); // "ETA-" and the first digits: many matches
    await page.getByLabel('Search').fill(fragment);
    await page.waitForURL(new RegExp(`q=${fragment}`));
    const boxes = page.getByRole('checkbox', { name: /^Select order / });
    await expect.poll(() => boxes.count()).toBeGreaterThanOrEqual(2);
    const picked = [];
    for (const i of [0, 1]) {
      const label = (await boxes.nth(i).getAttribute('aria-label'))!;
      expect(label).toContain(fragment);
      picked.push(label.replace('Select order ', ''));
      await boxes.nth(i).check();
    }
    await page.getByRole('button', { name: 'Assign to me' }).click();
    await page.getByRole('dialog').getByText('Are you sure want to assigned orders.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Order has been assigned successfully').waitFor();
    await expectToastBelowHeader(page, 'Order has been assigned successfully');
    for (const id of picked) await expect.poll(() => page.getByText(id, { exact: true }).count()).toBe(0);

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: /My Orders/ })
      .click();
    await page.waitForURL(/\/admin\/my-order/);
    await page.getByRole('heading', { name: 'My Orders' }).waitFor();
    for (const id of picked) await page.getByText(id, { exact: true }).waitFor();
    await page.screenshot({ path: path.join(resultsDir, 'my-orders.png'), fullPage: true });

    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect.poll(() => tileCount(page, 'myOrdersCount')).toBe(myBefore + 2);
    expect(await tileCount(page, 'newOrdersCount')).toBeLessThanOrEqual(newBefore - 1);
    await logout(page);

    await signIn(page, server.baseUrl, demoUser('Manager'), server.demoPassword);
    await page.goto(`${server.baseUrl}/admin/pending-order?q=${picked[0]}`);
    const row = page.getByRole('row').filter({ hasText: picked[0]! });
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText('Are you sure you want to delete?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Order has been deleted successfully').waitFor();

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: /Deleted Orders/ })
      .click();
    await page.waitForURL(/\/admin\/deleted-order/);
    // The URL changes before React swaps the page: wait for the new page, or the old box gets the text.
    await page.getByRole('heading', { name: 'Deleted Orders' }).waitFor();
    await page.getByLabel('Search').fill(picked[0]!);
    await page.waitForURL(new RegExp(`q=${picked[0]}`));
    await page.getByText('Showing 1 to 1 of 1 entries').waitFor();
    expect(await page.getByRole('row').filter({ hasText: picked[0]! }).getByText('Deleted').count()).toBe(1);
    await page.screenshot({ path: path.join(resultsDir, 'deleted-orders.png'), fullPage: true });
    await page.close();
  });

  it('on a phone, a toast opens below the header and leaves the user menu usable', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await signIn(page, server.baseUrl, demoUser('Team'), server.demoPassword);
    // The sign-in success toast is still showing on the dashboard.
    await expectToastBelowHeader(page);
    await page.screenshot({ path: path.join(resultsDir, 'dashboard-360.png'), fullPage: true });

    await page.locator('#account-button').click();
    const logoutItem = page.getByRole('menuitem', { name: 'Logout' });
    await logoutItem.waitFor();
    // The open menu hides the page from assistive technology, so the toast is found by its own class here.
    expect(await page.locator('.Toastify__toast').isVisible()).toBe(true);
    await page.screenshot({ path: path.join(resultsDir, 'account-menu-360.png') });
    // A click that another element would catch fails here: the menu is not under the toast.
    await logoutItem.click({ timeout: 5_000 });
    await page.waitForURL(`${server.baseUrl}/`);
    await page.close();
  });
});
