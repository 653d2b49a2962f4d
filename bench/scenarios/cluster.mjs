// Two servers on one database behind nginx (issue 23): the folder counts and list pages through deploy/nginx.conf,
// against the same requests sent to one server at the same concurrency in the same run, so the ratio is honest.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localNginxConfig } from '../../tools/nginx-config.mjs';
import { DURATION, PORT, floorRatio, load, startServer, stopServer } from '../harness.mjs';

const NGINX = process.env.NGINX_BIN || '/usr/sbin/nginx';
const NGINX_PORT = PORT + 2;
/** Twice the bench's 8: enough requests in flight to keep two servers busy. */
const CLUSTER_CONNECTIONS = 16;
const COMPARED = ['folder counts', 'list completedOrder page 1', 'list orderHistory page 1000'];

async function startNginx(serverPorts) {
  const prefix = await mkdtemp(path.join(tmpdir(), 'eta-bench-nginx-'));
  for (const kind of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(prefix, kind));
  await writeFile(
    path.join(prefix, 'nginx.conf'),
    await localNginxConfig({ prefix, listenPort: NGINX_PORT, serverPorts }),
  );
  const child = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 100; i += 1) {
    const ok = await fetch(`http://127.0.0.1:${NGINX_PORT}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { child, prefix };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('nginx did not start');
}

/**
 * For each compared case: one server at 16 connections, then a second server started beside it and both behind
 * nginx at 16 connections. Every answer must be 200 (load() rejects anything else). Rows: both, and the ratio.
 */
export async function measureThroughNginx(cases, stripeStandIn, token, floor) {
  const selected = cases.filter((c) => COMPARED.includes(c.name));
  const single = [];
  for (const c of selected) {
    await load(c.name, c, token, 2, CLUSTER_CONNECTIONS);
    single.push(await load(c.name, c, token, DURATION, CLUSTER_CONNECTIONS));
  }
  const second = await startServer(stripeStandIn, PORT + 1);
  const nginx = await startNginx([PORT, PORT + 1]);
  const rows = [];
  try {
    for (const [i, c] of selected.entries()) {
      const request = { ...c, port: NGINX_PORT };
      await load(c.name, request, token, 2, CLUSTER_CONNECTIONS);
      const both = await load(c.name, request, token, DURATION, CLUSTER_CONNECTIONS);
      const ratio = Math.round((both.rps / single[i].rps) * 100) / 100;
      for (const [label, http] of [
        [`${c.name}: one server (${CLUSTER_CONNECTIONS} connections)`, single[i]],
        [
          `${c.name}: two servers behind nginx (${CLUSTER_CONNECTIONS} connections), ${ratio}× one server's req/s`,
          both,
        ],
      ]) {
        rows.push({
          name: label,
          ...http,
          sqlMs: null,
          planningMs: null,
          statements: null,
          floorRatio: floorRatio(http.p95, floor),
          connections: CLUSTER_CONNECTIONS,
          targetP95: '—',
          meets: true,
          ratio,
        });
        console.log(`     ${label.padEnd(44)} p50 ${http.p50}ms  p95 ${http.p95}ms  ${http.rps} req/s`);
      }
    }
  } finally {
    nginx.child.kill('SIGTERM');
    await once(nginx.child, 'exit');
    await rm(nginx.prefix, { recursive: true, force: true });
    await stopServer(second);
  }
  return rows;
}
