// Intake: new orders through POST /api/intake/orders with a landing site's key, each with its own Idempotency-Key.
import path from 'node:path';
import {
  CONNECTIONS,
  DURATION,
  INTAKE_MIN_RPS,
  PORT,
  TARGETS,
  benchDocumentStore,
  httpOnlyRow,
  load,
  root,
  serverModule,
  verify,
} from '../harness.mjs';

/** A complete valid application with a real signature image, as a landing site sends it. */
export async function intakeBody() {
  const { intakeExample } = await import(path.join(root, 'packages/contracts/dist/index.js'));
  const { demoSignaturePng } = await serverModule('demo/demo-files.js');
  return {
    ...intakeExample(new Date().toISOString().slice(0, 10)),
    email: 'bench.intake@example.com',
    signature: `data:image/png;base64,${demoSignaturePng().toString('base64')}`,
  };
}

/**
 * The intake case: a new key for the default landing site (made through the Admin API) and a complete valid
 * application with a real signature image; every request carries its own Idempotency-Key, so each makes an order.
 */
async function intakeCase(token) {
  const res = await fetch(`http://127.0.0.1:${PORT}/api/admin/landing-sites/default/intake-key`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: '{}',
  });
  const made = await res.json();
  if (res.status !== 200) throw new Error(`intake key: ${res.status} ${JSON.stringify(made)}`);
  const body = await intakeBody();
  let n = 0;
  const run = Date.now().toString(36);
  return {
    keyId: made.data.id,
    request: {
      method: 'POST',
      path: '/api/intake/orders',
      body,
      headers: { authorization: `Bearer ${made.data.intakeKey}` },
      perRequestHeaders: () => ({ 'idempotency-key': `bench-${run}-${(n += 1)}` }),
      sent: () => n,
      expectStatus: 201,
    },
  };
}

/**
 * New orders through POST /api/intake/orders at 8 connections: every answer must be 201, and afterwards the orders
 * the key brought in must be exactly the 201s answered (no order lost, none made twice). No bare-SQL figure: the
 * write is one statement, but validation, the signature's file and the key's checks are part of the cost, so the
 * HTTP figures time it.
 */
export async function measureIntake(pool, token, floor) {
  const { keyId, request } = await intakeCase(token);
  const name = `intake: new orders with a signature (${CONNECTIONS} connections)`;
  await verify(request, token);
  await load(name, request, null, 2);
  const stored = async () =>
    (await pool.query('SELECT count(*)::int AS n FROM orders WHERE intake_key_id = $1', [keyId])).rows[0].n;
  const settle = () => new Promise((r) => setTimeout(r, 1000));
  await settle();
  const before = await stored();
  const sentBefore = request.sent();
  const http = await load(name, request, null, DURATION);
  // Requests still in flight when the load stops are finished by the server but not counted by autocannon.
  await settle();
  const made = (await stored()) - before;
  const sent = request.sent() - sentBefore;
  const answered = Object.values(http.statuses).reduce((a, b) => a + b, 0);
  const { rows: keys } = await pool.query(
    `SELECT count(*)::int AS n FROM intake_requests r JOIN orders o ON o.id = r.order_id WHERE o.intake_key_id = $1`,
    [keyId],
  );
  if (http.statuses[201] !== answered || made < answered || made > sent || keys[0].n !== before + made) {
    throw new Error(
      `${name}: ${made} orders stored for ${answered} answers and ${sent} requests sent, ` +
        `${keys[0].n} idempotency keys for ${before + made} orders ${JSON.stringify(http.statuses)}`,
    );
  }
  const meets = http.p95 <= TARGETS.intake && http.rps >= INTAKE_MIN_RPS;
  const row = httpOnlyRow(name, http, floor, {
    targetP95: TARGETS.intake,
    targetRps: INTAKE_MIN_RPS,
    ordersStored: made,
    meets,
  });
  console.log(
    `${meets ? 'ok  ' : 'MISS'} ${name.padEnd(44)} p50 ${row.p50}ms  p95 ${row.p95}ms  p99 ${row.p99}ms  ${row.rps} orders/s (target ${INTAKE_MIN_RPS})  ${made} orders stored`,
  );
  return row;
}

/**
 * Takes the intake case's orders out again (with their mails, idempotency keys, audit rows and signature files), so
 * every run reads the seeded data set: 10 s of intake adds thousands of New orders, which moved the commonest name,
 * the New queue's deep page and the newest weeks of every search. The audit trail's append-only trigger is set aside
 * for this one bench-only clean-up.
 */
export async function removeIntakeOrders(pool) {
  const store = await benchDocumentStore();
  const { rows } = await pool.query('SELECT customer_sign FROM orders WHERE intake_key_id IS NOT NULL');
  if (rows.length === 0) return;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
    await client.query(
      'DELETE FROM audit_log WHERE order_id IN (SELECT id FROM orders WHERE intake_key_id IS NOT NULL)',
    );
    await client.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    // Counted afresh afterwards, as after a load: one counter row decremented 100,000 times in one transaction
    // walks a longer chain of its own versions each time (4.5 minutes instead of seconds).
    await client.query('ALTER TABLE orders DISABLE TRIGGER orders_count, DISABLE TRIGGER orders_report_count');
    await client.query('DELETE FROM orders WHERE intake_key_id IS NOT NULL');
    await client.query('ALTER TABLE orders ENABLE TRIGGER orders_count, ENABLE TRIGGER orders_report_count');
    await client.query('SELECT rebuild_order_counters(), rebuild_report_counters()');
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
  for (const { customer_sign: key } of rows) if (key) await store.delete(key);
  await pool.query('VACUUM (ANALYZE) orders, mails, audit_log, intake_requests');
  // The counters are a few hundred rows again; give their files back too, so a scan reads only those.
  await pool.query('VACUUM (FULL, ANALYZE) order_counters, order_report_counts');
  console.log(`Removed ${rows.length} orders an intake run had made.`);
}
