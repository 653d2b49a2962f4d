// Working one order in a real browser (issue 7): a Team member opens an order from the New queue, assigns it
// to themselves, comments with two flags, moves it to Awaiting Govt and finds it in that queue and in the
// timeline; a Manager who had the order open before the move is refused with who changed it and when.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { demoUserEmail, resultsDir, signIn, staffName, withServerAndBrowser, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;

withServerAndBrowser({}, (s, b) => {
  server = s;
  browser = b;
});

const demoUser = (type: string) => demoUserEmail(server, type);

async function confirmYes(page: Page) {
  await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

describe('order detail', () => {
  it('a Team member works an order from the New queue; a Manager with a stale copy is refused', async () => {
    const team = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(team, server.baseUrl, demoUser('Team'), server.demoPassword);
    const teamName = await staffName(team);

    await team.goto(`${server.baseUrl}/admin/recent-order?page=1&limit=25`);
    await team.getByRole('heading', { name: 'New Orders' }).waitFor();
    const firstBox = team.getByRole('checkbox', { name: /^Select order / }).first();
    await firstBox.waitFor();
    const orderId = (await firstBox.getAttribute('aria-label'))!.replace('Select order ', '');
    await team.getByRole('row').filter({ hasText: orderId }).getByRole('link', { name: 'View' }).click();
    const encoded = Buffer.from(orderId).toString('base64url');
    await team.waitForURL(`${server.baseUrl}/admin/view-order/${encoded}`);
    await team.getByRole('heading', { level: 1, name: orderId }).waitFor();
    expect(await team.title()).toBe(`${orderId} | Canada eTA — Electronic Travel Authorization`);
    expect(await team.getByTestId('order-holder').textContent()).toBe('Not assigned');

    // Assign to me.
    await team.getByRole('button', { name: 'Assign to me' }).click();
    await team.getByRole('dialog').getByText('Are you sure want to assigned orders.').waitFor();
    await confirmYes(team);
    await team.getByText('Order has been assigned successfully').first().waitFor();
    await expect
      .poll(() => team.getByTestId('order-holder').textContent())
      .toMatch(new RegExp(`^Held by ${teamName} since \\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d:\\d\\d UTC$`));

    // A comment with two flags, then open it.
    const remark = `Passport scan checked <b>${Date.now()}</b>`;
    const form = section(team, 'Add Comment Below');
    await form.getByRole('textbox', { name: 'Comment' }).fill(remark);
    await form.getByLabel('WhatsApp', { exact: true }).check();
    await form.getByLabel('Telephone', { exact: true }).check();
    await form.getByRole('button', { name: 'Add Comment' }).click();
    await team.getByText('Comment added.').first().waitFor();
    const history = section(team, 'Comment History');
    const newest = history.getByRole('button').first();
    await expect.poll(() => newest.textContent()).toContain(teamName);
    await newest.click();
    expect(await newest.getAttribute('aria-expanded')).toBe('true');
    await history.getByText('Flags: WhatsApp, Telephone').waitFor();
    // The markup shows as typed.
    expect(await history.getByText(remark, { exact: true }).count()).toBeGreaterThan(0);
    expect(await history.locator('b').count()).toBe(0);
    expect(await form.getByRole('textbox', { name: 'Comment' }).inputValue()).toBe('');

    // A Manager opens the same order now, before the move.
    const manager = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(manager, server.baseUrl, demoUser('Manager'), server.demoPassword);
    await manager.goto(`${server.baseUrl}/admin/view-order/${encoded}`);
    await manager.getByText('Status: Pending').waitFor();
    // Every opening is on record (issue 24): the Manager sees the Team member's under Viewed by.
    await section(manager, 'Viewed by')
      .getByRole('row')
      .filter({ hasText: teamName })
      .filter({ hasText: 'Order detail' })
      .first()
      .waitFor();
    // ...and their own opening at once, before it is written (issue 33).
    const managerName = await staffName(manager);
    await section(manager, 'Viewed by')
      .getByRole('row')
      .nth(1)
      .filter({ hasText: managerName })
      .filter({ hasText: 'Order detail' })
      .waitFor();
    expect(
      await section(manager, 'Viewed by')
        .getByText(/Nobody has opened/)
        .count(),
    ).toBe(0);

    // The Team member moves it to Awaiting Govt.
    await section(team, 'Add Comment Below').getByRole('button', { name: 'Awaiting Govt', exact: true }).click();
    await team.getByRole('dialog').getByText('Are you sure want to move this order to Awaiting Govt?').waitFor();
    await confirmYes(team);
    await team.getByText('Order moved to Awaiting Govt.').first().waitFor();
    await team.getByText('Status: Awaiting Govt').waitFor();
    const activity = section(team, 'Activity');
    await activity.getByText(`${teamName} Status changed (Pending → Awaiting Govt)`).waitFor();
    const steps = await activity.getByRole('listitem').allTextContents();
    const assigned = steps.findIndex((s) => s.includes('Assigned (New → Pending)'));
    // The comment made here is the last one: a demo order may have comments of its own from before (issue 33).
    const commented = steps.findLastIndex((s) => s.includes('Comment added'));
    const moved = steps.findIndex((s) => s.includes('Status changed (Pending → Awaiting Govt)'));
    expect(assigned).toBeGreaterThanOrEqual(0);
    expect(assigned).toBeLessThan(commented);
    expect(commented).toBeLessThan(moved);
    // From the top, so the fixed header and side menu are drawn where they belong in the full-page image.
    await team.evaluate(() => window.scrollTo(0, 0));
    await team.screenshot({ path: path.join(resultsDir, 'order-detail-1280.png'), fullPage: true });

    // Back returns to the list with its page and size.
    await team.getByRole('button', { name: 'Back to New Orders' }).click();
    await team.waitForURL(`${server.baseUrl}/admin/recent-order?page=1&limit=25`);

    // It is in the Awaiting Govt queue now.
    await team
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: /Awaiting Govt/ })
      .click();
    await team.waitForURL(/\/admin\/awaiting-govt/);
    await team.getByRole('heading', { name: 'Awaiting Govt' }).waitFor();
    await team.getByLabel('Search').fill(orderId);
    await team.waitForURL(new RegExp(`q=${orderId}`));
    // Its status with the time it has been in it (issue 35), in the status's words.
    await team
      .getByRole('row')
      .filter({ hasText: orderId })
      .getByText(/^\d+ min in Awaiting Govt$/)
      .waitFor();

    // The Manager's copy is stale: the move is refused, naming who changed the order and when.
    await section(manager, 'Add Comment Below').getByRole('button', { name: 'Contact Customer' }).click();
    await confirmYes(manager);
    const refusal = manager.getByText(
      new RegExp(
        `^Order ${orderId} was changed by ${teamName} at \\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d:\\d\\d UTC after you opened it\\..* The order has been reloaded\\.$`,
      ),
    );
    await refusal.waitFor();
    await manager.getByText('Status: Awaiting Govt').waitFor();
    await manager.screenshot({ path: path.join(resultsDir, 'order-detail-stale-1280.png') });
    await manager.close();

    // The same page on a phone: sections stack, tables scroll inside their box.
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await signIn(phone, server.baseUrl, demoUser('Team'), server.demoPassword);
    await phone.goto(`${server.baseUrl}/admin/view-order/${encoded}`);
    await phone.getByRole('heading', { level: 1, name: orderId }).waitFor();
    const pageWidth = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(360);
    await phone.screenshot({ path: path.join(resultsDir, 'order-detail-360.png'), fullPage: true });
    await phone.close();
    await team.close();
  });

  it('an unknown order shows "Order not found" inside the console', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.baseUrl, demoUser('Team'), server.demoPassword);
    await page.goto(`${server.baseUrl}/admin/view-order/${Buffer.from('ETA-000000001').toString('base64url')}`);
    await page.getByRole('heading', { level: 1, name: 'Order not found' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(true);
    await page.close();
  });
});
