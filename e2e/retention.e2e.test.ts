// Retention and customers' requests in a real browser (issue 24): an Admin shortens a landing site's retention, runs a
// dry run and reads its report; answers a customer's request by e-mail (the summary, the PDF downloaded, the erasure
// after a confirmation); and places a legal hold on an order from its page. Screenshots at 1280 and 360 px.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { OrderListPage } from '@eta/contracts';
import { ADMIN, apiGet, resultsDir, signIn, withServerAndBrowser, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;

withServerAndBrowser({ demoOrders: 400 }, (s, b) => {
  server = s;
  browser = b;
});

const shot = (name: string) => ({ path: path.join(resultsDir, name), fullPage: true, animations: 'disabled' as const });

describe('retention and customers’ requests', () => {
  it('an Admin shortens a policy, runs a dry run and reads which orders it would erase', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Data Retention' }).click();
    await page.getByRole('heading', { level: 1, name: 'Data Retention' }).waitFor();

    const form = page.getByRole('form', { name: 'Retention of Canada eTA Online' });
    await form.getByLabel('Months').fill('12');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('keeps personal data 12 months.').first().waitFor();

    await page.getByRole('button', { name: 'Dry run' }).click();
    const dialog = page.getByRole('dialog', { name: /Dry run \d+: report/ });
    await dialog.waitFor();
    await dialog.getByRole('table', { name: 'Per landing site' }).waitFor();
    // The demo orders span two years: a year's policy leaves many past their date.
    const due = dialog.getByRole('table', { name: 'Orders that would be erased' }).locator('tbody tr');
    expect(await due.count()).toBeGreaterThan(1);
    await page.screenshot(shot('retention-dry-run-1280.png'));
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.setViewportSize({ width: 360, height: 800 });
    await page.getByRole('table', { name: 'Retention runs' }).waitFor();
    await page.screenshot(shot('retention-360.png'));
    await page.close();
  });

  it('an Admin answers a customer: the summary, the PDF, then the erasure after confirming', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    const list = await apiGet<OrderListPage>(page, '/api/admin/get-orders-list/completedOrder?page=1&limit=1');
    const email = list.rows[0]!.email;
    await page.goto(`${server.baseUrl}/admin/customer-requests`);
    await page.getByLabel('Customer e-mail address').fill(email);
    await page.getByRole('button', { name: 'Find' }).click();
    const orders = page.getByRole('table', { name: 'Orders of this person' });
    await orders.getByText(list.rows[0]!.order_id).waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    expect((await download).suggestedFilename()).toMatch(/^subject-access-\d{4}-\d{2}-\d{2}\.pdf$/);
    await page.screenshot(shot('customer-requests-1280.png'));

    await page.getByRole('button', { name: 'Erase personal data' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByRole('status').filter({ hasText: 'erased' }).waitFor();
    // The address went with the erased data: the order is no longer found under it.
    await orders.getByText('No order has this e-mail address.').waitFor();
    await page.screenshot(shot('customer-requests-erased-1280.png'));
    await page.close();
  });

  it('an Admin places a legal hold on an order from its page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    const list = await apiGet<OrderListPage>(page, '/api/admin/get-orders-list/newOrder?page=1&limit=1');
    const orderId = list.rows[0]!.order_id;
    await page.goto(`${server.baseUrl}/admin/view-order/${Buffer.from(orderId).toString('base64url')}`);
    await page.getByRole('button', { name: 'Place legal hold' }).click();
    const dialog = page.getByRole('dialog', { name: `Place legal hold on ${orderId}` });
    await dialog.getByLabel('Reason').fill('Litigation: case 2026-114');
    await dialog.getByRole('button', { name: 'Place hold' }).click();
    await page.getByText('On legal hold').waitFor();
    await page
      .getByText(/Litigation: case 2026-114/)
      .first()
      .waitFor();
    await page.screenshot(shot('order-legal-hold-1280.png'));
    await page.close();
  });
});
