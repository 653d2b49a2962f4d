// The customer portal on a phone (issue 9): the approval mail of an upload (SendGrid's real SDK, answered by a
// loopback stand-in) carries the track-order link; the customer opens it at 360 x 740, tracks the order with
// their e-mail, downloads the document (the bytes that were uploaded), sees the new row in Downloaded History
// and in the staff's Download History, and switches the portal to French.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, resultsDir, startServer, type RunningServer } from './harness.js';
import { UPLOAD_FIELDS } from '@eta/contracts';
import { approvalPdf, startSendgridStandIn } from './stand-ins.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

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

async function staffCall<T>(token: string, url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    ...init,
    headers: { authorization: token, ...(init.headers as Record<string, string> | undefined) },
  });
  const body = (await response.json()) as { status: number; data: T; jwtToken?: string };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return body as T;
}

/** The delivery flow as a Team member does it: the approved PDF uploaded on a New order, mailed via SendGrid. */
async function deliverAnOrder(): Promise<{ orderId: string; token: string; pdf: Buffer }> {
  const team = server.demoStaff.find((s) => s.type === 'Team')!;
  const login = await fetch(`${server.baseUrl}/api/admin/admin-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: team.email, password: server.demoPassword }),
  });
  const token = ((await login.json()) as { jwtToken: string }).jwtToken;
  const list = await staffCall<{ data: { rows: { order_id: string; email: string }[] } }>(
    token,
    '/api/admin/get-orders-list/newOrder?page=1&limit=1',
  );
  const order = list.data.rows[0]!;
  const pdf = await approvalPdf(server.baseUrl, token, order.order_id);
  const form = new FormData();
  form.append('orderId', order.order_id);
  form.append('email', order.email);
  form.append('mailServiceProvider', 'Sendgrid');
  form.append(UPLOAD_FIELDS.file, new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'approval.pdf');
  await staffCall(token, '/api/admin/upload-visa-document', { method: 'POST', body: form });
  return { orderId: order.order_id, token, pdf };
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('customer portal', () => {
  it('tracks from the approval mail, downloads the uploaded document on a phone and switches to French', async () => {
    const { orderId, token, pdf } = await deliverAnOrder();
    await expect.poll(() => standIn.arrived.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const mail = standIn.arrived.find((m) => m.subject.includes(orderId))!;
    const link = /href="([^"]*\/track-order\/[^"]+)"/.exec(mail.html)?.[1]?.replace(/&amp;/g, '&');
    expect(link).toMatch(new RegExp(`^${server.baseUrl}/track-order/${orderId}`));

    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      userAgent: IPHONE,
      isMobile: true,
      hasTouch: true,
      locale: 'en-CA',
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Download your Electronic Travel Authorization (eTA)' }).waitFor();
    expect(await page.getByLabel('Order ID').inputValue()).toBe(orderId);
    // The portal is its own page: no staff-console code arrives on a customer's phone.
    expect(scripts.some((s) => /console|framework/.test(s))).toBe(false);
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(360);

    await page.getByRole('button', { name: 'TRACK ORDER' }).click();
    await page.getByText('Please enter your email').waitFor();
    await page.getByLabel('Email ID').fill('someone.else@example.com');
    await page.getByRole('button', { name: 'TRACK ORDER' }).click();
    const toast = page.getByRole('alert').filter({ hasText: /could not find an order with this Order ID and e-mail/ });
    await toast.waitFor();
    // On a phone the toast is at the bottom of the screen, clear of the logo, the language switch and the menu.
    const toastBox = (await toast.boundingBox())!;
    const headerBox = (await page.locator('header').boundingBox())!;
    expect(toastBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
    expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(740);
    expect(toastBox.y + toastBox.height).toBeGreaterThan(740 - 100);
    await page.screenshot({ path: path.join(resultsDir, 'portal-track-360.png'), animations: 'disabled' });

    await page.getByLabel('Email ID').fill(` ${mail.to[0]!.toUpperCase()} `);
    await page.getByRole('button', { name: 'TRACK ORDER' }).click();
    await page.waitForURL(new RegExp(`/get-new-order-details/${orderId}`));
    await page.getByText(`Your order ${orderId} has been found.`).waitFor();
    await page.getByText('Your eTA has not been downloaded yet.').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Now' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`eTA-${orderId}.pdf`);
    const saved = path.join(resultsDir, `portal-${orderId}.pdf`);
    await download.saveAs(saved);
    expect((await readFile(saved)).equals(pdf)).toBe(true);

    const history = page.getByRole('table', { name: 'Downloaded History' });
    await history.getByText('Mobile Safari 17').waitFor();
    await history.getByText('iOS 17.4').waitFor();
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(360);
    await page.screenshot({
      path: path.join(resultsDir, 'portal-download-360.png'),
      fullPage: true,
      animations: 'disabled',
    });

    // The staff's Download History has the same download at once.
    const detail = await staffCall<{ data: { downloadHistory: { browser: string; device_type: string }[] } }>(
      token,
      `/api/admin/get-orders-details/${orderId}`,
    );
    expect(detail.data.downloadHistory).toEqual([
      expect.objectContaining({ browser: 'Mobile Safari 17', device_type: 'mobile' }),
    ]);

    await page.getByRole('button', { name: 'Afficher en français' }).click();
    await page.getByRole('heading', { name: 'Téléchargez votre AVE' }).waitFor();
    await page.getByText('Historique des téléchargements').waitFor();
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(360);
    await page.screenshot({
      path: path.join(resultsDir, 'portal-download-fr-360.png'),
      fullPage: true,
      animations: 'disabled',
    });

    // Reached without tracking (another browser), the page sends the customer back to the tracking form.
    const stranger = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await stranger.goto(`${server.baseUrl}/get-new-order-details/${orderId}`);
    await stranger.waitForURL(new RegExp(`/track-order/${orderId}`));
    await stranger.getByText(/Please track your order with its Order ID and e-mail address/).waitFor();
    await stranger.close();

    // The wide screen: the order id on one line (it broke after 'ETA-', issue 22), then the picture for the record.
    await page.setViewportSize({ width: 1280, height: 800 });
    const idCell = page.getByRole('table').getByText(orderId, { exact: true });
    const lineHeight = await idCell.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await idCell.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
    await page.screenshot({ path: path.join(resultsDir, 'portal-download-fr-1280.png'), animations: 'disabled' });
    await context.close();
  });
});
