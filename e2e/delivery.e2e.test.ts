// Delivery and evidence in a real browser (issue 8): a Team member uploads the approved PDF on a New order, sees
// it Completed and the approval mail in Email History as sent (through SendGrid's real SDK, answered by a loopback
// stand-in of its API), reads the mail in View Email Content, opens Defence Pack 1 as a PDF in a new tab, and
// sends the order's invoice from the Send Invoice page.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, resultsDir, signIn, startServer, type RunningServer } from './harness.js';
import { approvalPdf, startSendgridStandIn } from './stand-ins.js';

let standIn: Awaited<ReturnType<typeof startSendgridStandIn>>;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  standIn = await startSendgridStandIn();
  server = await startServer({
    env: { SENDGRID_API_KEY: 'SG.test', SENDGRID_API_URL: standIn.url, MAIL_POLL_SECONDS: '1' },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await standIn?.close();
});

const teamEmail = () => {
  const user = server.demoStaff.find((s) => s.type === 'Team');
  if (!user) throw new Error(`no demo Team member in ${JSON.stringify(server.demoStaff)}`);
  return user.email;
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const section = (page: Page, name: string) => page.getByRole('region', { name });

/** The first order of the New queue, opened from the list. */
async function openNewOrder(page: Page): Promise<string> {
  await page.goto(`${server.baseUrl}/admin/recent-order?page=1&limit=10`);
  await page.getByRole('heading', { name: 'New Orders' }).waitFor();
  const firstBox = page.getByRole('checkbox', { name: /^Select order / }).first();
  await firstBox.waitFor();
  const orderId = (await firstBox.getAttribute('aria-label'))!.replace('Select order ', '');
  await page.getByRole('row').filter({ hasText: orderId }).getByRole('link', { name: 'View' }).click();
  await page.getByRole('heading', { level: 1, name: orderId }).waitFor();
  return orderId;
}

/** The signed-in staff member's token, as the console keeps it. */
const tokenOf = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { accessToken: string }).accessToken);

