// Stripe's dispute webhooks: signed `charge.dispute.created` events, each for another Completed Stripe order.
import { createHmac } from 'node:crypto';
import { BENCH_WEBHOOK_SECRET, CONNECTIONS, DURATION, PORT, TARGETS, httpOnlyRow, load } from '../harness.mjs';

/**
 * Stripe's dispute webhooks at 8 connections: each request a new `charge.dispute.created` event (its own event and
 * dispute id) for another Completed Stripe order of the data, signed as Stripe signs (HMAC-SHA256 over "t.body")
 * at the moment it is sent. Every answer must be 200 and afterwards every event must be stored once and applied
 * (the order in ChargeBack), so a refused signature or an unmatched order is never what is timed.
 */
/** Stripe's charge.dispute.created event for `charge`, its event and dispute ids made from `suffix`, as JSON. */
export function disputeCreatedEvent(suffix, charge) {
  const now = Math.floor(Date.now() / 1000);
  return JSON.stringify({
    id: `evt_${suffix}`,
    object: 'event',
    type: 'charge.dispute.created',
    created: now,
    livemode: false,
    data: {
      object: {
        id: `dp_${suffix}`,
        object: 'dispute',
        amount: 8900,
        currency: 'usd',
        charge,
        payment_intent: null,
        reason: 'fraudulent',
        status: 'needs_response',
        evidence_details: { due_by: now + 7 * 86_400 },
      },
    },
  });
}

/** The Stripe-Signature header of `body` under the bench's webhook secret. */
export function signedForStripe(body) {
  const t = Math.floor(Date.now() / 1000);
  return {
    'stripe-signature': `t=${t},v1=${createHmac('sha256', BENCH_WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex')}`,
  };
}

export async function measureWebhooks(pool, floor) {
  const name = `webhook: Stripe dispute opened (${CONNECTIONS} connections)`;
  const { rows: orders } = await pool.query(
    `SELECT o.transaction_id FROM orders o JOIN gateways g ON g.id = o.gateway_id
      WHERE g.gateway_name = 'Stripe' AND o.process_status = 'Completed' AND o.payment_status = 'Success'
        AND o.transaction_id LIKE 'ch_%' ORDER BY o.id LIMIT 60000`,
  );
  let n = 0;
  const run = Date.now().toString(36);
  const nextBody = () => {
    const charge = orders[n % orders.length].transaction_id;
    n += 1;
    return disputeCreatedEvent(`bench_${run}_${n}`, charge);
  };
  const sign = signedForStripe;
  const request = {
    method: 'POST',
    path: '/api/webhooks/stripe',
    headers: {},
    perRequestBody: nextBody,
    perRequestHeaders: sign,
    expectStatus: 200,
  };
  const first = nextBody();
  const check = await fetch(`http://127.0.0.1:${PORT}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...sign(first) },
    body: first,
  });
  if (check.status !== 200) throw new Error(`${name}: answered ${check.status} ${await check.text()}`);
  await load(name, request, null, 2);
  // Requests of the warm-up still in flight finish before the count is read.
  await new Promise((r) => setTimeout(r, 1000));
  const stored = async () =>
    (
      await pool.query(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE outcome = 'applied')::int AS applied
      FROM gateway_events WHERE event_id LIKE $1`,
        [`evt_bench_${run}_%`],
      )
    ).rows[0];
  const before = await stored();
  const sentBefore = n;
  const http = await load(name, request, null, DURATION);
  await new Promise((r) => setTimeout(r, 1000));
  const after = await stored();
  const answered = Object.values(http.statuses).reduce((a, b) => a + b, 0);
  const made = after.n - before.n;
  if (http.statuses[200] !== answered || made < answered || made > n - sentBefore || after.applied !== after.n) {
    throw new Error(
      `${name}: ${made} events stored (${after.applied} of ${after.n} applied) for ${answered} answers ${JSON.stringify(http.statuses)}`,
    );
  }
  if (n > orders.length) throw new Error(`${name}: ${n} events for ${orders.length} orders; some repeated an order`);
  const row = httpOnlyRow(name, http, floor, { targetP95: TARGETS.webhook });
  console.log(
    `${row.meets ? 'ok  ' : 'MISS'} ${name.padEnd(44)} p50 ${row.p50}ms  p95 ${row.p95}ms  p99 ${row.p99}ms  ${row.rps} req/s  ${made} events stored`,
  );
  return row;
}

/**
 * Puts the orders the webhook case disputed back as they were (Completed, no dispute), without their disputes,
 * events, remarks and audit rows, so every run reads the seeded data set; the counters are counted afresh.
 */
export async function removeWebhookDisputes(pool) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query(
      `SELECT DISTINCT order_id AS id FROM gateway_events WHERE event_id LIKE 'evt_bench_%' AND order_id IS NOT NULL`,
    );
    const ids = rows.map((r) => r.id);
    await client.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
    await client.query(`DELETE FROM audit_log WHERE action = 'order.dispute-created' AND order_id = ANY($1)`, [ids]);
    await client.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    await client.query(`DELETE FROM remarks WHERE staff_id IS NULL AND chargeback AND order_id = ANY($1)`, [ids]);
    await client.query(
      `DELETE FROM dispute_history WHERE dispute_id IN (SELECT id FROM disputes WHERE dispute_id LIKE 'dp_bench_%')`,
    );
    await client.query(`DELETE FROM disputes WHERE dispute_id LIKE 'dp_bench_%'`);
    await client.query(`DELETE FROM gateway_events WHERE event_id LIKE 'evt_bench_%'`);
    await client.query('ALTER TABLE orders DISABLE TRIGGER orders_count, DISABLE TRIGGER orders_report_count');
    await client.query(`UPDATE orders SET process_status = 'Completed', dispute_due_at = NULL WHERE id = ANY($1)`, [
      ids,
    ]);
    await client.query('ALTER TABLE orders ENABLE TRIGGER orders_count, ENABLE TRIGGER orders_report_count');
    await client.query('SELECT rebuild_order_counters()');
    await client.query('COMMIT');
    console.log(`Put back ${ids.length} orders the webhook case had disputed.`);
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
  await pool.query('VACUUM (ANALYZE) orders, remarks, disputes, dispute_history, gateway_events, audit_log');
  await pool.query('VACUUM (FULL, ANALYZE) order_counters');
}
