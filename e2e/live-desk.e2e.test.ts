// The live desk in real browsers (issue 23): two signed-in people, each in a browser of their own, see each other
// on an order (an avatar on the list row, a line on the detail page, "editing remarks" while one writes); when one
// takes the order, the other's side menu count moves without a reload and their page says the order changed
// underneath, with Reload.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN,
  demoUserEmail,
  resultsDir,
  signIn,
  staffName,
  withServerAndBrowser,
  type RunningServer,
} from './harness.js';

let server: RunningServer;
let browser: Browser;

withServerAndBrowser({}, (s, b) => {
  server = s;
  browser = b;
});

const demoUser = (type: string) => demoUserEmail(server, type);

/** The number beside a side menu link. */
async function menuCount(page: Page, label: string): Promise<number> {
  const link = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: new RegExp(`^${label}`) });
  return Number(((await link.textContent()) ?? '').replace(label, ''));
}

/** The detail page's presence sentence (the avatars beside it are decoration: their initials are left out). */
const presenceText = async (page: Page) =>
  (await page.getByRole('status', { name: 'Also on this order' }).locator('p').allTextContents()).join('');

describe('live desk', () => {
  it('two people see each other on an order; a move by one reaches the other without a reload', async () => {
    const admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(admin, server.baseUrl, ADMIN.email, ADMIN.password);
    const adminName = await staffName(admin);
    const manager = await browser.newPage({ viewport: { width: 360, height: 780 } });
    await signIn(manager, server.baseUrl, demoUser('Manager'), server.demoPassword);
    const managerName = await staffName(manager);

    // The Admin works the New queue; the Manager opens its first order by its address.
    await admin.goto(`${server.baseUrl}/admin/recent-order?page=1&limit=10`);
    const firstBox = admin.getByRole('checkbox', { name: /^Select order / }).first();
    await firstBox.waitFor();
    const orderId = (await firstBox.getAttribute('aria-label'))!.replace('Select order ', '');
    const orderPath = `/admin/view-order/${Buffer.from(orderId).toString('base64url')}`;
    await manager.goto(`${server.baseUrl}${orderPath}`);
    await manager.getByRole('heading', { level: 1, name: orderId }).waitFor();

    // The Admin's list shows the Manager on that row, without a reload.
    const row = admin.getByRole('row').filter({ hasText: orderId });
    await row.getByRole('img', { name: `${managerName} is viewing` }).waitFor({ timeout: 10_000 });
    await admin.screenshot({ path: path.join(resultsDir, 'live-desk-list-1280.png'), animations: 'disabled' });

    // Both on the order: each sees the other, never themselves.
    await row.getByRole('link', { name: 'View' }).click();
    await admin.getByRole('heading', { level: 1, name: orderId }).waitFor();
    await expect.poll(() => presenceText(admin), { timeout: 10_000 }).toBe(`${managerName} is viewing.`);
    await expect.poll(() => presenceText(manager), { timeout: 10_000 }).toBe(`${adminName} is viewing.`);

    // The Manager starts writing a remark.
    await manager.getByRole('textbox', { name: 'Comment' }).click();
    await expect.poll(() => presenceText(admin), { timeout: 10_000 }).toBe(`${managerName} is editing remarks.`);

    // The Manager takes the order (New → Pending): the Admin's New Orders count drops and their page says why.
    const newBefore = await menuCount(admin, 'New Orders');
    await manager.getByRole('button', { name: 'Assign to me' }).click();
    await manager.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await manager.getByText('Status: Pending').waitFor();
    const notice = admin.getByRole('alert').filter({ hasText: 'Reload to see the change.' });
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain(`${managerName} moved this order to Pending.`);
    await expect.poll(() => menuCount(admin, 'New Orders'), { timeout: 10_000 }).toBe(newBefore - 1);
    expect(await admin.getByText('Status: New').count()).toBe(1);
    // Not for the one who made the change.
    expect(await manager.getByText('Reload to see the change.').count()).toBe(0);
    await admin.evaluate(() => window.scrollTo(0, 0));
    await admin.screenshot({ path: path.join(resultsDir, 'live-desk-detail-1280.png'), animations: 'disabled' });
    await manager.evaluate(() => window.scrollTo(0, 0));
    await manager.screenshot({ path: path.join(resultsDir, 'live-desk-detail-360.png'), animations: 'disabled' });

    await notice.getByRole('button', { name: 'Reload' }).click();
    await admin.getByText('Status: Pending').waitFor();
    await notice.waitFor({ state: 'detached' });

    // Leaving the page takes the Manager off the order for the Admin at once; the Manager's own list (360 px)
    // shows the Admin still on the order.
    await manager.goto(`${server.baseUrl}/admin/my-order`);
    await expect.poll(() => presenceText(admin), { timeout: 10_000 }).toBe('');
    const mine = manager.getByRole('row').filter({ hasText: orderId });
    await mine.getByRole('img', { name: `${adminName} is viewing` }).waitFor({ timeout: 10_000 });
    await manager.screenshot({ path: path.join(resultsDir, 'live-desk-list-360.png'), animations: 'disabled' });
  });
});
