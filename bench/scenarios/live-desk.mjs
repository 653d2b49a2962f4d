// The live desk's fan-out (issue 23): 500 connected event streams (50 staff members, 10 tabs each, as the server
// allows at most 10 per person), and a change made through the API delivered to every one of them.
import http from 'node:http';
import { BENCH_PASSWORD, PORT, httpOnlyRow } from '../harness.mjs';

const STAFF = 50;
const TABS = 10;
const ROUNDS = 20;
export const LIVE_DESK_TARGET_P95_MS = 500;

/** One event stream read line by line (text/event-stream): calls `onEvent(name, data)` per event. */
function openStream(token, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port: PORT,
        path: '/api/admin/events',
        headers: { authorization: token, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`event stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let name = 'message';
            const data = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) name = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
            }
            if (data.length) onEvent(name, data.join('\n'));
          }
        });
        resolve({ close: () => req.destroy() });
      },
    );
    req.on('error', reject);
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * 500 streams connect and each must first receive its counts snapshot; then, ROUNDS times, a remark is added to one
 * order through the API (200 required) and the time from sending that request to each stream's `order` event for it
 * is recorded: 500 × ROUNDS deliveries, every one of which must arrive (a missing one fails the run).
 */
export async function measureLiveDesk(pool, token, floor) {
  const name = `live desk: a change delivered to ${STAFF * TABS} event streams`;
  const { rows: admins } = await pool.query(`SELECT password_hash FROM staff WHERE email = 'bench@eta-desk.local'`);
  for (let i = 1; i <= STAFF; i += 1) {
    await pool.query(
      `INSERT INTO staff (name, email, password_hash, type) VALUES ($1, $2, $3, 'Manager')
       ON CONFLICT (lower(email)) DO UPDATE SET password_hash = EXCLUDED.password_hash, active = true`,
      [`Live Desk ${i}`, `bench-live-${i}@eta-desk.local`, admins[0].password_hash],
    );
  }
  const tokens = [];
  for (let i = 1; i <= STAFF; i += 1) {
    const res = await fetch(`http://127.0.0.1:${PORT}/api/admin/admin-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `bench-live-${i}@eta-desk.local`, password: BENCH_PASSWORD }),
    });
    const body = await res.json();
    if (body.status !== 1) throw new Error(`live desk sign-in failed: ${JSON.stringify(body)}`);
    tokens.push(body.jwtToken);
  }
  const { rows } = await pool.query(
    `SELECT order_id FROM orders WHERE process_status = 'Completed' AND payment_status = 'Success' ORDER BY id DESC LIMIT 1`,
  );
  const orderId = rows[0].order_id;

  let round = -1;
  const sentAt = [];
  const latencies = [];
  const seen = new Set();
  let snapshots = 0;
  const streams = [];
  for (const staffToken of tokens) {
    for (let tab = 0; tab < TABS; tab += 1) {
      const streamId = streams.length;
      streams.push(
        await openStream(staffToken, (event, data) => {
          if (event === 'counts' && !seen.has(`snapshot-${streamId}`)) {
            seen.add(`snapshot-${streamId}`);
            snapshots += 1;
          }
          if (event !== 'order' || round < 0) return;
          if (JSON.parse(data).orderId !== orderId) return;
          const key = `${round}-${streamId}`;
          if (seen.has(key)) return;
          seen.add(key);
          latencies.push(performance.now() - sentAt[round]);
        }),
      );
    }
  }
  const waitFor = async (what, check, ms = 30_000) => {
    const until = Date.now() + ms;
    while (!check()) {
      if (Date.now() > until) throw new Error(`live desk: timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  try {
    await waitFor('every stream’s counts snapshot', () => snapshots === streams.length);
    for (round = 0; round < ROUNDS; round += 1) {
      const expected = (round + 1) * streams.length;
      sentAt[round] = performance.now();
      const res = await fetch(`http://127.0.0.1:${PORT}/api/admin/add-new-remark`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify({ orderId, remark: `Live desk bench round ${round + 1}` }),
      });
      if (res.status !== 200) throw new Error(`add-new-remark answered ${res.status}: ${await res.text()}`);
      await waitFor(`round ${round + 1}'s deliveries`, () => latencies.length === expected, 10_000);
      // A pause between changes, so each round measures one change's fan-out, not a queue of them.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    for (const stream of streams) stream.close();
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const round2 = (x) => Math.round(x * 100) / 100;
  const p95 = round2(percentile(sorted, 0.95));
  const row = httpOnlyRow(
    name,
    {
      p50: round2(percentile(sorted, 0.5)),
      p95,
      p99: round2(percentile(sorted, 0.99)),
      rps: '—',
      requests: latencies.length,
      errors: 0,
    },
    floor,
    { connections: streams.length, targetP95: LIVE_DESK_TARGET_P95_MS, deliveries: latencies.length },
  );
  console.log(
    `${row.meets ? 'ok  ' : 'MISS'} ${name.padEnd(44)} p50 ${row.p50}ms  p95 ${row.p95}ms  p99 ${row.p99}ms  ${latencies.length} deliveries`,
  );
  return row;
}
