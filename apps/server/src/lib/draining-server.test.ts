import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainingServerFactory } from './draining-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A draining server whose handler answers every request `served <method>` once its body has arrived. */
async function start(timeoutMs = 10_000): Promise<number> {
  const factory = drainingServerFactory(timeoutMs);
  const made = factory((req, res) => {
    req.resume();
    req.on('end', () => res.end(`served ${req.method}`));
  }, {}) as http.Server;
  server = made;
  await new Promise<void>((resolve) => made.listen(0, '127.0.0.1', resolve));
  return (made.address() as AddressInfo).port;
}

/** Begins closing; the promise settles when the server has closed (every connection ended). */
const beginClose = () => new Promise<void>((resolve) => server!.close(() => resolve()));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, method: string, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: '/', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? 'a remark' : undefined);
  });
}

/** A raw connection, for requests written some time after the connect. */
function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

function answerOn(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
}

const refused = (port: number) =>
  connect(port).then(
    (socket) => {
      socket.destroy();
      return false;
    },
    (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED',
  );

describe('a draining server (SIGTERM behind a load balancer)', () => {
  it('turns reads away with 503 SERVER_RESTARTING, untouched, and serves writes, each with Connection: close', async () => {
    const port = await start();
    const closed = beginClose();
    const read = await request(port, 'GET');
    expect(read.status).toBe(503);
    expect(read.headers['retry-after']).toBe('1');
    expect(read.headers.connection).toBe('close');
    expect(JSON.parse(read.body)).toMatchObject({ status: 0, code: 'SERVER_RESTARTING' });
    const write = await request(port, 'POST');
    expect(write).toMatchObject({ status: 200, body: 'served POST' });
    expect(write.headers.connection).toBe('close');
    await closed;
  });

  it('keeps accepting while connections come, and a request sent 300 ms after its connect is answered', async () => {
    const port = await start();
    const closed = beginClose();
    // Connections keep coming for 600 ms, each with its POST a while after the connect (a balancer's write can
    // follow its connect late on a loaded machine); none of them is refused or cut.
    const answers: Promise<string>[] = [];
    for (let i = 0; i < 4; i += 1) {
      const socket = await connect(port);
      const answer = answerOn(socket);
      answers.push(answer);
      setTimeout(() => socket.write('POST / HTTP/1.1\r\nHost: desk\r\nContent-Length: 2\r\n\r\nhi'), 300);
      await sleep(150);
    }
    for (const answer of await Promise.all(answers)) {
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(answer).toContain('served POST');
    }
    await closed;
    expect(await refused(port)).toBe(true);
  });

  it('stops listening once no connection has come for a quarter of a second', async () => {
    const port = await start();
    const began = Date.now();
    const closed = beginClose();
    await sleep(600);
    expect(await refused(port)).toBe(true);
    await closed;
    expect(Date.now() - began).toBeLessThan(2_000);
  });

  it('stops listening at its deadline even while connections keep coming', async () => {
    const port = await start(400);
    const began = Date.now();
    const closed = beginClose();
    let refusedAt: number | undefined;
    // Well before the 3 s that the quiet wait allows at most.
    while (refusedAt === undefined && Date.now() - began < 2_500) {
      if (await refused(port)) refusedAt = Date.now() - began;
      else await sleep(50);
    }
    expect(refusedAt).toBeGreaterThanOrEqual(390);
    expect(refusedAt).toBeLessThan(2_000);
    await closed;
  });

  it('ends a keep-alive connection left idle from before the drain, so closing completes', async () => {
    const port = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await request(port, 'GET', agent)).toMatchObject({ status: 200, body: 'served GET' });
      const [socket] = Object.values(agent.freeSockets).flat();
      const ended = new Promise((resolve) => socket!.once('close', resolve));
      const began = Date.now();
      await beginClose();
      await ended;
      expect(Date.now() - began).toBeLessThan(2_000);
    } finally {
      agent.destroy();
    }
  });
});
