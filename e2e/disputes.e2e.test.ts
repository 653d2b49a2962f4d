// A chargeback from Stripe to the evidence in a real browser (issue 21). The server talks to a loopback stand-in of
// Stripe's API through the official SDK: an order paid by a PaymentIntent the stand-in knows comes in through intake
// (verified there), is delivered (Completed), and a signed charge.dispute.created webhook puts it in ChargeBack. An
// Admin sees the ChargeBack count rise, finds the order in the queue with its days left, opens it and submits the
// evidence; the stand-in receives the PDF (purpose dispute_evidence) and the dispute update with submit=true. Then
// the Gateway Setting page shows Stripe's last webhook and the Disputes Report counts the dispute. Screenshots at
// 1280 px and 360 px; on the phone a tap on a queue row opens its order.
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { intakeExample, type DisputesReportRow } from '@eta/contracts';
import { ADMIN, launchBrowser, resultsDir, signIn, startServer, type RunningServer } from './harness.js';
import { approvalPdf, startSendgridStandIn } from './stand-ins.js';
import {
  startStripeStandIn,
  stripeDispute,
  stripeEvent,
  type StripeStandIn,
} from '../apps/server/test/helpers/stripe-stand-in.js';

let stripe: StripeStandIn;
let sendgrid: Awaited<ReturnType<typeof startSendgridStandIn>>;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  sendgrid = await startSendgridStandIn();
  server = await startServer({
    env: {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
      STRIPE_FILES_URL: stripe.filesUrl,
      SENDGRID_API_KEY: 'SG.test',
      SENDGRID_API_URL: sendgrid.url,
    },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sendgrid?.close();
  await stripe?.close();
});

const DAY_MS = 86_400_000;
const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: path.join(resultsDir, name), fullPage, animations: 'disabled' });

/** Whether the page is wider than its window (something pushes it sideways). */
const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** The ChargeBack count beside its link in the side menu. */
async function chargeBackCount(page: Page): Promise<number> {
  const link = menu(page).getByRole('link', { name: /^Charge Back/ });
  await expect.poll(async () => /\d+$/.test((await link.textContent()) ?? '')).toBe(true);
  return Number(/(\d+)$/.exec((await link.textContent()) ?? '')![1]);
}

