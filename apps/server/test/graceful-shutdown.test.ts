// SIGTERM on the built server (issue 23: it once dropped 14 of 20 requests in flight): every request already sent is
// answered, no new connection is taken, the outbox mail the worker was sending goes back to the outbox, the process
// exits 0. The real `node apps/server/dist/server.js` on a PostgreSQL database of its own (PGlite is one process).
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertMail } from '../src/modules/mail/mail.repository.js';
import { startBuiltServer, waitFor, type BuiltServer } from './helpers/built-server.js';
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