describe('delivery and evidence', () => {
  it('uploads the approved PDF, mails it, shows the mail, opens Defence Pack 1 and sends the invoice', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.baseUrl, teamEmail(), server.demoPassword);
    const orderId = await openNewOrder(page);
    await page.getByText('Status: New').waitFor();
    expect(await section(page, 'Email History').count()).toBe(0);

    // Upload Document: the order's own address, SendGrid, a real PDF.
    const upload = section(page, 'Upload Document');
    const customer = await upload.getByRole('textbox', { name: 'Email' }).inputValue();
    expect(customer).toMatch(/@/);
    await upload.getByRole('combobox', { name: 'Mail service provider' }).click();
    await page.getByRole('option', { name: 'Sendgrid' }).click();
    await upload.getByLabel('Approved document', { exact: true }).setInputFiles({
      name: 'approval.pdf',
      mimeType: 'application/pdf',
      buffer: await approvalPdf(server.baseUrl, await tokenOf(page), orderId),
    });
    await upload.getByText(/^approval\.pdf \(\d+ KB\)$/).waitFor();
    await upload.getByRole('button', { name: 'Upload' }).click();
    await page
      .getByText(`Document uploaded and order ${orderId} completed. The approval mail to ${customer} is on its way.`)
      .first()
      .waitFor();
    await page.getByText('Status: Completed').waitFor();
    await upload.getByRole('table', { name: 'Uploaded documents' }).getByText('approval.pdf').waitFor();

    // Email History: the approval mail goes from queued to sent while the page watches.
    const history = section(page, 'Email History');
    const approvalRow = history.getByRole('row').filter({ hasText: 'approval' });
    await approvalRow.getByText('sent', { exact: true }).waitFor({ timeout: 30_000 });
    await approvalRow.getByText(/^sendgrid-e2e-\d+$/).waitFor();
    expect(standIn.arrived.find((m) => m.to.includes(customer))?.subject).toContain(orderId);
    // At 1280 px what explains a mail's outcome is in view without scrolling the table sideways (issue 22).
    const mailTable = page.getByRole('table', { name: 'Email History' });
    const scroller = await mailTable.locator('xpath=..').boundingBox();
    for (const heading of ['State', 'Sent', 'Last error', 'Provider message id']) {
      const cell = await mailTable.getByRole('columnheader', { name: heading, exact: true }).boundingBox();
      expect(cell!.x + cell!.width, heading).toBeLessThanOrEqual(scroller!.x + scroller!.width + 1);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: path.join(resultsDir, 'delivery-order-1280.png'),
      fullPage: true,
      animations: 'disabled',
    });

    // View Email Content: the mail as sent, its track-order link inside the sandboxed frame.
    await section(page, 'Actions').getByRole('button', { name: 'View Email Content' }).click();
    const dialog = page.getByRole('dialog', { name: 'Email Content' });
    await dialog.getByText(/^Sent through Sendgrid at /).waitFor();
    await dialog.getByText(`Your Canada eTA is approved - order ${orderId}`, { exact: false }).first().waitFor();
    const frame = dialog.locator('iframe');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const trackLink = page.frameLocator('[role="dialog"] iframe').locator(`a[href*="/track-order/${orderId}"]`);
    await trackLink.first().waitFor();
    expect(await trackLink.count()).toBeGreaterThan(0);
    // The site's logo shows in the frame: the frame's origin is opaque, so a logo served same-origin only was
    // refused (ERR_BLOCKED_BY_RESPONSE.NotSameOrigin) and the mail showed a broken image (issue 33).
    const logo = page.frameLocator('[role="dialog"] iframe').locator('img[src*="/brand/"]').first();
    await logo.waitFor();
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await page.screenshot({ path: path.join(resultsDir, 'delivery-mail-content-1280.png'), animations: 'disabled' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Defence Pack 1: a PDF from the server, shown in the tab opened on the click. The answer is read on its way
    // to the page (the console's CSP rightly lets no script fetch the blob: address back).
    let packBytes: Buffer = Buffer.alloc(0);
    await page.route('**/api/admin/get-defence-pack-pdf', async (route) => {
      const response = await route.fetch();
      packBytes = await response.body();
      await route.fulfill({ response });
    });
    const [pack, popup] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/admin/get-defence-pack-pdf')),
      page.waitForEvent('popup'),
      section(page, 'Actions').getByRole('button', { name: 'Defence Pack 1' }).click(),
    ]);
    expect(pack.status()).toBe(200);
    expect(pack.headers()['content-type']).toBe('application/pdf');
    expect(JSON.parse(pack.request().postData() ?? '{}')).toEqual({ orderId, defencePackType: 1 });
    expect(packBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await popup.waitForURL(/^blob:http:\/\/127\.0\.0\.1:\d+\//);
    expect(await popup.evaluate(() => document.contentType)).toBe('application/pdf');
    // The PDF viewer paints in its own process, with no event to wait for: give it a moment for the image.
    await popup.waitForTimeout(2000);
    await popup.screenshot({ path: path.join(resultsDir, 'delivery-defence-pack-1280.png'), animations: 'disabled' });
    await popup.close();
    await page.unroute('**/api/admin/get-defence-pack-pdf');

    // The same order on a phone: the sections stack, the tables scroll inside their boxes.
    const phone = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await signIn(phone, server.baseUrl, teamEmail(), server.demoPassword);
    await phone.goto(page.url());
    await section(phone, 'Email History').getByText('sent', { exact: true }).first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.screenshot({
      path: path.join(resultsDir, 'delivery-order-360.png'),
      fullPage: true,
      animations: 'disabled',
    });
    await section(phone, 'Actions').getByRole('button', { name: 'View Email Content' }).click();
    await phone
      .getByRole('dialog', { name: 'Email Content' })
      .getByText(/^Sent through Sendgrid at /)
      .waitFor();
    await phone.screenshot({ path: path.join(resultsDir, 'delivery-mail-content-360.png'), animations: 'disabled' });
    await phone.close();

    // Send Invoice, from the side menu.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Manage Invoices' }).click();
    await page.getByRole('heading', { level: 1, name: 'Send Invoice' }).waitFor();
    await page.getByRole('button', { name: 'Send Invoice' }).click();
    await page.getByText('Please enter your order id.').waitFor();
    await page.getByRole('textbox', { name: 'Order ID' }).fill(orderId);
    await page.getByRole('button', { name: 'Send Invoice' }).click();
    const sent = page.getByText(
      new RegExp(`^Invoice INV-\\d{4}-\\d{6} is being sent to ${escapeRegExp(customer)}\\.$`),
    );
    await sent.first().waitFor();
    await page.getByRole('link', { name: `Open order ${orderId}` }).waitFor();
    await page.screenshot({ path: path.join(resultsDir, 'send-invoice-1280.png'), animations: 'disabled' });
    await expect
      .poll(() => standIn.arrived.find((m) => m.attachments.some((a) => a.type === 'application/pdf'))?.to, {
        timeout: 20_000,
      })
      .toEqual([customer]);

    // The invoice mail shows in the order's Email History.
    await page.getByRole('link', { name: `Open order ${orderId}` }).click();
    await section(page, 'Email History').getByRole('row').filter({ hasText: 'invoice' }).first().waitFor();

    const phoneInvoice = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await signIn(phoneInvoice, server.baseUrl, teamEmail(), server.demoPassword);
    await phoneInvoice.goto(`${server.baseUrl}/admin/send-invoice`);
    await phoneInvoice.getByRole('button', { name: 'Send Invoice' }).click();
    await phoneInvoice.getByText('Please enter your order id.').waitFor();
    expect(await phoneInvoice.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phoneInvoice.screenshot({ path: path.join(resultsDir, 'send-invoice-360.png'), animations: 'disabled' });
    await phoneInvoice.close();
    await page.close();
  });
});
