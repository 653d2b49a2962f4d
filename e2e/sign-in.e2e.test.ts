// Two-step sign-in in the real Chromium (issue 34), with the policy as shipped (Admin and Manager must use a second
// factor): a Manager without an app is sent to set one up right after the password, reads the key off the page,
// confirms with a code computed here (RFC 6238), keeps the recovery codes, and signs in again with a code; then sees
// both sessions on Sign-in & Security at 360 px and ends the other one.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { demoUserEmail, resultsDir, withServerAndBrowser, type RunningServer } from './harness.js';

let server: RunningServer;
let browser: Browser;
withServerAndBrowser({ env: { STAFF_MFA_ROLES: 'Admin,Manager' } }, (s, b) => {
  server = s;
  browser = b;
});

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });

describe('two-step sign-in', () => {
  it('a Manager sets up an authenticator app at sign-in, keeps the recovery codes, and signs in with a code', async () => {
    const email = demoUserEmail(server, 'Manager');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const typePassword = async () => {
      await page.goto(`${server.baseUrl}/`);
      await page.getByLabel('Email ID').fill(email);
      await page.getByLabel('Password').fill(server.demoPassword);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    };

    await typePassword();
    await expect.poll(() => page.getByRole('heading', { name: 'Set up two-step verification' }).count()).toBe(1);
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.screenshot({ path: path.join(resultsDir, 'sign-in-enrol-1280.png'), fullPage: true });
    // A code from another step than the one to come, so the sign-in below never meets a code already used.
    const enrolledAt = Date.now();
    await page.getByLabel('6-digit code').fill(codeAt(secret, enrolledAt));
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = await page.getByRole('list', { name: 'Recovery codes' }).locator('li').allTextContents();
    expect(codes).toHaveLength(10);
    await page.screenshot({ path: path.join(resultsDir, 'sign-in-recovery-codes-1280.png'), fullPage: true });
    await page.getByRole('button', { name: 'I have saved them: continue' }).click();
    await page.waitForURL(`${server.baseUrl}/admin`);

    // A second browser signs in with the next step's code (a phone 30 s ahead is still accepted).
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const other = await phone.newPage();
    await other.goto(`${server.baseUrl}/`);
    await other.getByLabel('Email ID').fill(email);
    await other.getByLabel('Password').fill(server.demoPassword);
    await other.getByRole('button', { name: 'Sign In', exact: true }).click();
    await other.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await other.getByLabel('6-digit code').fill('000000');
    await other.getByRole('button', { name: 'Verify' }).click();
    await other.getByText('That code is not right').first().waitFor();
    await other.getByLabel('6-digit code').fill(codeAt(secret, enrolledAt + 30_000));
    await other.getByRole('button', { name: 'Verify' }).click();
    await other.waitForURL(`${server.baseUrl}/admin`);

    // On the phone: both sessions, this one marked; End the desktop's.
    await other.goto(`${server.baseUrl}/admin/security`);
    const sessions = other.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect.poll(() => sessions.count()).toBe(2);
    await expect.poll(() => sessions.first().textContent()).toContain('This session');
    await other.screenshot({ path: path.join(resultsDir, 'security-360.png'), fullPage: true });
    const widths = await other.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    await sessions.nth(1).getByRole('button', { name: 'End' }).click();
    await other.getByText('The session was ended.').waitFor();

    // The desktop's session is over: its next call sends it back to sign in.
    await page.goto(`${server.baseUrl}/admin/security`);
    await page.getByLabel('Email ID').waitFor();
    await phone.close();
    await context.close();
  });
});
