// A browser test's server (server-process.ts) on a data folder of its own, and a headless chromium pointed at it.
import { cp, mkdtemp, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import {
  DEFAULT_DEMO_ORDERS,
  demoStaffFrom,
  spawnServer,
  type DemoStaff,
  type PreparedDataDir,
} from './server-process.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const resultsDir = path.join(root, 'test-results');

export { ADMIN, DEFAULT_DEMO_ORDERS, type DemoStaff } from './server-process.js';

export interface RunningServer {
  baseUrl: string;
  demoPassword: string;
  demoStaff: DemoStaff[];
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** How many demo orders to seed (the server's DEMO_ORDERS); the default keeps start-up quick. */
  demoOrders?: number;
  /** More configuration for this server (a mail provider pointed at a stand-in). */
  env?: Record<string, string>;
  /** The server's address for the browser (and PUBLIC_URL): 127.0.0.1, or localhost where passkeys are used. */
  publicHost?: '127.0.0.1' | 'localhost';
}

declare module 'vitest' {
  export interface ProvidedContext {
    preparedDataDir: PreparedDataDir;
  }
}

/**
 * The built server the way `npm start` runs it, on a data folder of its own: a copy of the run's prepared one when
 * it has the default demo orders, else a fresh one.
 */
export async function startServer({
  demoOrders = DEFAULT_DEMO_ORDERS,
  env = {},
  publicHost,
}: ServerOptions = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-e2e-'));
  const prepared = demoOrders === DEFAULT_DEMO_ORDERS ? inject('preparedDataDir') : undefined;
  if (prepared) await cp(prepared.dataDir, dataDir, { recursive: true });
  const server = await spawnServer(dataDir, demoOrders, env, publicHost);
  const demo = prepared ?? demoStaffFrom(server.output());
  return {
    baseUrl: server.baseUrl,
    demoPassword: demo.demoPassword,
    demoStaff: demo.demoStaff,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  await mkdir(resultsDir, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Calls the API from the page with the signed-in user's stored token, as the app does. */
export function apiGet<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (path) => {
    const { accessToken } = JSON.parse(localStorage.getItem('user') ?? '{}') as { accessToken?: string };
    const response = await fetch(path, { headers: { Authorization: accessToken ?? '' } });
    return ((await response.json()) as { data: T }).data;
  }, url);
}

export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Email ID').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${baseUrl}/admin`);
}

/**
 * A browser test file's usual set-up: one server (started with `options`) and one browser for all of its tests,
 * stopped after them. `use` hands both to the file once they are up.
 */
export function withServerAndBrowser(
  options: ServerOptions,
  use: (server: RunningServer, browser: Browser) => void,
): void {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(options);
    browser = await launchBrowser();
    use(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}

/** The e-mail of the server's first demo staff member of `type` (the start-up line names them). */
export function demoUserEmail(server: RunningServer, type: string): string {
  const user = server.demoStaff.find((s) => s.type === type);
  if (!user) throw new Error(`no demo ${type} in ${JSON.stringify(server.demoStaff)}`);
  return user.email;
}

/** The signed-in person's name, as the header greets them. */
export async function staffName(page: Page): Promise<string> {
  const greeting = page.locator('#account-button');
  await expect.poll(async () => (await greeting.textContent()) ?? '').toMatch(/^Welcome .+/);
  return ((await greeting.textContent()) ?? '').replace(/^Welcome /, '').trim();
}
