// The built server (apps/server/dist) as a child process, the way `npm start` runs it, on a data folder and a free
// port; and the data folder prepared once per browser-test run (global-setup.ts). No vitest here: the global set-up
// runs outside the test workers.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export const ADMIN = { email: 'admin@e2e.local', password: 'e2e-admin-password' };

export interface DemoStaff {
  email: string;
  type: string;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** The demo orders of a server started without a number; its data folder is prepared once for every file. */
export const DEFAULT_DEMO_ORDERS = 400;

/**
 * A data folder a server has already started on (its embedded database migrated, the first Admin and the demo data
 * loaded, its keys generated), with what its start-up printed about the demo staff. global-setup.ts prepares one
 * with DEFAULT_DEMO_ORDERS for the whole run; each file's server starts on a copy of it, which spares each the
 * database's initdb, the migrations and the demo load.
 */
export interface PreparedDataDir {
  dataDir: string;
  demoPassword: string;
  demoStaff: DemoStaff[];
}

const serverEnv = (
  port: number,
  dataDir: string,
  demoOrders: number,
  env: Record<string, string>,
  publicHost: string,
) => ({
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
  PUBLIC_URL: `http://${publicHost}:${port}`,
  // Staff sign in with a password alone unless a test asks for the policy (the two-factor test does).
  STAFF_MFA_ROLES: '',
  ...env,
});

/** Reads the demo staff and their password from the server's start-up line (printed when it loads demo data). */
export function demoStaffFrom(output: string): Pick<PreparedDataDir, 'demoPassword' | 'demoStaff'> {
  const demo = /Demo data: .*password "([^"]+)"\): (.*)/.exec(output);
  const demoStaff = (demo?.[2] ?? '')
    .split(', ')
    .map((s) => /^(\S+) \((.+)\)$/.exec(s.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ email: m[1]!, type: m[2]! }));
  return { demoPassword: demo?.[1] ?? '', demoStaff };
}

/** The built server on `dataDir`, once it answers /api/health; `stop` ends it and leaves the folder. */
export async function spawnServer(
  dataDir: string,
  demoOrders: number,
  env: Record<string, string>,
  /**
   * The host name in PUBLIC_URL and in the address the browser opens: 127.0.0.1, or localhost for a passkey (WebAuthn
   * takes a host name for its relying party, never an IP address).
   */
  publicHost = '127.0.0.1',
): Promise<{ baseUrl: string; output: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: serverEnv(port, dataDir, demoOrders, env, publicHost),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const local = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${local}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl: `http://${publicHost}:${port}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    },
  };
}

/** A data folder with DEFAULT_DEMO_ORDERS demo orders, prepared by starting a server on it and stopping it. */
export async function prepareDataDir(): Promise<PreparedDataDir> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-e2e-prepared-'));
  const server = await spawnServer(dataDir, DEFAULT_DEMO_ORDERS, {});
  await server.stop();
  return { dataDir, ...demoStaffFrom(server.output()) };
}
