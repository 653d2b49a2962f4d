// SIGTERM on the built server (issue 23: it once dropped 14 of 20 requests in flight): every request already sent is
// answered, no new connection is taken, the outbox mail the worker was sending goes back to the outbox, the process
// exits 0. And it always stops (issue 32: five servers stayed alive 45 minutes after SIGTERM): whatever holds it,
// SHUTDOWN_TIMEOUT_MS and a few seconds later it is gone, non-zero, with a line naming what held it. The real
// `node apps/server/dist/server.js`, on a PostgreSQL database of its own or on the embedded one.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHUTDOWN_GRACE_MS, WATCHDOG_GRACE_MS } from '../src/lib/shutdown-deadline.js';
import { insertMail } from '../src/modules/mail/mail.repository.js';
import { freePort, startBuiltServer, waitFor, type BuiltServer } from './helpers/built-server.js';
import { startMailStandIn } from './helpers/mail-stand-ins.js';
import { createTestDatabase, testBackend } from './helpers/test-database.js';

const METRICS_TOKEN = 'graceful-shutdown-test-token';
const ADMIN = { email: 'admin@shutdown.test', password: 'shutdown-secret' };

/** Whether a new TCP connection to the port is refused. */
const isRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

/** A POST whose headers and first half of the body are sent now, the rest when `finish` is called. */
function halfSentPost(port: number, urlPath: string, token: string, payload: object) {
  const body = JSON.stringify(payload);
  const half = Math.floor(body.length / 2);
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: urlPath,
    agent: false,
    headers: { authorization: token, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const status = new Promise<number | string>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
  req.write(body.slice(0, half));
  return { status, finish: () => req.end(body.slice(half)) };
}

describe.runIf(testBackend() === 'postgres')('SIGTERM on the built server', () => {
  it('answers the 20 requests in flight, refuses new connections, hands back its outbox claim and exits 0', async () => {
    const database = await createTestDatabase();
    const standIn = await startMailStandIn();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-shutdown-'));
    // The provider takes the mail and never answers: the worker is mid-send when the signal comes.
    const releaseProvider = standIn.holdNext('Sendgrid');
    let server: BuiltServer | undefined;
    try {
      const { id: mailId } = await insertMail(database.db, {
        orderId: null,
        kind: 'approval',
        to: 'customer@shutdown.test',
        from: 'desk@shutdown.test',
        provider: 'Sendgrid',
        subject: 'Your eTA',
        html: '<p>Approved</p>',
        text: 'Approved',
        attachments: [],
        documentId: null,
        failed: null,
      });
      server = await startBuiltServer({
        DATABASE_URL: database.connectionString,
        DATA_DIR: dataDir,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        JWT_SECRET: 'graceful-shutdown-test-secret-long-enough',
        METRICS_TOKEN,
        SENDGRID_API_KEY: 'SG.stand-in-key',
        SENDGRID_API_URL: standIn.url,
        LOG_LEVEL: 'info',
      });
      const { port, url: base, output } = server;
      const login = await fetch(`${base}/api/admin/admin-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      expect(login.status, await login.clone().text()).toBe(200);
      const { jwtToken } = (await login.json()) as { jwtToken: string };
      await waitFor('the outbox worker to be sending the mail', () => standIn.requests.length === 1);

      const inFlight = Array.from({ length: 20 }, (_, i) =>
        halfSentPost(port, '/api/admin/search-order', jwtToken, {
          folderName: 'orderHistory',
          start: 0,
          end: 10 + i,
          searchVal: '',
        }),
      );
      // The server counts a request in flight from its headers on; the scrape itself is one more.
      await waitFor('the server to hold the 20 requests', async () => {
        const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
        const line = (await res.text()).split('\n').find((l) => l.startsWith('eta_http_requests_in_flight '));
        return Number(line?.split(' ')[1]) >= 21;
      });

      server.process.kill('SIGTERM');
      await waitFor('new connections to be refused', () => isRefused(port));
      for (const request of inFlight) request.finish();
      expect(await Promise.all(inFlight.map((r) => r.status)), output.join('')).toEqual(Array(20).fill(200));
      expect(await server.exited, output.join('')).toBe(0);

      // Back in the outbox at once (no lease), still marked as possibly sent: the next worker asks SendGrid first.
      const row = await database.db
        .selectFrom('mails')
        .select(['state', 'locked_until', 'attempts', 'sending_since'])
        .where('id', '=', mailId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ state: 'queued', locked_until: null, attempts: 1 });
      expect(row.sending_since).not.toBeNull();
    } finally {
      releaseProvider();
      if (server && server.process.exitCode === null) server.process.kill('SIGKILL');
      await standIn.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

/**
 * A TCP relay to PostgreSQL that can freeze: from then on it passes nothing either way and closes nothing, so every
 * connection through it stays open and unanswered (a database host gone silent, a firewall dropping packets).
 */
async function startFreezableRelay(target: URL) {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432), allowHalfOpen: true });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk: Buffer) => void (frozen || to.write(chunk)));
      from.on('end', () => void (frozen || to.end()));
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    freeze: () => (frozen = true),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The JSON log lines in what a server wrote that have `msg` matching. */
const linesMatching = (output: string[], msg: RegExp) =>
  output
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown> & { msg: string })
    .filter((line) => msg.test(line.msg));

const SHUTDOWN_TIMEOUT_MS = 1_000;

describe.runIf(testBackend() === 'postgres')('SIGTERM while something never lets go', () => {
  it('exits 1 SHUTDOWN_TIMEOUT_MS + 5 s after the signal, naming the step and the handles that held it', async () => {
    const database = await createTestDatabase();
    const relay = await startFreezableRelay(new URL(database.connectionString!));
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-shutdown-'));
    let server: BuiltServer | undefined;
    try {
      server = await startBuiltServer({
        DATABASE_URL: relay.url,
        DATA_DIR: dataDir,
        JWT_SECRET: 'graceful-shutdown-test-secret-long-enough',
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      });
      // The database stops answering and never closes a connection: the server's own goodbyes to it never end.
      relay.freeze();
      const signalled = Date.now();
      server.process.kill('SIGTERM');
      const code = await Promise.race([
        server.exited,
        new Promise<'alive'>((resolve) => setTimeout(() => resolve('alive'), 30_000)),
      ]);
      const tookMs = Date.now() - signalled;
      expect(code, server.output.join('')).toBe(1);
      expect(tookMs).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS + SHUTDOWN_GRACE_MS - 100);
      expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + SHUTDOWN_GRACE_MS + 2_000);
      const [line, ...more] = linesMatching(server.output, /^shutdown did not finish/);
      expect(more).toEqual([]);
      expect(line, server.output.join('')).toMatchObject({
        level: 60,
        signal: 'SIGTERM',
        exitCode: 1,
        step: expect.stringMatching(/^closing (the app's workers|the database pool)/),
        handles: { TCPSocketWrap: expect.any(Number) },
        holding: { 'database pool': expect.stringMatching(/^\d+ connections?, /) },
      });
      expect(line!.msg).toMatch(
        /^shutdown did not finish 6 s after SIGTERM \(SHUTDOWN_TIMEOUT_MS 1000 \+ 5000\): exiting with code 1\. Still waiting for: closing .* \(for \d+(\.\d)? s\); open handles: .*TCPSocketWrap ×\d+.*; database pool: \d+ connections?, /,
      );
    } finally {
      if (server && server.process.exitCode === null) server.process.kill('SIGKILL');
      await relay.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

// The embedded database, as the five servers of issue 32 ran: their log went to a pipe that nobody read any more, so
// the log's flush at exit waited for room forever, on the main thread.
describe.runIf(testBackend() === 'pglite')('SIGTERM on the embedded database with a log nobody reads', () => {
  it('is killed by its watchdog a few seconds after the deadline, saying where the main thread stopped', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-shutdown-'));
    let server: BuiltServer | undefined;
    try {
      server = await startBuiltServer({
        DATA_DIR: dataDir,
        JWT_SECRET: 'graceful-shutdown-test-secret-long-enough',
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        LOG_LEVEL: 'info',
      });
      // Stdout is no longer read (stderr still is): a line per request fills the pipe, then the log's own buffer.
      server.process.stdout!.removeAllListeners('data');
      server.process.stdout!.pause();
      const agent = { keepalive: true } as const;
      for (let round = 0; round < 60; round += 1) {
        await Promise.all(
          Array.from({ length: 25 }, () => fetch(`${server!.url}/api/health`, agent).then((r) => r.arrayBuffer())),
        );
      }
      const signalled = Date.now();
      server.process.kill('SIGTERM');
      const bound = SHUTDOWN_TIMEOUT_MS + SHUTDOWN_GRACE_MS + WATCHDOG_GRACE_MS + 2_000;
      const gone = await Promise.race([
        server.exited.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), bound + 5_000)),
      ]);
      const tookMs = Date.now() - signalled;
      expect(gone, `still alive ${tookMs} ms after SIGTERM`).toBe(true);
      expect(server.process.signalCode, server.output.join('')).toBe('SIGKILL');
      expect(tookMs).toBeLessThan(bound);
      const [line] = linesMatching(server.output, /^the process did not exit/);
      expect(line, server.output.join('')).toMatchObject({
        level: 60,
        signal: 'SIGTERM',
        killed: 'SIGKILL',
        step: 'exiting with code 0',
        mainThreadSilentMs: expect.any(Number),
      });
      expect(line!.msg).toMatch(
        /^the process did not exit 9 s after SIGTERM; its main thread is blocked \(it last ran \d+(\.\d)? s ago, at: exiting with code 0 .*\)\. Killing it\.$/,
      );
    } finally {
      if (server && server.process.exitCode === null && server.process.signalCode === null) {
        server.process.kill('SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
