// Two servers on one database behind nginx (issue 23): the folder counts and list pages through deploy/nginx.conf,
// against the same requests sent to one server at the same concurrency in the same run, so the ratio is honest.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
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

const TICKS_PER_SECOND = 100;

/** CPU seconds used so far: the machine's busy time (all cores), and each named group's processes' user + system time. */
async function cpuSample(processes) {
  const [cpu] = (await readFile('/proc/stat', 'utf8')).split('\n');
  const ticks = cpu.split(/\s+/).slice(1).map(Number);
  const idle = ticks[3] + ticks[4];
  const sample = { at: performance.now(), busy: (ticks.reduce((a, b) => a + b, 0) - idle) / TICKS_PER_SECOND };
  for (const [name, pids] of Object.entries(processes)) {
    const used = new Map();
    for (const pid of await pids()) used.set(pid, await processCpu(pid));
    sample[name] = used;
  }
  return sample;
}

/**
 * Seconds used between two samples by the processes alive at the second, each from its own first reading (0 for one
 * started in between: a PostgreSQL backend of a new connection). One that ended in between is not counted: counting
 * it by its first reading alone would subtract the CPU it had used before the run.
 */
const usedBetween = (before, after) => [...after].reduce((sum, [pid, used]) => sum + used - (before.get(pid) ?? 0), 0);

/** A process's user + system time in seconds (0 once it has gone). */
async function processCpu(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return 0;
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The processes whose command is `name` (PostgreSQL runs one backend per connection). */
async function processesNamed(name) {
  const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const comms = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')));
  return pids.filter((_, i) => comms[i].trim() === name);
}

/** A process and its children (nginx's master does no proxying; its worker does). */
async function withChildren(pid) {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return [pid, ...children.split(' ').filter(Boolean)];
}

/** The processes a run's CPU is told apart for; `load generator` is this process (autocannon runs in it). */
const accounted = (servers, nginx) => ({
  ...servers,
  ...(nginx ? { nginx: () => withChildren(nginx) } : {}),
  PostgreSQL: () => processesNamed('postgres'),
  'load generator': () => [process.pid],
});

/** Where the CPU went during a run, in cores (1 = one core all the time): the machine's, and each process's. */
async function measureCpu(processes, run) {
  const before = await cpuSample(processes);
  const result = await run();
  const after = await cpuSample(processes);
  const seconds = (after.at - before.at) / 1000;
  const cores = Object.fromEntries(
    Object.keys(after)
      .filter((k) => k !== 'at')
      .map((k) => {
        const used = k === 'busy' ? after.busy - before.busy : usedBetween(before[k], after[k]);
        return [k, Math.round((used / seconds) * 100) / 100];
      }),
  );
  return { result, cores };
}

const describeCores = ({ busy, ...processes }) =>
  `cores busy ${busy} of 2 (${Object.entries(processes)
    .map(([name, used]) => `${name} ${used}`)
    .join(', ')})`;

/**
 * For each compared case: one server at 16 connections, then a second server started beside it and both behind
 * nginx at 16 connections. Every answer must be 200 (load() rejects anything else). Rows: both, and the ratio.
 */
export async function measureThroughNginx(server, cases, stripeStandIn, token, floor) {
  const selected = cases.filter((c) => COMPARED.includes(c.name));
  const single = [];
  for (const c of selected) {
    await load(c.name, c, token, 2, CLUSTER_CONNECTIONS);
    single.push(
      await measureCpu(accounted({ server: () => [server.pid] }), () =>
        load(c.name, c, token, DURATION, CLUSTER_CONNECTIONS),
      ),
    );
  }
  const second = await startServer(stripeStandIn, PORT + 1);
  const nginx = await startNginx([PORT, PORT + 1]);
  const processes = accounted({ server1: () => [server.pid], server2: () => [second.pid] }, nginx.child.pid);
  const rows = [];
  try {
    for (const [i, c] of selected.entries()) {
      const request = { ...c, port: NGINX_PORT };
      await load(c.name, request, token, 2, CLUSTER_CONNECTIONS);
      const both = await measureCpu(processes, () => load(c.name, request, token, DURATION, CLUSTER_CONNECTIONS));
      const ratio = Math.round((both.result.rps / single[i].result.rps) * 100) / 100;
      for (const [label, { result: http, cores }] of [
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
          cores,
        });
        console.log(
          `     ${label.padEnd(44)} p50 ${http.p50}ms  p95 ${http.p95}ms  ${http.rps} req/s  ${describeCores(cores)}`,
        );
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
