// Administration in a real browser (issue 10): an Admin adds a Team member, signs out; the member signs in,
// sees the Team menu (no Manage Team, Gateway Setting, Order Processed or Activity) and cannot open Gateway
// Setting by URL; the Admin opens the country report, filters a month and downloads its CSV, which holds
// exactly the rows the server reports for that month.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, resultsDir, signIn, withServerAndBrowser, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;

withServerAndBrowser({ demoOrders: 1500 }, (s, b) => {
  server = s;
  browser = b;
});

const MEMBER = { name: 'Ella Evans', email: 'ella.evans@e2e.local', password: 'ella-e2e-pass' };

async function logout(page: Page) {
  await page.locator('#account-button').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL(`${server.baseUrl}/`);
  await expect.poll(() => page.getByRole('button', { name: 'Sign In', exact: true }).isVisible()).toBe(true);
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
const menuLabels = async (page: Page) => (await menu(page).getByRole('link').allTextContents()).map((t) => t.trim());

describe('administration', () => {
  it('an Admin adds a Team member, who signs in, sees the Team menu and cannot open Gateway Setting', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    await menu(page).getByRole('link', { name: 'Manage Team' }).click();
    await page.getByRole('heading', { level: 1, name: 'Manage Team' }).waitFor();

    const form = page.getByRole('form', { name: 'Add team member' });
    await form.getByRole('textbox', { name: 'Name' }).fill(MEMBER.name);
    await form.getByRole('textbox', { name: 'Email' }).fill(MEMBER.email);
    await form.getByLabel('Password').fill(MEMBER.password);
    await form.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Team', exact: true }).click();
    await form.getByRole('button', { name: 'Add Team Member' }).click();
    await page.getByText('Team member added successfully.').first().waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill('ella');
    const row = page.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ hasText: MEMBER.email });
    await row.waitFor();
    // The search (debounced) leaves only the new member.
    await expect.poll(() => page.getByRole('table', { name: 'Team members' }).locator('tbody tr').count()).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual([
      '1',
      MEMBER.name,
      MEMBER.email,
      '••••••••',
      'Team',
      'EditDelete',
    ]);
    await page.screenshot({
      path: path.join(resultsDir, 'administration-team-1280.png'),
      fullPage: true,
      animations: 'disabled',
    });
    await logout(page);

    await signIn(page, server.baseUrl, MEMBER.email, MEMBER.password);
    await menu(page).getByRole('link', { name: 'Country Order List' }).waitFor();
    const labels = await menuLabels(page);
    expect(labels).toContain('Country Order List');
    expect(labels).toContain('Change Password');
    for (const hidden of ['Manage Team', 'Gateway Setting', 'Order Processed', 'Activity'])
      expect(labels).not.toContain(hidden);
    await page.goto(`${server.baseUrl}/admin/gateway-setting`);
    await page.getByText('You do not have access to this page.').waitFor();
    expect(await page.getByRole('button', { name: 'Active Gateway' }).count()).toBe(0);
    const refused = await page.evaluate(async () => {
      const { accessToken } = JSON.parse(localStorage.getItem('user') ?? '{}') as { accessToken?: string };
      const response = await fetch('/api/admin/payment-gateways', { headers: { Authorization: accessToken ?? '' } });
      return response.status;
    });
    expect(refused).toBe(403);
    await page.setViewportSize({ width: 360, height: 780 });
    await page.screenshot({
      path: path.join(resultsDir, 'administration-team-member-refused-360.png'),
      fullPage: true,
      animations: 'disabled',
    });
    await logout(page);
    await page.close();
  });

  it('the Admin opens the country report, filters a month and downloads the CSV of exactly those rows', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    await menu(page).getByRole('link', { name: 'Country Order List' }).click();
    await page.getByRole('heading', { level: 1, name: 'Country Order Details' }).waitFor();
    const table = page.getByRole('table', { name: 'Country Order Details' });
    await table.locator('tbody tr td').nth(1).waitFor();

    // October 2026 of the demo data (orders span the two years before 2026-11-20).
    await page.getByRole('textbox', { name: 'From' }).fill('2026-10-01');
    await page.getByRole('textbox', { name: 'To' }).fill('2026-10-31');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page
      .getByText(/^Orders by country, from 2026-10-01 to 2026-10-31: \d+ countr/)
      .first()
      .waitFor();
    const expected = await page.evaluate(async () => {
      const { accessToken } = JSON.parse(localStorage.getItem('user') ?? '{}') as { accessToken?: string };
      const response = await fetch('/api/admin/get-country-order-count', {
        method: 'POST',
        headers: { Authorization: accessToken ?? '', 'Content-Type': 'application/json' },
        body: JSON.stringify({ fromDate: '2026-10-01', toDate: '2026-10-31' }),
      });
      return ((await response.json()) as { data: { citizen_country: string; count: number }[] }).data;
    });
    expect(expected.length).toBeGreaterThan(0);
    const firstRow = table.locator('tbody tr').first();
    await expect
      .poll(async () => (await firstRow.locator('td').allTextContents())[1])
      .toBe(expected[0]!.citizen_country || 'Not given');
    await page.getByRole('figure', { name: 'Orders by country' }).getByRole('listitem').first().waitFor();
    await page.screenshot({
      path: path.join(resultsDir, 'administration-country-report-1280.png'),
      fullPage: true,
      animations: 'disabled',
    });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('country-orders-2026-10-01-to-2026-10-31.csv');
    const csvPath = path.join(resultsDir, 'administration-country-orders.csv');
    await download.saveAs(csvPath);
    const lines = (await readFile(csvPath, 'utf8'))
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toBe(
      'S. No,State/Territory,Order Count,Standard Processing,Priority Processing,Future Order Processing',
    );
    expect(lines.slice(1).map((l) => l.split(',').slice(1, 3))).toEqual(
      expected.map((r) => [r.citizen_country || 'Not given', String(r.count)]),
    );

    await page.setViewportSize({ width: 360, height: 780 });
    await page.screenshot({
      path: path.join(resultsDir, 'administration-country-report-360.png'),
      fullPage: true,
      animations: 'disabled',
    });
    await page.close();
  });
});
