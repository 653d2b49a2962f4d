// What a service call costs the server's one thread: `npm run build:server && node bench/node-cpu.mjs` against the
// bench's database (seeded by `npm run bench`). Each case runs 100 times to warm up, then N times (env N, 400) one
// after another on one connection with prepared statements, as the server runs them; it prints the process's CPU
// time per call (process.cpuUsage: user and system, so the socket writes too) and the wall time. The HTTP cases'
// latency swings with whatever else the machine runs (a static file's p95 moved 4.9 -> 11 ms within minutes on
// 2026-11-28); CPU time per call moves a few per cent, so it is what an A/B of server-side code compares (run it in
// two checkouts, alternately, against the same database). PostgreSQL's own time is not in it.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { databaseUrl, serverModule, serverServices } from './harness.mjs';

const { preparedStatementPool } = await serverModule('db/prepared-pool.js');
const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
const db = new Kysely({ dialect: new PostgresDialect({ pool: preparedStatementPool(pool) }) });
// One set of services for every call, as in the server (the search keeps its sample between calls).
const s = (await serverServices())(db);
const staff = { id: 1, type: 'Admin' };
const {
  rows: [{ order_id: orderId }],
} = await pool.query(`SELECT order_id FROM orders WHERE payment_status = 'Success' ORDER BY id LIMIT 1 OFFSET 500000`);

const cases = {
  'folder counts': () => s.queries.folderCounts(staff),
  'list orderHistory page 1': () => s.queries.listQueue(staff, 'orderHistory', 1, 50),
  'list newOrder page 1': () => s.queries.listQueue(staff, 'newOrder', 1, 50),
  'list orderHistory page 1000': () => s.queries.listQueue(staff, 'orderHistory', 1000, 50),
  'list orderHistory page 1000 urgent first': () =>
    s.queries.listQueue(staff, 'orderHistory', 1000, 50, { urgentFirst: true }),
  'search "risu"': () => s.queries.searchQueue(staff, 'orderHistory', 'risu', 0, 50),
  'search "gmail"': () => s.queries.searchQueue(staff, 'orderHistory', 'gmail', 0, 50),
  'search a whole order id': () => s.queries.searchQueue(staff, 'orderHistory', orderId, 0, 50),
  'order detail': () => s.detail.details(orderId),
};
const N = Number(process.env.N ?? 400);
for (const [name, call] of Object.entries(cases)) {
  for (let i = 0; i < 100; i += 1) await call();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < N; i += 1) await call();
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  const perCall = ((used.user + used.system) / N).toFixed(0).padStart(5);
  console.log(`${name.padEnd(30)} node cpu ${perCall} µs/call   wall ${(wall / N).toFixed(2)} ms/call`);
}
await pool.end();
process.exit(0);
