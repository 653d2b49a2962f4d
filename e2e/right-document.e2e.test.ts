// The right document to the right traveller, in the real Chromium (issue 35): on an order's page a Team member
// uploads another traveller's approval and reads the refusal (whom it names beside this order's traveller), then
// uploads the right one, and sees its application number and validity under Uploaded documents; the customer sees
// them on the portal's download page.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { STRANGER, approvalPdf as approvalOf } from '../apps/server/test/helpers/uploads.js';
import { demoUserEmail, resultsDir, signIn, withServerAndBrowser, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;
withServerAndBrowser({}, (s, b) => {
  server = s;
  browser = b;
});

const section = (page: Page, name: string) => page.getByRole('region', { name });

/** The traveller of an order as its detail names them, read with the signed-in member's token. */
async function travellerOf(page: Page, orderId: string) {
  return page.evaluate(async (id) => {
    const { accessToken } = JSON.parse(localStorage.getItem('user') ?? '{}') as { accessToken?: string };
    const response = await fetch(`/api/admin/get-orders-details/${id}`, {
      headers: { Authorization: accessToken ?? '' },
    });
    const { data } = (await response.json()) as { data: Record<string, string | null> };
    return {
      surname: data.passport_surname || data.surname || '',
      givenNames: data.passport_first_name || data.first_name || '',
      passportNumber: data.passport_number ?? '',
    };
  }, orderId);
}

describe('the right document', () => {
  it("refuses another traveller's approval on the order page, takes the right one, and shows what it states", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.baseUrl, demoUserEmail(server, 'Team'), server.demoPassword);
    await page.goto(`${server.baseUrl}/admin/recent-order?page=1&limit=10`);
    const firstBox = page.getByRole('checkbox', { name: /^Select order / }).first();
    await firstBox.waitFor();
    const orderId = (await firstBox.getAttribute('aria-label'))!.replace('Select order ', '');
    await page.getByRole('row').filter({ hasText: orderId }).getByRole('link', { name: 'View' }).click();
    await page.getByRole('heading', { level: 1, name: orderId }).waitFor();
    const traveller = await travellerOf(page, orderId);
    expect(traveller.passportNumber).not.toBe('');

    const upload = section(page, 'Upload Document');
    const customer = await upload.getByRole('textbox', { name: 'Email' }).inputValue();
    const choose = async (name: string, buffer: Buffer) => {
      await upload.getByLabel('Approved document', { exact: true }).setInputFiles({
        name,
        mimeType: 'application/pdf',
        buffer,
      });
      await upload.getByRole('button', { name: 'Upload' }).click();
    };

    // Two tabs open, a similar name: the other traveller's approval.
    await choose('whitfield.pdf', await approvalOf(STRANGER));
    const refusal = upload.getByRole('alert', { name: 'The document was not sent' });
    await refusal.getByText('This looks like another traveller’s approval').waitFor();
    const rows = refusal.getByRole('table', { name: 'Who the document names' }).getByRole('row');
    expect(await rows.nth(1).textContent()).toBe('This documentWHITFIELDK48213571');
    expect(await rows.nth(2).textContent()).toContain(traveller.passportNumber);
    await page.getByText('Status: New').waitFor();
    await refusal.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(resultsDir, 'right-document-refused-1280.png') });

    // The right one.
    await choose('approval.pdf', await approvalOf({ ...traveller, applicationNumber: 'V388888888' }));
    await page.getByText('Status: Completed').waitFor();
    const documents = upload.getByRole('table', { name: 'Uploaded documents' });
    const row = documents.getByRole('row').filter({ hasText: 'approval.pdf' });
    await row.waitFor();
    expect(await row.textContent()).toContain('V388888888');
    expect(await row.textContent()).toContain('2031-11-19');
    expect(await row.textContent()).toContain('matched');
    expect(await refusal.count()).toBe(0);

    // The customer's download page says what was delivered.
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const portal = await phone.newPage();
    await portal.goto(`${server.baseUrl}/track-order`);
    await portal.getByLabel('Order ID').fill(orderId);
    await portal.getByLabel('Email ID').fill(customer);
    await portal.getByRole('button', { name: 'TRACK ORDER' }).click();
    await portal.getByText(`Your order ${orderId} has been found.`).waitFor();
    await portal.getByText('Application number: V388888888. Valid until 19 November 2031.').waitFor();
    await portal.screenshot({ path: path.join(resultsDir, 'portal-approval-facts-360.png'), fullPage: true });
    await phone.close();
    await page.close();
  });
});