/** The staff API as the console calls it, with the signed-in Admin's token. */
async function staffCall(token: string, url: string, init: { method?: string; body?: unknown } = {}) {
  const isForm = init.body instanceof FormData;
  const response = await fetch(`${server.baseUrl}${url}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: token, ...(init.body && !isForm ? { 'Content-Type': 'application/json' } : {}) },
    body: init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
  });
  const body = (await response.json()) as { status: number; message: string; data?: unknown };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** An order paid through Stripe, placed by the default landing site and delivered: Completed. */
async function completedStripeOrder(token: string) {
  const key = (
    (await staffCall(token, '/api/admin/landing-sites/default/intake-key', { method: 'POST', body: {} })).data as {
      intakeKey: string;
    }
  ).intakeKey;
  const suffix = randomBytes(6).toString('hex');
  const intent = { id: `pi_e2e${suffix}`, chargeId: `ch_e2e${suffix}` };
  stripe.payments.set(intent.id, { ...intent, status: 'succeeded', amount: 8900, currency: 'usd' });
  const example = intakeExample(new Date().toISOString().slice(0, 10));
  const email = `dispute-e2e-${suffix}@example.com`;
  const placed = await fetch(`${server.baseUrl}/api/intake/orders`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Idempotency-Key': randomUUID(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...example, email, payment: { ...example.payment, transaction_id: intent.id } }),
  });
  const answer = (await placed.json()) as {
    data?: { order_id: string; payment?: { status: string; verified: boolean } };
  };
  expect(placed.status, JSON.stringify(answer)).toBe(201);
  expect(answer.data!.payment).toMatchObject({ status: 'Success', verified: true });
  const orderId = answer.data!.order_id;

  const form = new FormData();
  form.append('orderId', orderId);
  form.append('email', email);
  form.append(
    'uploadVisaDoc',
    new Blob([new Uint8Array(await approvalPdf(server.baseUrl, token, orderId))], { type: 'application/pdf' }),
    'approval.pdf',
  );
  form.append('mailServiceProvider', 'Sendgrid');
  await staffCall(token, '/api/admin/upload-visa-document', { method: 'POST', body: form });
  return { orderId, intent };
}

describe('a Stripe chargeback answered from the desk', () => {
  it('moves the order to ChargeBack, shows its days left and submits the evidence to Stripe', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    const adminName = ((await page.locator('#account-button').textContent()) ?? '').replace(/^Welcome /, '').trim();
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('user') ?? '{}') as { accessToken: string }).accessToken,
    );
    const { orderId, intent } = await completedStripeOrder(token);
    const before = await chargeBackCount(page);
    // The report's row this dispute goes into (this month, the default site, Stripe, product not received): the demo
    // data may already have disputes there.
    const reportRowNow = async () => {
      const { data } = (await staffCall(token, '/api/admin/reports/disputes', { method: 'POST', body: {} })) as {
        data: { rows: DisputesReportRow[] };
      };
      const month = new Date().toISOString().slice(0, 7);
      const row = data.rows.find(
        (r) =>
          r.month === month &&
          r.landing_site === 'default' &&
          r.gateway_name === 'Stripe' &&
          r.reason === 'product_not_received',
      );
      return row ?? { opened: 0, won: 0, lost: 0, open: 0 };
    };
    const reportBefore = await reportRowNow();

    // Stripe says the customer disputed the charge: evidence due in 7 days (and an hour).
    const disputeId = `dp_e2e${randomBytes(6).toString('hex')}`;
    const body = stripeEvent(
      'charge.dispute.created',
      stripeDispute({
        id: disputeId,
        charge: intent.chargeId,
        paymentIntent: intent.id,
        amount: 8900,
        reason: 'product_not_received',
        dueBy: new Date(Date.now() + 7 * DAY_MS + 3_600_000),
      }),
    );
    const delivered = await fetch(`${server.baseUrl}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripe.sign(body) },
      body,
    });
    expect(delivered.status, await delivered.text()).toBe(200);

    await page.reload();
    await expect.poll(() => chargeBackCount(page)).toBe(before + 1);

    // The ChargeBack queue, searched by the order id: its dispute and the days left.
    await menu(page)
      .getByRole('link', { name: /^Charge Back/ })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Charge Back' }).waitFor();
    await page.getByRole('columnheader', { name: 'Days left' }).waitFor();
    await page
      .getByRole('checkbox', { name: /^Select order / })
      .first()
      .waitFor();
    await shot(page, 'disputes-chargeback-queue-1280.png', false);
    await page.getByLabel('Search').fill(orderId);
    await page.waitForURL(new RegExp(`q=${orderId}`));
    const row = page.getByRole('row').filter({ hasText: orderId });
    await row.getByText('7 days left').waitFor();
    // Polled: the unsearched list shows the same (newest) order first, and the search's answer replaces its rows.
    await expect
      .poll(async () => (await row.locator('td').allTextContents()).slice(5, 9))
      .toEqual([
        'Product not received',
        '89.00 USD',
        new Date(Date.now() + 7 * DAY_MS + 3_600_000).toISOString().slice(0, 10).split('-').reverse().join('/'),
        '7 days left',
      ]);
    // Every column, Action included, fits beside the menu.
    expect(
      await page.evaluate(() => {
        const box = document.querySelector('table')!.parentElement!;
        return box.scrollWidth <= box.clientWidth;
      }),
    ).toBe(true);

    // The order: its Chargeback panel, then Submit evidence with the preview of defence pack 1.
    await row.getByRole('link', { name: 'View' }).click();
    await page.getByRole('heading', { level: 1, name: orderId }).waitFor();
    const panel = page.getByRole('region', { name: 'Chargeback' });
    await panel.getByText(disputeId, { exact: true }).waitFor();
    await panel.getByText('Not sent yet').waitFor();
    await panel.getByText('7 days left').first().waitFor();
    await panel.getByRole('button', { name: 'Submit evidence' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit evidence' });
    await dialog.getByText(`defence-pack-1-${orderId}.pdf`).waitFor();
    await dialog.getByText('customer_email_address').waitFor();
    await shot(page, 'disputes-submit-evidence-1280.png', false);
    await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Submit the evidence to Stripe?' });
    await confirm.getByText(/This is final/).waitFor();
    await confirm.getByRole('button', { name: 'Yes, submit' }).click();
    await page.getByText('The evidence was submitted to Stripe.').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    await panel.getByText(new RegExp(`^Submitted for review by ${adminName} on .+ \\(defence pack 1\\)$`)).waitFor();
    await panel.getByText('Evidence submitted').waitFor();
    expect(await panel.getByRole('button', { name: 'Submit evidence' }).count()).toBe(0);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'disputes-order-1280.png', false);

    // What Stripe received: the defence pack as a file for dispute evidence, then the dispute submitted with it.
    const upload = stripe.requests.find((r) => r.host === 'files' && r.path === '/v1/files');
    expect(upload?.file?.purpose).toBe('dispute_evidence');
    expect(upload?.file?.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const update = stripe.requests.find((r) => r.method === 'POST' && r.path === `/v1/disputes/${disputeId}`);
    expect(update?.form.submit).toBe('true');
    expect(Object.values(update?.form ?? {})).toContain('file_1');
    expect(update?.form['evidence[customer_email_address]']).toMatch(/^dispute-e2e-/);

    // The same order, queue and dialog on a phone: nothing pushed sideways.
    const phone = await browser.newPage({ viewport: { width: 360, height: 780 } });
    await signIn(phone, server.baseUrl, ADMIN.email, ADMIN.password);
    await phone.goto(page.url());
    const phonePanel = phone.getByRole('region', { name: 'Chargeback' });
    await phonePanel.getByText('Evidence submitted').waitFor();
    expect(await overflowsSideways(phone)).toBe(false);
    await phonePanel.scrollIntoViewIfNeeded();
    await shot(phone, 'disputes-order-360.png', false);
    await phone.goto(`${server.baseUrl}/admin/chargeback?q=${orderId}`);
    await phone.getByRole('row').filter({ hasText: orderId }).getByText('Evidence submitted').waitFor();
    expect(await overflowsSideways(phone)).toBe(false);
    await shot(phone, 'disputes-chargeback-queue-360.png');

    // Gateway Setting: Stripe configured, its webhook URL, the webhook just received with its signature verified.
    await page.goto(`${server.baseUrl}/admin/gateway-setting`);
    const stripeCard = page.getByRole('region', { name: 'Stripe' });
    await stripeCard.getByText('Configured', { exact: true }).waitFor();
    await stripeCard.getByText(`${server.baseUrl}/api/webhooks/stripe`).waitFor();
    await stripeCard.getByText('Signature verified').waitFor();
    await page.getByRole('table', { name: 'Webhooks the desk could not match' }).waitFor();
    await shot(page, 'disputes-gateway-setting-1280.png');
    await phone.goto(`${server.baseUrl}/admin/gateway-setting`);
    await phone.getByRole('region', { name: 'Stripe' }).getByText('Signature verified').waitFor();
    expect(await overflowsSideways(phone)).toBe(false);
    await shot(phone, 'disputes-gateway-setting-360.png');

    // The Disputes Report counts it, still open.
    await menu(page).getByRole('link', { name: 'Disputes Report' }).click();
    const report = page.getByRole('table', { name: 'Disputes Report' });
    const monthShown = new Date().toLocaleString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    const reportRow = report
      .getByRole('row')
      .filter({ hasText: monthShown })
      .filter({ hasText: 'Product not received' })
      .filter({ hasText: 'Stripe' })
      .filter({ hasText: 'default' });
    await reportRow.waitFor();
    expect(await reportRow.locator('td').allTextContents()).toEqual([
      monthShown,
      'default',
      'Stripe',
      'Product not received',
      String(reportBefore.opened + 1),
      String(reportBefore.won),
      String(reportBefore.lost),
      String(reportBefore.open + 1),
      reportBefore.won + reportBefore.lost === 0 ? '—' : expect.stringMatching(/%$/),
    ]);
    expect(
      await page.evaluate(() => {
        const box = document.querySelector('table')!.parentElement!;
        return box.scrollWidth <= box.clientWidth;
      }),
    ).toBe(true);
    await page.getByRole('figure', { name: 'Disputes opened by month' }).getByRole('listitem').first().waitFor();
    await shot(page, 'disputes-report-1280.png');
    await phone.goto(`${server.baseUrl}/admin/disputes-report`);
    await phone.getByRole('table', { name: 'Disputes Report' }).getByText('Total').waitFor();
    expect(await overflowsSideways(phone)).toBe(false);
    await shot(phone, 'disputes-report-360.png');

    // The evidence dialog on a phone, for another order's dispute that is still open.
    const second = await completedStripeOrder(token);
    const secondBody = stripeEvent(
      'charge.dispute.created',
      stripeDispute({
        id: `dp_e2e${randomBytes(6).toString('hex')}`,
        charge: second.intent.chargeId,
        paymentIntent: second.intent.id,
        amount: 8900,
        dueBy: new Date(Date.now() - 2 * DAY_MS + 3_600_000),
      }),
    );
    const secondDelivered = await fetch(`${server.baseUrl}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripe.sign(secondBody) },
      body: secondBody,
    });
    expect(secondDelivered.status).toBe(200);
    await phone.goto(`${server.baseUrl}/admin/chargeback?q=${second.orderId}`);
    const overdueRow = phone.getByRole('row').filter({ hasText: second.orderId });
    await overdueRow.getByText('Overdue 2 days').waitFor();
    // The table scrolls sideways inside its box on a phone: its last columns, scrolled to.
    await phone.evaluate(() => {
      const box = document.querySelector('table')!.parentElement!;
      box.scrollLeft = box.scrollWidth;
    });
    await shot(phone, 'disputes-chargeback-queue-360-scrolled.png', false);
    // Scrolled back, View is off the phone's screen: a tap on the row opens the order.
    await phone.evaluate(() => {
      document.querySelector('table')!.parentElement!.scrollLeft = 0;
    });
    const offScreenView = (await overdueRow.getByRole('link', { name: 'View' }).boundingBox())!;
    expect(offScreenView.x + offScreenView.width).toBeGreaterThan(360);
    await overdueRow.getByRole('cell', { name: second.orderId, exact: true }).click();
    await phone.getByRole('heading', { level: 1, name: second.orderId }).waitFor();
    await phone.getByRole('region', { name: 'Chargeback' }).getByRole('button', { name: 'Submit evidence' }).click();
    const phoneDialog = phone.getByRole('dialog', { name: 'Submit evidence' });
    await phoneDialog.getByText(`defence-pack-1-${second.orderId}.pdf`).waitFor();
    await shot(phone, 'disputes-submit-evidence-360.png', false);
    await phone.close();
    await context.close();
  });
});
