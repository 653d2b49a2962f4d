// `npm run cluster`: the production shape on one machine, to try it: two servers on one PostgreSQL database behind
// nginx with deploy/nginx.conf (docs/DEPLOY.md). Builds when stale, creates and migrates the database when missing,
// prints the address, and stops all three on Ctrl-C (SIGTERM to each: the servers drain their requests).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { localNginxConfig } from './nginx-config.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const NGINX = process.env.NGINX_BIN || '/usr/sbin/nginx';
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/eta_cluster';
const PORT = Number(process.env.CLUSTER_PORT || 8080);
const SERVER_PORTS = [PORT + 1, PORT + 2];

function fail(message) {
  process.stderr.write(`cluster: ${message}\n`);
  process.exit(1);
}

if (!/^postgres(ql)?:\/\//.test(DATABASE_URL)) fail('DATABASE_URL must be a postgres:// URL (the servers share it)');
if (!existsSync(NGINX)) fail(`nginx not found at ${NGINX} (apt-get install nginx, or set NGINX_BIN)`);

/** Creates the database when the server has none of that name (the servers migrate it when they start). */
async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) fail(`database name "${name}" must be lowercase letters, digits and _`);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE ${name}`);
      process.stdout.write(`cluster: created database ${name}\n`);
    }
  } finally {
    await client.end();
  }
}

const build = spawnSync(process.execPath, [path.join(root, 'tools/build-if-stale.mjs')], { stdio: 'inherit' });
if (build.status !== 0) fail('the build failed');
await ensureDatabase(DATABASE_URL);

const prefix = await mkdtemp(path.join(os.tmpdir(), 'eta-cluster-'));
await writeFile(
  path.join(prefix, 'nginx.conf'),
  await localNginxConfig({ prefix, listenPort: PORT, serverPorts: SERVER_PORTS }).catch((err) => fail(err.message)),
);
const dataDir = process.env.DATA_DIR || path.join(root, 'data-cluster');
await mkdir(dataDir, { recursive: true });

const children = [];
let stopping = false;
function start(name, command, args, env) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`cluster: ${name} stopped (${signal ?? `exit ${code}`}); stopping the others\n`);
      void stop(1);
    }
  });
  children.push({ name, child });
  return child;
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    children.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  await rm(prefix, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

// The first server migrates and seeds alone; the second starts once the first answers, on a migrated database.
const serverEnv = (port) => ({
  DATABASE_URL,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  TRUST_PROXY: 'true',
  PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${PORT}`,
});
async function waitReady(port) {
  for (let i = 0; i < 600 && !stopping; i += 1) {
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  fail(`the server on port ${port} did not become ready`);
}
const server = path.join(root, 'apps/server/dist/server.js');
start('server 1', process.execPath, [server], serverEnv(SERVER_PORTS[0]));
await waitReady(SERVER_PORTS[0]);
start('server 2', process.execPath, [server], serverEnv(SERVER_PORTS[1]));
await waitReady(SERVER_PORTS[1]);
start('nginx', NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;']);

process.stdout.write(
  `\n  eTA Desk cluster: http://localhost:${PORT}  (nginx → servers on ${SERVER_PORTS.join(' and ')}, ` +
    `database ${new URL(DATABASE_URL).pathname.slice(1)})\n  Ctrl-C stops all three.\n\n`,
);
