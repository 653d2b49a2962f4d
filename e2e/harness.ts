// Starts the real built server (apps/server/dist) the way `npm start` does, on a fresh data directory and a
// free port, and a headless chromium page pointed at it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
export const resultsDir = path.join(root, 'test-results');

export const ADMIN = { email: 'admin@e2e.local', password: 'e2e-admin-password' };

export interface DemoStaff {
  email: string;
  type: string;
}

export interface RunningServer {
  baseUrl: string;
  demoPassword: string;
  demoStaff: DemoStaff[];
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

export interface ServerOptions {
  /** How many demo orders to seed (the server's DEMO_ORDERS); the default keeps start-up quick. */
  demoOrders?: number;
  /** More configuration for this server (a mail provider pointed at a stand-in). */
  env?: Record<string, string>;
}

export async function startServer({ demoOrders = 400, env = {} }: ServerOptions = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-e2e-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_DATA: 'true',
      DEMO_ORDERS: String(demoOrders),
      LOG_LEVEL: 'warn',
      // Links in mails (the approval mail's track-order link) lead to this server.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const demo = /Demo data: .*password "([^"]+)"\): (.*)/.exec(output);
  const demoStaff = (demo?.[2] ?? '')
    .split(', ')
    .map((s) => /^(\S+) \((.+)\)$/.exec(s.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ email: m[1]!, type: m[2]! }));
  return {
    baseUrl,
    demoPassword: demo?.[1] ?? '',
    demoStaff,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
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
  await page.getByRole('button', { name: 'Sign In' }).click();
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
