// `npm run bench`: seeds a million orders into the PostgreSQL at DATABASE_URL (once), starts the real
// built server against it, drives each endpoint with autocannon at concurrency 8 (the defence pack at 4, the
// issue's figure) and measures the bare SQL of each endpoint with EXPLAIN ANALYZE. Prints a table, writes
// bench/results/<date>T<hh-mm>.json and the table in docs/PERFORMANCE.md. Targets live in the bench (harness.mjs),
// never in unit tests. What every run shares is in bench/harness.mjs (settings, targets, database, server, load,
// floor, report); each scenario, its data and its checks are in bench/scenarios/. This file runs them in order.
import {
  BENCH_EMAIL,
  TARGET_ORDERS,
  ensureBenchAdmin,
  ensureDatabase,
  kyselyOn,
  login,
  measureCase,
  measureFloor,
  only,
  openPool,
  pinning,
  seedIfNeeded,
  serverServices,
  startServer,
  startStripeStandIn,
  stopServer,
  writeReport,
} from './harness.mjs';
import { defencePackCases, ensureDisputedOrder, measureListBesidePacks } from './scenarios/defence-pack.mjs';
import { detailCases, ensureBusyOrder } from './scenarios/detail.mjs';
import { measureIntake, removeIntakeOrders } from './scenarios/intake.mjs';
import { measureIntakeValidation } from './scenarios/intake-validation.mjs';
import { folderCountCases, futureCountCases, listCases, urgentFirstCases } from './scenarios/queues.mjs';
import { ensureProcessedBy, reportCases } from './scenarios/reports.mjs';
import { addBursts, measureListBesideSearches, removeBursts, searchCases } from './scenarios/search.mjs';
import { measureLiveDesk } from './scenarios/live-desk.mjs';
import { measureThroughNginx } from './scenarios/cluster.mjs';
import { measureWebhooks, removeWebhookDisputes } from './scenarios/webhook.mjs';
import { measureSoak } from './scenarios/soak.mjs';

const stripeStandIn = await startStripeStandIn();
const placement = pinning();

async function main() {
  await ensureDatabase();
  const pool = openPool();
  // Migrations run inside the seeder and the server; make sure they exist before reading samples.
  const seed = await seedIfNeeded(pool);
  await ensureBenchAdmin(pool);
  await ensureProcessedBy(pool);
  await removeIntakeOrders(pool);
  // The search's bursts of new orders, a minute old when the searches run (scenarios/search.mjs).
  await addBursts(pool);

  const sample = (
    await pool.query(
      // Halfway through the paid orders (500,000 of a million); a smaller BENCH_ORDERS still finds one.
      `SELECT order_id, email, passport_surname FROM orders WHERE payment_status = 'Success' ORDER BY id LIMIT 1 OFFSET $1`,
      [Math.floor(TARGET_ORDERS / 2)],
    )
  ).rows[0];
  const staff = (await pool.query(`SELECT * FROM staff WHERE email = $1`, [BENCH_EMAIL])).rows[0];

  await ensureBusyOrder(pool, sample.order_id);
  const disputed = await ensureDisputedOrder(pool);
  const services = await serverServices();
  const context = { pool, staff, sample, disputed, setup: services(kyselyOn(pool)) };
  // The HTTP cases in the order they run and are reported.
  const cases = [
    ...folderCountCases(context),
    ...(await listCases(context)),
    ...(await urgentFirstCases(context)),
    ...(await searchCases(context)),
    ...futureCountCases(),
    ...detailCases(context),
    ...defencePackCases(context),
    ...reportCases(),
  ];

  const selected = only ? cases.filter((c) => only.test(c.name)) : cases;
  const databaseBytes = Number(
    (await pool.query('SELECT pg_database_size(current_database()) AS bytes')).rows[0].bytes,
  );
  // The scenarios on the bench's server; BENCH_ONLY=soak needs none of them (the soak starts a server of its own).
  const onMainServer = [
    'while packs',
    'while hard searches',
    'webhook',
    'live desk',
    'nginx',
    'intake',
    'intake: one body repeated',
  ];
  const mainServer = !only || selected.length > 0 || onMainServer.some((n) => only.test(n));
  const results = [];
  let floor = null;
  try {
    if (mainServer) {
      const server = await startServer(stripeStandIn);
      try {
        await runCases(server);
      } finally {
        await stopServer(server);
      }
    }
    // Last, on a server of its own: the soak (scenarios/soak.mjs), BENCH_SOAK_SECONDS long (60 s unless set).
    if (!only || only.test('soak')) results.push(await measureSoak({ pool, stripeStandIn, floor }));
  } finally {
    await removeBursts(pool);
    await pool.end();
  }

  if (only) return;
  await writeReport({ placement, seed, floor, results, databaseBytes });

  /** Every scenario but the soak, on the bench's server. */
  async function runCases(server) {
    const token = await login();
    floor = await measureFloor();
    for (const c of selected) results.push(await measureCase(c, { token, pool, services, floor }));
    if (!only || only.test('while packs')) results.push(await measureListBesidePacks(context, token, floor));
    if (!only || only.test('while hard searches')) results.push(await measureListBesideSearches(cases, token, floor));
    if (!only || only.test('webhook')) {
      results.push(await measureWebhooks(pool, floor));
      await removeWebhookDisputes(pool);
    }
    if (!only || only.test('live desk')) results.push(await measureLiveDesk(pool, token, floor));
    if (!only || only.test('nginx'))
      results.push(...(await measureThroughNginx(server, cases, stripeStandIn, token, floor)));
    if (!only || only.test('intake')) {
      results.push(await measureIntakeValidation());
      results.push(await measureIntake(pool, token, floor));
      await removeIntakeOrders(pool);
    }
    // The one body of runs 15-20 repeated, to show what it measured beside the landing sites' case: not in a full run,
    // only when BENCH_ONLY names it ('intake', 'one body').
    if (only?.test('intake: one body repeated')) {
      results.push(await measureIntake(pool, token, floor, { repeated: true }));
      await removeIntakeOrders(pool);
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
