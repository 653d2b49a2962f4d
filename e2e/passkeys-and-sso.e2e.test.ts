// Passkeys and single sign-on in the real Chromium (issue 34). A passkey is made and used through Chromium's own
// virtual authenticator (DevTools protocol WebAuthn.addVirtualAuthenticator, through playwright-core's CDP session),
// so the browser's WebAuthn, @simplewebauthn/browser and the server's checks are all the real thing; the server is at
// http://localhost (WebAuthn's relying party is a host name). Single sign-on goes through a real OpenID provider on
// loopback (`oidc-provider`): a member signs in with it, an answer for a sign-in this tab did not start is refused,
// and so is an e-mail the provider has not verified.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startOidcProvider, type OidcStandIn } from '../apps/server/test/helpers/oidc-provider.js';
import {
  ADMIN,
  demoUserEmail,
  launchBrowser,
  resultsDir,
  signIn,
  staffName,
  startServer,
  type RunningServer,
} from './harness.js';

let server: RunningServer;
let browser: Browser;
let provider: OidcStandIn;

beforeAll(async () => {
  provider = await startOidcProvider();
  server = await startServer({
    publicHost: 'localhost',
    env: {
      SSO_ISSUER: provider.issuer,
      SSO_CLIENT_ID: provider.clientId,
      SSO_CLIENT_SECRET: provider.clientSecret,
      SSO_NAME: 'Google',
    },
  });
  provider.setRedirectUris([`${server.baseUrl}/login/sso`]);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

/** A page whose browser has a platform authenticator that checks its owner (as Touch ID or Windows Hello do). */
async function pageWithAuthenticator(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return page;
}

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${server.baseUrl}/`);
  await page.getByLabel('Email ID').waitFor();
}

async function typePassword(page: Page, email: string, password: string) {
  await page.goto(`${server.baseUrl}/`);
  await page.getByLabel('Email ID').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

describe('passkeys', () => {
  it('a Manager adds a passkey, signs in with it after the password, and with it alone once the Admin allows it', async () => {
    const email = demoUserEmail(server, 'Manager');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await pageWithAuthenticator(context);
    await signIn(page, server.baseUrl, email, server.demoPassword);
    const name = await staffName(page);

    await page.goto(`${server.baseUrl}/admin/security`);
    await page.getByLabel('Passkey name').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey "Work laptop" added.').waitFor();
    // The first factor comes with recovery codes, shown this once.
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    const passkeys = page.getByRole('list', { name: 'Passkeys' });
    await expect.poll(() => passkeys.textContent()).toContain('Work laptop');
    await page.screenshot({ path: path.join(resultsDir, 'security-passkeys-1280.png'), fullPage: true });

    // The password, then the passkey.
    await signOut(page);
    await typePassword(page, email, server.demoPassword);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await page.getByRole('button', { name: 'Use your passkey' }).click();
    await page.waitForURL(`${server.baseUrl}/admin`);
    expect(await staffName(page)).toBe(name);
    await page.goto(`${server.baseUrl}/admin/security`);
    await expect.poll(() => passkeys.textContent()).toContain('last used');

    // The Admin allows a passkey alone.
    const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const adminPage = await admin.newPage();
    await signIn(adminPage, server.baseUrl, ADMIN.email, ADMIN.password);
    await adminPage.goto(`${server.baseUrl}/admin/security`);
    await adminPage.getByLabel(/A passkey alone may sign in/).check();
    await adminPage.getByRole('button', { name: 'Save policy' }).click();
    await adminPage.getByText('Sign-in policy saved.').waitFor();
    await admin.close();

    // No e-mail, no password: the device checks its owner and the desk knows whose passkey it is.
    await signOut(page);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await page.screenshot({ path: path.join(resultsDir, 'sign-in-other-ways-360.png'), fullPage: true });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${server.baseUrl}/admin`);
    expect(await staffName(page)).toBe(name);
    await context.close();
  });
});

describe('single sign-on', () => {
  it('a member signs in with Google and keeps their role; the sign-in page and the way back are real pages', async () => {
    const email = demoUserEmail(server, 'Team');
    provider.signInAs({ sub: 'google-team', email, emailVerified: true, name: 'Someone Else' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/`);
    await page.screenshot({ path: path.join(resultsDir, 'sign-in-other-ways-1280.png'), fullPage: true });
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL(`${server.baseUrl}/admin`);
    // The desk's own name and role for the member, not the provider's.
    expect(await staffName(page)).not.toBe('Someone Else');
    const sessions = await page.evaluate(async () => {
      const { accessToken } = JSON.parse(localStorage.getItem('user') ?? '{}') as { accessToken?: string };
      const response = await fetch('/api/admin/my-sessions', { headers: { Authorization: accessToken ?? '' } });
      return ((await response.json()) as { data: { current: boolean; secondFactor: string }[] }).data;
    });
    expect(sessions.find((s) => s.current)?.secondFactor).toBe('sso');
    await context.close();
  });

  it("refuses an answer for a sign-in this tab did not start (someone else's code), and an e-mail the provider has not verified", async () => {
    const email = demoUserEmail(server, 'Telecaller');
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    const page = await context.newPage();

    // This tab starts a sign-in of its own but never gets through the provider (its state stays in the tab)...
    await page.route(`${provider.issuer}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<p>…</p>' }));
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL(`${provider.issuer}/**`);
    await page.unroute(`${provider.issuer}/**`);
    // ...and is handed an answer from another sign-in (an attacker's own, to sign the victim in as the attacker).
    provider.signInAs({ sub: 'attacker', email, emailVerified: true });
    const started = await fetch(`${server.baseUrl.replace('localhost', '127.0.0.1')}/api/admin/sso/start`, {
      method: 'POST',
    });
    const { url } = ((await started.json()) as { data: { url: string } }).data;
    const answer = await provider.authorize(url);
    await page.goto(`${server.baseUrl}/login/sso${answer.search}`);
    await page.getByText('This sign-in did not start in this browser tab. Please start again.').waitFor();
    expect(page.url()).toBe(`${server.baseUrl}/login/sso`);
    await page.screenshot({ path: path.join(resultsDir, 'sso-refused-360.png'), fullPage: true });

    // A provider account whose e-mail it has not verified.
    provider.signInAs({ sub: 'unverified', email, emailVerified: false });
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.getByText(`Google has not verified the e-mail ${email.toLowerCase()}`, { exact: false }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await context.close();
  });
});
