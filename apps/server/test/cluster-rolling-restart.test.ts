// A rolling restart through the real load balancer (issue 23): nginx with deploy/nginx.conf in front of two built
// servers on one PostgreSQL database; 30 s of mixed load on 16 connections while one server is stopped with SIGTERM
// and started again. Every read (safe to retry) must succeed, and every write answered 200 must be in the database
// (and none that was not); every live-desk stream reconnects. Needs /usr/sbin/nginx (installed by .ci/run).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localNginxConfig } from '../../../tools/nginx-config.mjs';
import { freePort, startBuiltServer, waitFor, type BuiltServer } from './helpers/built-server.js';
import { insertOrder } from './helpers/orders.js';
import { createTestDatabase } from './helpers/test-database.js';

const NGINX = '/usr/sbin/nginx';
const ADMIN = { email: 'admin@rolling.test', password: 'rolling-secret' };
const LOAD_MS = 30_000;
const CONNECTIONS = 16;

/** An event stream through nginx that reconnects by itself after it ends, as the console's does. */
function liveStream(port: number, token: string) {
  const state = { connects: 0, open: false, snapshotSinceConnect: false, stopped: false };
  let request: http.ClientRequest | undefined;
  const again = () => {
    state.open = false;
    if (!state.stopped) setTimeout(connect, 250);
  };
  function connect() {
    state.snapshotSinceConnect = false;
    request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/api/admin/events',
        headers: { authorization: token, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          res.on('end', again);
          return;
        }
        state.connects += 1;
        state.open = true;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (chunk.includes('event: counts')) state.snapshotSinceConnect = true;
        });
        res.on('end', again);
        res.on('error', again);
      },
    );
    request.on('error', again);
  }
  connect();
  return {
    state,
    stop: () => {
      state.stopped = true;
      request?.destroy();
    },
  };
}

interface Outcome {
  kind: 'read' | 'write';
  result: number | string;
}

/** One request through nginx on a keep-alive connection. */
function send(agent: http.Agent, port: number, token: string, kind: Outcome['kind'], orderId: string, n: number) {
  const body = kind === 'write' ? JSON.stringify({ orderId, remark: `rolling restart write ${n}` }) : undefined;
  return new Promise<Outcome>((resolve) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: kind === 'write' ? 'POST' : 'GET',
        path: kind === 'write' ? '/api/admin/add-new-remark' : '/api/admin/get-folder-count',
        headers: {
          authorization: token,
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ kind, result: res.statusCode! }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ kind, result: err.code ?? err.message }));
    req.end(body);
  });
}

describe.runIf(existsSync(NGINX))('a rolling restart behind nginx', () => {
  it('loses no read and no write while one of two servers is stopped with SIGTERM and started again', async () => {
    const database = await createTestDatabase();
    const prefix = await mkdtemp(path.join(os.tmpdir(), 'eta-rolling-'));
    const servers = new Set<BuiltServer>();
    let nginx: ChildProcess | undefined;
    const output: string[] = [];
    const everything = () => [...output, ...[...servers].flatMap((server) => server.output)].join('');
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const streams: ReturnType<typeof liveStream>[] = [];
    try {
      const orderId = await insertOrder(database.db);
      const [nginxPort, ...serverPorts] = await Promise.all([freePort(), freePort(), freePort()]);
      const startServer = async (port: number) => {
        const server = await startBuiltServer(
          {
            DATABASE_URL: database.connectionString,
            DATA_DIR: prefix,
            ADMIN_EMAIL: ADMIN.email,
            ADMIN_PASSWORD: ADMIN.password,
            JWT_SECRET: 'rolling-restart-test-secret-long-enough',
            TRUST_PROXY: 'true',
          },
          port,
        );
        servers.add(server);
        return server;
      };
      let first = await startServer(serverPorts[0]!);
      await startServer(serverPorts[1]!);
      await writeFile(
        path.join(prefix, 'nginx.conf'),
        await localNginxConfig({ prefix, listenPort: nginxPort!, serverPorts: serverPorts as number[] }),
      );
      nginx = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      nginx.stderr!.on('data', (chunk: Buffer) => output.push(`nginx: ${chunk.toString()}`));
      const base = `http://127.0.0.1:${nginxPort}`;
      await waitFor('nginx', async () => (await fetch(`${base}/api/ready`)).ok);
      const login = await fetch(`${base}/api/admin/admin-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      const { jwtToken } = (await login.json()) as { jwtToken: string };
      // Ten live-desk streams (the most one person may hold), opened while nginx alternates between the two servers
      // with nothing else going on, so about half of them are on the server that will be stopped.
      for (let i = 0; i < 10; i += 1) {
        streams.push(liveStream(nginxPort!, jwtToken));
        await waitFor('a stream to open', async () => streams.at(-1)!.state.snapshotSinceConnect);
      }

      const outcomes: Outcome[] = [];
      const end = Date.now() + LOAD_MS;
      let n = 0;
      const load = Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < end) {
          n += 1;
          outcomes.push(await send(agent, nginxPort!, jwtToken, n % 4 === 0 ? 'write' : 'read', orderId, n));
        }
      });
      // A third of the way in, the first server is stopped and started again on its port.
      await new Promise((resolve) => setTimeout(resolve, LOAD_MS / 3));
      expect(await first.stop(), first.output.join('')).toBe(0);
      const restarted = Date.now();
      first = await startServer(serverPorts[0]!);
      await Promise.all(load);

      const count = (kind: Outcome['kind'], ok: boolean) =>
        outcomes.filter((o) => o.kind === kind && (o.result === 200) === ok).length;
      const failed = outcomes.filter((o) => o.result !== 200);
      const remarks = await database.db
        .selectFrom('remarks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      // eslint-disable-next-line no-console -- the measurement, read in the test log
      console.log(
        `rolling restart: ${outcomes.length} requests in ${LOAD_MS / 1000} s (${count('read', true)} reads, ` +
          `${count('write', true)} writes answered 200; failed: ${JSON.stringify(failed.slice(0, 5))} of ` +
          `${failed.length}); restarted server ready after ${Date.now() - restarted} ms`,
      );
      expect(count('read', false), everything()).toBe(0);
      expect(Number(remarks.n)).toBe(count('write', true));
      expect(count('write', false), everything()).toBe(0);
      expect(count('write', true)).toBeGreaterThan(0);
      // Every live-desk stream is open again with a fresh snapshot; those the stopped server ended reconnected.
      await waitFor('every stream to be open', async () =>
        streams.every((x) => x.state.open && x.state.snapshotSinceConnect),
      );
      expect(streams.filter((x) => x.state.connects > 1).length).toBeGreaterThan(0);
    } finally {
      for (const stream of streams) stream.stop();
      agent.destroy();
      nginx?.kill('SIGTERM');
      await Promise.all([...servers].map((server) => server.stop()));
      if (nginx && nginx.exitCode === null) await new Promise((resolve) => nginx!.once('exit', resolve));
      await database.close();
      await rm(prefix, { recursive: true, force: true });
    }
  }, 180_000);
});
