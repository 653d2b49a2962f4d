// Intake: new orders through POST /api/intake/orders with a landing site's key, as landing sites send them: every
// application its own traveller, signature image, PaymentIntent and Idempotency-Key (intake-applications.mjs).
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
import { intakeApplications } from './intake-applications.mjs';

/** One complete valid application with a real signature image (the validation case checks it 20,000 times). */
export async function intakeBody() {
  const { intakeExample } = await import(path.join(root, 'packages/contracts/dist/index.js'));
  const { demoSignaturePng } = await serverModule('demo/demo-files.js');
  return {
    ...intakeExample(new Date().toISOString().slice(0, 10)),
    email: 'bench.intake@example.com',
    signature: `data:image/png;base64,${demoSignaturePng().toString('base64')}`,
  };
}

/** A new key for the default landing site, made through the Admin API as an Admin makes one. */
export async function newIntakeKey(token) {
  const res = await fetch(`http://127.0.0.1:${PORT}/api/admin/landing-sites/default/intake-key`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: '{}',
  });
  const made = await res.json();
  if (res.status !== 200) throw new Error(`intake key: ${res.status} ${JSON.stringify(made)}`);
  return { keyId: made.data.id, key: made.data.intakeKey };
}

/** Applications a second at most, for making them ahead of a load of `seconds` (runs so far: 100-500 a second). */
const MOST_PER_SECOND = 700;

/**
 * The request every connection sends, and what was sent (Idempotency-Key to e-mail) for the checks afterwards.
 * `repeated`: the one body of runs 15-20 every time (the same traveller, passport, telephone, signature image and
 * PaymentIntent), each with its own Idempotency-Key: what the bench measured before issue 31, kept to show the gap.
 */
async function intakeRequest(intakeKey, { repeated }) {
  const sent = new Map();
  const headers = { authorization: `Bearer ${intakeKey}` };
  if (repeated) {
    const body = await intakeBody();
    const run = Date.now().toString(36);
    const request = {
      method: 'POST',
      path: '/api/intake/orders',
      body,
      headers,
      perRequestHeaders: () => {
        const key = `bench-${run}-${sent.size + 1}`;
        sent.set(key, body.email);
        return { 'idempotency-key': key };
      },
      expectStatus: 201,
    };
    return { sent, prepare: () => {}, request, single: () => ({}) };
  }
  const applications = await intakeApplications();
  let current = null;
  const take = () => {
    current = applications.next();
    sent.set(current.key, current.email);
    return current;
  };
  return {
    sent,
    prepare: (seconds) => applications.prepare(Math.ceil(seconds * MOST_PER_SECOND)),
    request: {
      method: 'POST',
      path: '/api/intake/orders',
      headers,
      perRequestBody: () => take().text,
      perRequestHeaders: () => ({ 'idempotency-key': current.key }),
      expectStatus: 201,
    },
    /** verify() sends one application of its own, as an object. */
    single: () => {
      const { text, key } = take();
      return { body: JSON.parse(text), perRequestHeaders: () => ({ 'idempotency-key': key }) };
    },
  };
}

/**
 * What the key's requests stored, checked against what was sent and answered: every answer was a 201 (load checks
 * each), the orders are the 201s plus at most the requests still in flight when a load stopped (`inFlight`: the server
 * finishes them, autocannon does not count them), every order is an application that was sent (its Idempotency-Key's e-mail)
 * and has its idempotency row, its confirmation mail and its audit row.
 */
async function checkStored(pool, keyId, sent, answered, inFlight, name) {
  const { rows } = await pool.query(
    `SELECT r.idempotency_key AS key, o.email,
            (SELECT count(*)::int FROM mails m WHERE m.order_id = o.id AND m.kind = 'confirmation') AS mails,
            (SELECT count(*)::int FROM audit_log a WHERE a.order_id = o.id AND a.action = 'order.intake') AS audits
       FROM orders o LEFT JOIN intake_requests r ON r.order_id = o.id
      WHERE o.intake_key_id = $1`,
    [keyId],
  );
  const wrong = rows.filter((r) => !r.key || sent.get(r.key) !== r.email || r.mails !== 1 || r.audits !== 1);
  if (rows.length < answered || rows.length > Math.min(sent.size, answered + inFlight) || wrong.length > 0) {
    throw new Error(
      `${name}: ${rows.length} orders stored for ${answered} answers and ${sent.size} requests sent; ` +
        `${wrong.length} without their application, idempotency row, mail or audit row: ${JSON.stringify(wrong.slice(0, 3))}`,
    );
  }
  return rows.length;
}

/**
 * New orders through POST /api/intake/orders at 8 connections, after a 2 s warm-up: every answer must be 201, and
 * afterwards the orders the key brought in must be exactly the applications answered (checkStored). No bare-SQL
 * figure: the write is one statement, but validation, the signature's file and the key's checks are part of the
 * cost, so the HTTP figures time it. `repeated` measures the one body of runs 15-20 instead (intakeRequest); `around`
 * wraps the measured load (a profile or a CPU reading of those seconds only).
 */
export async function measureIntake(pool, token, floor, { repeated = false, around = (measure) => measure() } = {}) {
  const { keyId, key } = await newIntakeKey(token);
  const { sent, prepare, request, single } = await intakeRequest(key, { repeated });
  const name = repeated
    ? `intake: one body repeated, each its own Idempotency-Key (${CONNECTIONS} connections)`
    : `intake: new orders as landing sites send them (${CONNECTIONS} connections)`;
  await verify({ ...request, ...single() }, token);
  prepare(2);
  const warm = await load(name, request, null, 2);
  prepare(DURATION);
  const settle = () => new Promise((r) => setTimeout(r, 1000));
  await settle();
  const before = (await pool.query('SELECT count(*)::int AS n FROM orders WHERE intake_key_id = $1', [keyId])).rows[0]
    .n;
  const http = await around(() => load(name, request, null, DURATION));
  // Requests still in flight when the load stops are finished by the server but not counted by autocannon.
  await settle();
  // Each of the two loads may leave a request in flight on every connection.
  const stored = await checkStored(pool, keyId, sent, 1 + warm.requests + http.statuses[201], 2 * CONNECTIONS, name);
  const made = stored - before;
  const meets = http.p95 <= TARGETS.intake && http.rps >= INTAKE_MIN_RPS;
  const row = httpOnlyRow(name, http, floor, {
    targetP95: TARGETS.intake,
    targetRps: INTAKE_MIN_RPS,
    ordersStored: made,
    meets,
  });
  console.log(
    `${meets ? 'ok  ' : 'MISS'} ${name.padEnd(44)} p50 ${row.p50}ms  p95 ${row.p95}ms  p97.5 ${row.p975}ms  p99 ${row.p99}ms  ${row.rps} orders/s (target ${INTAKE_MIN_RPS})  ${made} orders stored`,
  );
  return row;
}

/**
 * Takes the intake case's orders out again (with their mails, idempotency keys, audit rows and signature files), so
 * every run reads the seeded data set: 10 s of intake adds thousands of New orders, which moved the commonest name,
 * the New queue's deep page and the newest weeks of every search. The audit trail's append-only trigger is set aside
 * for this one bench-only clean-up. `store`: the server's document store (the bench's unless given).
 */
export async function removeIntakeOrders(pool, store) {
  store ??= await benchDocumentStore();
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
