// Order intake in a real browser (issue 20): an Admin opens Landing Sites, creates the default site's intake key and
// sees it once; a landing site (here Node's fetch) places an order with that key; the Admin finds the order in New
// Orders and sees the customer's signature image on its detail page. Screenshots: the key dialog at 1280 px and
// the page on a phone (360 px).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { intakeExample, type LandingSiteAdmin } from '@eta/contracts';
import { ADMIN, apiGet, resultsDir, signIn, withServerAndBrowser, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;

withServerAndBrowser({}, (s, b) => {
  server = s;
  browser = b;
});

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

/** Whether the page is wider than its window (something pushes it sideways). */
const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('order intake', () => {
  it('an Admin creates an intake key shown once; an order placed with it shows in New Orders with its signature', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const page = await context.newPage();
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    const adminName = ((await page.locator('#account-button').textContent()) ?? '').replace(/^Welcome /, '').trim();

    await menu(page).getByRole('link', { name: 'Landing Sites' }).click();
    await page.waitForURL(`${server.baseUrl}/admin/landing-sites`);
    await page.getByRole('heading', { level: 1, name: 'Landing Sites' }).waitFor();
    const sites = await apiGet<LandingSiteAdmin[]>(page, '/api/admin/landing-sites');
    const site = sites.find((s) => s.key === 'default')!;
    expect(site.intakeKeys).toEqual([]);
    const keys = page.getByRole('region', { name: `Intake key of ${site.display_name}` });
    await keys.getByText("No intake key yet: this site's forms cannot send orders.").waitFor();

    // Create key: the whole key, once.
    await keys.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: `New intake key for ${site.display_name}` });
    await dialog.waitFor();
    const intakeKey = ((await dialog.getByTestId('intake-key').textContent()) ?? '').trim();
    expect(intakeKey).toMatch(/^etak_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    await dialog.getByText('Copy this key now: it will not be shown again.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(intakeKey);
    // The window as the Admin sees it (a full-page shot would cut the fixed header and menu mid-page).
    await page.screenshot({ path: path.join(resultsDir, 'intake-landing-sites-key-1280.png'), animations: 'disabled' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByText(intakeKey).count()).toBe(0);
    const keyId = intakeKey.split('_')[1]!;
    const keyRow = keys.getByRole('row').filter({ hasText: keyId });
    await keyRow.getByText('Current').waitFor();
    expect(await keyRow.getByRole('cell').allTextContents()).toEqual([
      keyId,
      'Current',
      'Never',
      '0',
      expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/),
      adminName,
    ]);

    // The landing site places an order with the key.
    const today = new Date().toISOString().slice(0, 10);
    const email = `intake-e2e-${randomUUID().slice(0, 8)}@example.com`;
    const response = await fetch(`${server.baseUrl}/api/intake/orders`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${intakeKey}`,
        'Idempotency-Key': randomUUID(),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ ...intakeExample(today), email }),
    });
    const placed = (await response.json()) as { data?: { order_id: string } };
    expect(response.status, JSON.stringify(placed)).toBe(201);
    const orderId = placed.data!.order_id;
    expect(orderId).toMatch(/^ETA-\d+$/);

    // New Orders, searched by the order id.
    await menu(page)
      .getByRole('link', { name: /^New Orders/ })
      .click();
    await page.waitForURL(/\/admin\/recent-order/);
    await page.reload();
    await page.getByRole('heading', { name: 'New Orders' }).waitFor();
    await page.getByLabel('Search').fill(orderId);
    await page.waitForURL(new RegExp(`q=${orderId}`));
    const row = page.getByRole('row').filter({ hasText: orderId });
    await row.waitFor();
    expect(await row.textContent()).toContain(email);

    // The order: its signature image, the legal texts version agreed and the confirmation mail.
    await row.getByRole('link', { name: 'View' }).click();
    await page.getByRole('heading', { level: 1, name: orderId }).waitFor();
    const signature = page.getByRole('img', { name: "Customer's signature" });
    await signature.waitFor();
    await expect
      .poll(() => signature.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    const background = page.getByRole('region', { name: 'Background Questions' });
    const legalTerm = background.getByRole('term').filter({ hasText: /^Legal texts agreed \(version\)$/ });
    expect(await legalTerm.locator('xpath=following-sibling::dd[1]').textContent()).toBe('1');
    await page
      .getByRole('region', { name: 'Email History' })
      .getByRole('row')
      .filter({ hasText: 'Order confirmation' })
      .filter({ hasText: email })
      .waitFor();

    // The Landing Sites page on a phone: the key's orders counted, nothing pushed sideways.
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`${server.baseUrl}/admin/landing-sites`);
    const phoneRow = page
      .getByRole('region', { name: `Intake key of ${site.display_name}` })
      .getByRole('row')
      .filter({ hasText: keyId });
    await phoneRow.getByText('Current').waitFor();
    expect((await phoneRow.getByRole('cell').allTextContents())[3]).toBe('1');
    expect(await overflowsSideways(page)).toBe(false);
    await page.screenshot({
      path: path.join(resultsDir, 'intake-landing-sites-360.png'),
      fullPage: true,
      animations: 'disabled',
    });
    await context.close();
  });
});
