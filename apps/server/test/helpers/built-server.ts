// The built server (`node apps/server/dist/server.js`, as production runs it) started by a test on a port of its own,
// for what only real processes show: several servers on one database, a load balancer, signals. dist/ is brought up
// to date by the tests' global set-up.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../../dist/server.js', import.meta.url));

export interface BuiltServer {
  port: number;
  url: string;
  process: ChildProcess;
  /** Everything it wrote (stdout and stderr), for a failing assertion's message. */
  output: string[];
  /** Its exit code once it has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit; nothing when it has already exited. */
  stop(): Promise<number | null>;
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Polls `check` (an error counts as false) until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 45_000,
  everyMs = 50,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() > until) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Starts the built server with `env` (on top of PATH, HOST 127.0.0.1, no demo data, warnings only) and resolves once
 * it is ready (GET /api/ready answers 200). `port` defaults to a free one.
 */
export async function startBuiltServer(env: NodeJS.ProcessEnv, port?: number): Promise<BuiltServer> {
  const listenPort = port ?? (await freePort());
  const output: string[] = [];
  const child = spawn(process.execPath, [SERVER], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      // Staff sign in with a password alone unless a test asks for the policy (sign-in tests).
      STAFF_MFA_ROLES: '',
      ...env,
      PORT: String(listenPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${listenPort}`;
  try {
    // An exit ends the wait too; it is reported below with what the server wrote.
    await waitFor(`the server on port ${listenPort} to be ready`, async () => {
      return child.exitCode !== null || (await fetch(`${url}/api/ready`)).ok;
    });
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${output.join('')}`);
  }
  if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${output.join('')}`);
  return {
    port: listenPort,
    url,
    process: child,
    output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
