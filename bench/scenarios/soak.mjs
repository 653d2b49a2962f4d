// Soak (issue 32, item 7): an hour of ordinary load must leave nothing behind. 16 workers each pick a weighted mix of
// what the desk and its customers do (intake, lists, folder counts, searches, order detail with its presence, comments,
// Stripe webhooks, portal downloads) and send it without pause, while live-desk streams open and close beside them.
// Every answer's status is checked; every 10 s the server's memory (RSS from /proc, heap from its /metrics), its
// database connections and the mail outbox are sampled. The server is one of its own: the outbox worker on, sending to
// a loopback SendGrid, /metrics behind a token, client addresses from X-Forwarded-For (each portal customer its own).
// BENCH_SOAK_SECONDS sets the length (60 s by default; the issue's hour is BENCH_SOAK_SECONDS=3600).
import http from 'node:http';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  BENCH_PASSWORD,
  PAGE_SIZE,
  PORT,
  databaseUrl,
  httpOnlyRow,
  root,
  startServer,
  stopServer,
} from '../harness.mjs';
import { intakeApplications } from './intake-applications.mjs';
import { newIntakeKey, removeIntakeOrders } from './intake.mjs';
import { disputeCreatedEvent, removeWebhookDisputes, signedForStripe } from './webhook.mjs';

export const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const WORKERS = 16;
/** Live-desk streams open at any time, each kept 2-20 s, then closed and another opened (at most 10 per person). */
const STREAMS = 4;
const SAMPLE_EVERY_MS = 10_000;
/**
 * The first fifth of the run, and at least 30 s, is warm-up: JIT, caches, pools and V8's heap settle (on the shared two
 * cores the heap was still growing 30 s in); the memory checks read what comes after.
 */
const WARM_UP_SHARE = 0.2;
const WARM_UP_LEAST_SECONDS = 30;
/**
 * Memory after warm-up may move by at most this share, judged on what the process keeps: the heap after each full
 * collection (V8's --trace-gc on the server), highest against lowest; and the RSS's floor, the lowest reading in the
 * last third of the time after warm-up against the lowest in the first third. The heap used (sampled from /metrics) and
 * the RSS's highest against lowest are reported but not judged: V8 lets garbage pile up to a limit it sets from the
 * collector's speed: in a 600 s run the heap used swung between 73 and 236 MiB and the RSS between 219 and 375 MiB,
 * while each of 42 full collections left 63-66 MiB.
 */
const MEMORY_TOLERANCE = 0.1;
/** The connections' and outbox's last reading may exceed the first after warm-up by at most these. */
const CONNECTIONS_MARGIN = 2;
const OUTBOX_MARGIN = 20;
const SOAK_EMAIL = 'bench-soak@eta-desk.local';
const SOAK_NAME = 'Soak Bench';
const METRICS_TOKEN = 'bench-soak-metrics-token-0123456789';
/** The server's connections carry this application_name (node-postgres reads PGAPPNAME), so they can be counted. */
const APPLICATION_NAME = 'eta-soak-server';

/** Weights of the workers' actions (per 100 picks). */
const MIX = {
  list: 20,
  'folder counts': 8,
  search: 12,
  detail: 18,
  comment: 6,
  intake: 12,
  webhook: 6,
  portal: 6,
  // The rest of the hundred: more order detail (the desk's commonest read).
};
const QUEUES = ['newOrder', 'pendingOrder', 'completedOrder', 'orderHistory', 'priorityOrder', 'awaitingResponse'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback SendGrid: every mail accepted (202 with a message id), counted; the activity API knows of none. */
function startSendGridStandIn() {
  let accepted = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && req.url?.startsWith('/v3/mail/send')) {
        accepted += 1;
        res.writeHead(202, { 'x-message-id': `soak-${accepted}` }).end();
      } else if (req.method === 'GET' && req.url?.startsWith('/v3/messages')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"messages":[]}');
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"message":"not found"}]}');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        accepted: () => accepted,
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

/** The soak's member of staff, its id (an Admin: every queue, and it makes the intake key); its password the bench's. */
async function soakStaff(pool) {
  await pool.query(
    `INSERT INTO staff (name, email, password_hash, type)
     SELECT $1, $2, password_hash, 'Admin' FROM staff WHERE email = 'bench@eta-desk.local'
     ON CONFLICT (lower(email)) DO UPDATE SET password_hash = EXCLUDED.password_hash, active = true`,
    [SOAK_NAME, SOAK_EMAIL],
  );
  const { rows } = await pool.query('SELECT id FROM staff WHERE lower(email) = $1', [SOAK_EMAIL]);
  return rows[0].id;
}

async function signIn() {
  const res = await fetch(`http://127.0.0.1:${PORT}/api/admin/admin-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: SOAK_EMAIL, password: BENCH_PASSWORD }),
  });
  const body = await res.json();
  if (body.status !== 1) throw new Error(`soak sign-in failed: ${JSON.stringify(body)}`);
  return body.jwtToken;
}

/** What the workers work on, drawn from the data by rule (a fixed sample, so runs are alike). */
async function soakData(pool) {
  const desk = (
    await pool.query(
      `SELECT order_id, email, passport_surname FROM orders TABLESAMPLE SYSTEM (1) REPEATABLE (32)
        WHERE payment_status = 'Success' AND process_status <> 'Deleted' AND passport_surname <> '' LIMIT 3000`,
    )
  ).rows;
  // Portal: paid Completed orders with an approved document; the customer knows the order id and e-mail.
  const portal = (
    await pool.query(
      `SELECT o.order_id, o.email, o.passport_first_name, o.passport_surname
         FROM orders o TABLESAMPLE SYSTEM (1) REPEATABLE (7)
        WHERE o.payment_status = 'Success' AND o.process_status = 'Completed'
          AND EXISTS (SELECT 1 FROM documents d WHERE d.order_id = o.id) LIMIT 1000`,
    )
  ).rows;
  // Webhooks: Completed Stripe orders, each disputed once (webhook.mjs puts them back afterwards); if an hour uses
  // them all, the next round opens another dispute on each.
  const charges = (
    await pool.query(
      `SELECT o.transaction_id FROM orders o JOIN gateways g ON g.id = o.gateway_id
        WHERE g.gateway_name = 'Stripe' AND o.process_status = 'Completed' AND o.payment_status = 'Success'
          AND o.transaction_id LIKE 'ch_%' ORDER BY o.id DESC LIMIT 100000`,
    )
  ).rows.map((r) => r.transaction_id);
  if (desk.length < 1000 || portal.length < 100 || charges.length < 1000) {
    throw new Error(`soak: too few orders to work on (${desk.length}, ${portal.length}, ${charges.length})`);
  }
  // Searches a person makes: a whole surname, its first four letters, an order id's last six digits, an e-mail's
  // name part, in Order History and in a queue.
  const searches = [];
  for (const [i, o] of desk.slice(0, 200).entries()) {
    const text = [o.passport_surname, o.passport_surname.slice(0, 4), o.order_id.slice(-6), o.email.split('@')[0]][
      i % 4
    ];
    searches.push({ text, queue: i % 5 === 4 ? QUEUES[i % QUEUES.length] : 'orderHistory' });
  }
  return { desk, portal, charges, searches };
}

/** The database's counts, read before and after to take out what the soak added. */
async function marks(pool) {
  const { rows } = await pool.query(
    `SELECT (SELECT coalesce(max(id), 0) FROM audit_log) AS audit, (SELECT coalesce(max(id), 0) FROM downloads) AS downloads,
            (SELECT coalesce(max(id), 0) FROM mails) AS mails`,
  );
  return rows[0];
}

/** The Prometheus text's value of a metric (with its labels as written, e.g. `{state="total"}`). */
const metric = (text, name) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : null;
};

/** One reading of the server process and the database. */
async function sample(pool, pid, startedAt, counts, before) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  let scrape = '';
  let metricsStatus = 0;
  try {
    const res = await fetch(`http://127.0.0.1:${PORT}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    metricsStatus = res.status;
    scrape = await res.text();
  } catch {
    /* counted below as no reading */
  }
  const { rows } = await pool.query(
    `SELECT (SELECT count(*)::int FROM pg_stat_activity WHERE application_name = $1) AS server,
            (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()) AS database,
            (SELECT count(*)::int FROM mails WHERE state = 'queued') AS queued,
            (SELECT count(*)::int FROM mails WHERE state = 'failed' AND id > $2) AS failed,
            (SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float FROM mails WHERE state = 'queued')
              AS oldest`,
    [APPLICATION_NAME, before.mails],
  );
  const db = rows[0];
  return {
    t: Math.round((Date.now() - startedAt) / 100) / 10,
    rssBytes: rssKb * 1024,
    heapUsedBytes: metric(scrape, 'nodejs_heap_size_used_bytes'),
    heapTotalBytes: metric(scrape, 'nodejs_heap_size_total_bytes'),
    metricsStatus,
    sseClients: metric(scrape, 'eta_sse_clients'),
    poolConnections: metric(scrape, 'eta_db_pool_connections{state="total"}'),
    serverConnections: db.server,
    databaseConnections: db.database,
    outboxQueued: db.queued,
    outboxFailed: db.failed,
    outboxOldestSeconds: Math.round(db.oldest * 10) / 10,
    requests: counts.requests,
    errors: counts.errors,
    loadAverage: os.loadavg()[0],
  };
}

/** Latency and answers per request kind; errors by kind (the request and what came back). */
function recorder() {
  const kinds = new Map();
  const errors = new Map();
  const examples = [];
  const counts = { requests: 0, errors: 0 };
  return {
    counts,
    ok(kind, ms) {
      counts.requests += 1;
      const k = kinds.get(kind) ?? { n: 0, ms: [] };
      k.n += 1;
      k.ms.push(ms);
      kinds.set(kind, k);
    },
    error(kind, what, detail) {
      counts.requests += 1;
      counts.errors += 1;
      const key = `${kind}: ${what}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
      if (examples.length < 10) examples.push({ kind, what, detail: String(detail).slice(0, 300) });
    },
    summary() {
      const at = (sorted, q) =>
        sorted.length
          ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100
          : null;
      const perKind = {};
      const all = [];
      for (const [kind, { n, ms }] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
        const sorted = [...ms].sort((a, b) => a - b);
        perKind[kind] = { requests: n, p50: at(sorted, 0.5), p95: at(sorted, 0.95), p99: at(sorted, 0.99) };
        // Not push(...ms): an hour's latencies of one kind (300,000 and more) overflow the call's arguments.
        for (const v of ms) all.push(v);
      }
      all.sort((a, b) => a - b);
      return {
        perKind,
        overall: { p50: at(all, 0.5), p95: at(all, 0.95), p975: at(all, 0.975), p99: at(all, 0.99) },
        errors: Object.fromEntries(errors),
        examples,
      };
    },
  };
}

/**
 * One request, checked: the expected status, and for the API's JSON its `status: 1`. `read` gets the body (parsed
 * JSON, or the bytes) and may throw to call the answer wrong. Answers the body, or undefined after an error.
 */
async function send(rec, kind, url, { method = 'GET', headers = {}, body, expect = 200, read } = {}) {
  const started = performance.now();
  let res;
  try {
    res = await fetch(`http://127.0.0.1:${PORT}${url}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  } catch (err) {
    rec.error(kind, `no answer (${err.cause?.code ?? err.code ?? err.message})`, err.cause ?? err);
    return undefined;
  }
  const type = res.headers.get('content-type') ?? '';
  let payload;
  try {
    payload = type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer());
  } catch (err) {
    rec.error(kind, `body cut off (${err.cause?.code ?? err.message})`, err);
    return undefined;
  }
  const ms = performance.now() - started;
  if (res.status !== expect) {
    rec.error(kind, `answered ${res.status}`, JSON.stringify(payload).slice(0, 300));
    return undefined;
  }
  if (type.includes('json') && payload.status !== undefined && payload.status !== 1) {
    rec.error(kind, `status ${payload.status}`, JSON.stringify(payload).slice(0, 300));
    return undefined;
  }
  try {
    read?.(payload, res);
  } catch (err) {
    rec.error(kind, err.message, JSON.stringify(payload).slice(0, 300));
    return undefined;
  }
  rec.ok(kind, ms);
  return payload;
}

/** The workers' actions: each one thing a person or a landing site does, in one or a few requests. */
function actions({ rec, token, data, applications, intakeKey, run }) {
  const auth = { authorization: token };
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  let webhooks = 0;
  const fullPage = (body) => {
    if (!Array.isArray(body.data?.rows)) throw new Error('no rows');
  };
  return {
    list: () => {
      const queue = pick(QUEUES);
      // Mostly the first pages, now and then a deep one.
      const page = Math.random() < 0.9 ? 1 + Math.floor(Math.random() * 5) : 20 + Math.floor(Math.random() * 180);
      return send(rec, 'list', `/api/admin/get-orders-list/${queue}?page=${page}&limit=${PAGE_SIZE}&delay=1`, {
        headers: auth,
        read: fullPage,
      });
    },
    'folder counts': () =>
      send(rec, 'folder counts', `/api/admin/get-folder-count?userName=${encodeURIComponent(SOAK_NAME)}`, {
        headers: auth,
      }),
    search: () => {
      const s = pick(data.searches);
      return send(rec, 'search', '/api/admin/search-order', {
        method: 'POST',
        headers: auth,
        body: { start: 0, end: PAGE_SIZE, searchVal: s.text, folderName: s.queue },
        read: fullPage,
      });
    },
    detail: async () => {
      const { order_id: orderId } = pick(data.desk);
      const body = await send(rec, 'detail', `/api/admin/get-orders-details/${orderId}`, {
        headers: auth,
        read: (b) => {
          if (!b.data) throw new Error('no order');
        },
      });
      if (!body) return;
      // The page says who is on the order, and says so again until it is left.
      await send(rec, 'presence', `/api/admin/orders/${orderId}/presence`, {
        method: 'PUT',
        headers: auth,
        body: { activity: 'viewing' },
      });
      if (Math.random() < 0.5) {
        await send(rec, 'presence', `/api/admin/orders/${orderId}/presence`, {
          method: 'PUT',
          headers: auth,
          body: { activity: 'left' },
        });
      }
    },
    comment: async () => {
      const { order_id: orderId } = pick(data.desk);
      const presence = (activity) =>
        send(rec, 'presence', `/api/admin/orders/${orderId}/presence`, {
          method: 'PUT',
          headers: auth,
          body: { activity },
        });
      await presence('editing-remarks');
      await send(rec, 'comment', '/api/admin/add-new-remark', {
        method: 'POST',
        headers: auth,
        body: { orderId, remark: `Soak: customer called about the application (${run}).` },
      });
      await presence('left');
    },
    intake: () => {
      const application = applications.next();
      return send(rec, 'intake', '/api/intake/orders', {
        method: 'POST',
        headers: { authorization: `Bearer ${intakeKey}`, 'idempotency-key': application.key },
        body: application.text,
        expect: 201,
      });
    },
    webhook: () => {
      const charge = data.charges[webhooks % data.charges.length];
      webhooks += 1;
      const body = disputeCreatedEvent(`bench_soak_${run}_${webhooks}`, charge);
      return send(rec, 'webhook', '/api/webhooks/stripe', { method: 'POST', headers: signedForStripe(body), body });
    },
    // A customer tracks an order with its id and e-mail, reads its downloads, asks for the document and fetches it,
    // from an address of their own (198.18.0.0/15, the range kept for benchmarks).
    portal: async () => {
      const order = pick(data.portal);
      const address = `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
      const customer = { 'x-forwarded-for': address, 'user-agent': 'Mozilla/5.0 (soak) Chrome/131.0' };
      const tracked = await send(rec, 'portal: track', '/api/front/track-order', {
        method: 'POST',
        headers: customer,
        body: { orderId: order.order_id, email: order.email },
      });
      if (!tracked) return;
      const proof = { ...customer, 'x-track-proof': tracked.data.proof };
      const history = await send(rec, 'portal: history', '/api/front/get-download-history', {
        method: 'POST',
        headers: proof,
        body: { orderId: order.order_id },
        read: (b) => {
          if (!b.path?.file1) throw new Error('no document to download');
        },
      });
      if (!history) return;
      const link = await send(rec, 'portal: prepare download', '/api/front/download-passport-doc-pdf', {
        method: 'POST',
        headers: proof,
        body: {
          orderId: order.order_id,
          customername: `${order.passport_first_name ?? ''} ${order.passport_surname ?? ''}`.trim(),
          file1: history.path.file1,
          timezone: 'America/Toronto',
        },
      });
      if (!link) return;
      await send(rec, 'portal: download', link.data.url, {
        headers: customer,
        read: (bytes, res) => {
          if (
            !Buffer.isBuffer(bytes) ||
            bytes.length === 0 ||
            bytes.length !== Number(res.headers.get('content-length'))
          ) {
            throw new Error('document cut short');
          }
        },
      });
    },
  };
}

/**
 * A browser tab's live desk, again and again: a ticket for the stream, the stream, its counts snapshot within 10 s,
 * kept open 2-20 s, closed. Anything else (a refused ticket or stream, no snapshot, the server ending it) is an error.
 */
async function streamLane(rec, token, until, stats) {
  while (until - Date.now() > 2000) {
    const ticket = await send(rec, 'live desk: ticket', '/api/admin/events/ticket', {
      method: 'POST',
      headers: { authorization: token },
    });
    if (!ticket) {
      await sleep(1000);
      continue;
    }
    // Kept 2-20 s, and never past the end of the load.
    const keep = Math.min(2000 + Math.random() * 18_000, Math.max(0, until - Date.now()));
    const started = performance.now();
    const outcome = await new Promise((resolve) => {
      let snapshot = false;
      let kept = false;
      let done = false;
      const timers = [];
      const close = () => {
        if (done) return;
        stats.closed += 1;
        finish({});
      };
      const finish = (result) => {
        if (done) return;
        done = true;
        for (const timer of timers) clearTimeout(timer);
        req.destroy();
        resolve(result);
      };
      const req = http.get(
        {
          host: '127.0.0.1',
          port: PORT,
          path: `/api/admin/events?ticket=${encodeURIComponent(ticket.data.ticket)}`,
          headers: { accept: 'text/event-stream' },
          agent: false,
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            finish({ error: `answered ${res.statusCode}` });
            return;
          }
          stats.opened += 1;
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (chunk) => {
            buffer += chunk;
            let end;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const event = /^event:\s*(.+)$/m.exec(block)?.[1];
              if (!event) continue;
              stats.events += 1;
              if (event === 'counts' && !snapshot) {
                snapshot = true;
                rec.ok('live desk: stream', performance.now() - started);
                if (kept) close();
              }
            }
          });
          res.on('end', () => finish({ error: 'ended by the server' }));
          timers.push(
            setTimeout(() => {
              if (!snapshot) finish({ error: 'no counts snapshot in 10 s' });
            }, 10_000),
            // Closed when its time is up, once its snapshot came (a late one has the 10 s above).
            setTimeout(() => {
              kept = true;
              if (snapshot) close();
            }, keep),
          );
        },
      );
      req.on('error', (err) => finish({ error: `no answer (${err.code ?? err.message})` }));
    });
    if (outcome.error) rec.error('live desk: stream', outcome.error, outcome.error);
    await sleep(Math.random() * 1000);
  }
}

/** The lowest and highest of readings, and the rise of the highest over the lowest. */
function spread(values) {
  if (values.length === 0) return { min: null, max: null, rise: null };
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { min, max, rise: min > 0 ? Math.round(((max - min) / min) * 1000) / 1000 : null };
}

/**
 * The floor's rise: the lowest of the readings ({t, v}) in the last third of [from, end] against the lowest in its first
 * third; null when a third has none.
 */
function floorRise(points, from, end) {
  const third = (end - from) / 3;
  const first = points.filter((p) => p.t >= from && p.t < from + third).map((p) => p.v);
  const last = points.filter((p) => p.t >= end - third && p.t <= end).map((p) => p.v);
  if (first.length === 0 || last.length === 0) return { first: null, last: null, rise: null };
  const low = Math.min(...first);
  const high = Math.min(...last);
  return { first: low, last: high, rise: Math.round(((high - low) / low) * 1000) / 1000 };
}

const mib = (bytes) => (bytes === null ? '—' : `${(bytes / 2 ** 20).toFixed(1)} MiB`);
const percent = (rise) => (rise === null ? '—' : `${rise >= 0 ? '+' : ''}${(rise * 100).toFixed(1)} %`);

/**
 * V8's --trace-gc lines on the server's stdout ("[pid:isolate]  1234 ms: Mark-Compact 249.2 (285.0) -> 83.9 (120.0) MB,
 * …"): each collection's kind, time since the isolate started and heap after it. Other lines go on to the console.
 */
function gcTrace() {
  const collections = [];
  let rest = '';
  const line =
    /^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: ([A-Za-z -]+?(?: \(reduce\))?) ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB/;
  return {
    collections,
    write(chunk) {
      rest += chunk;
      const lines = rest.split('\n');
      rest = lines.pop();
      for (const text of lines) {
        const m = line.exec(text);
        if (!m) process.stdout.write(`${text}\n`);
        else collections.push({ isolate: m[1], ms: Number(m[2]), kind: m[3], after: Number(m[6]) * 2 ** 20 });
      }
    },
    /** The main thread's full collections (its isolate has the most lines; PDF workers have their own). */
    full() {
      const byIsolate = new Map();
      for (const c of collections) byIsolate.set(c.isolate, (byIsolate.get(c.isolate) ?? 0) + 1);
      const main = [...byIsolate].sort((x, y) => y[1] - x[1])[0]?.[0];
      return collections.filter((c) => c.isolate === main && c.kind.startsWith('Mark-Compact'));
    },
  };
}

/** The server's stderr on to the console, a line said again only counted (Node's warnings repeat). */
function repeatsCounted() {
  const seen = new Map();
  let rest = '';
  return {
    seen,
    write(chunk) {
      rest += chunk;
      const lines = rest.split('\n');
      rest = lines.pop();
      for (const text of lines) {
        const key = text.replace(/^\(node:\d+\) /, '');
        if (!seen.has(key)) process.stderr.write(`${text}\n`);
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    },
  };
}

/** Takes out what the soak added: its comments, portal downloads, audit and access rows, disputes and intake orders. */
async function removeSoakData(pool, staffId, before) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update');
    await client.query('DELETE FROM audit_log WHERE id > $1', [before.audit]);
    await client.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update');
    await client.query('ALTER TABLE access_records DISABLE TRIGGER access_records_no_update');
    await client.query('DELETE FROM access_records WHERE staff_id = $1', [staffId]);
    await client.query('ALTER TABLE access_records ENABLE TRIGGER access_records_no_update');
    await client.query('DELETE FROM access_alerts WHERE staff_id = $1', [staffId]);
    await client.query('DELETE FROM revoked_sessions WHERE staff_id = $1', [staffId]);
    await client.query('DELETE FROM remarks WHERE staff_id = $1', [staffId]);
    await client.query('DELETE FROM downloads WHERE id > $1', [before.downloads]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
  await pool.query('VACUUM (ANALYZE) remarks, downloads, audit_log, access_records, revoked_sessions');
  await removeWebhookDisputes(pool);
  await removeIntakeOrders(pool);
}

/**
 * The soak: its own server (stopped at the end), WORKERS workers and STREAMS live-desk tabs for SOAK_SECONDS, samples
 * every 10 s, then the checks: no error; after warm-up the heap after full collections and the RSS's floor within 10 %,
 * the server's database connections and the outbox no higher at the end than after warm-up (plus a small margin), the
 * outbox empty soon after the load; every intake order and webhook stored as answered, every mail sent once; every
 * stream closed on the server too. The samples go to bench/results/soak-<date>.json; what the soak added is taken out.
 */
export async function measureSoak({ pool, stripeStandIn, floor }) {
  const seconds = SOAK_SECONDS;
  const name = `soak: mixed work at ${WORKERS} connections with live-desk streams`;
  const staffId = await soakStaff(pool);
  const data = await soakData(pool);
  const sendgrid = await startSendGridStandIn();
  const gc = gcTrace();
  const stderr = repeatsCounted();
  const spawnedAt = Date.now();
  const server = await startServer(
    stripeStandIn,
    PORT,
    {
      MAIL_WORKER: 'true',
      MAIL_POLL_SECONDS: '5',
      SENDGRID_API_KEY: 'SG.bench-soak',
      SENDGRID_API_URL: sendgrid.url,
      METRICS_TOKEN,
      TRUST_PROXY: 'true',
      PGAPPNAME: APPLICATION_NAME,
    },
    { nodeArgs: ['--trace-gc'], stdout: (chunk) => gc.write(chunk), stderr: (chunk) => stderr.write(chunk) },
  );
  const before = await marks(pool);
  const run = Date.now().toString(36);
  const rec = recorder();
  const samples = [];
  const streams = { opened: 0, closed: 0, events: 0 };
  let intakeKeyId = null;
  let stopped = false;
  try {
    const token = await signIn();
    const { keyId, key } = await newIntakeKey(token);
    intakeKeyId = keyId;
    const applications = await intakeApplications({ seed: 32, run: `soak-${run}` });
    applications.prepare(50);
    const act = actions({ rec, token, data, applications, intakeKey: key, run });
    const weighted = [];
    for (const [action, weight] of Object.entries(MIX)) for (let i = 0; i < weight; i += 1) weighted.push(action);
    while (weighted.length < 100) weighted.push('detail');

    // The clock starts after the first reading: at ten million orders a cold one took the whole minute (it counted
    // every failed mail of the table; now only the soak's own).
    let startedAt = Date.now();
    samples.push(await sample(pool, server.pid, startedAt, rec.counts, before));
    startedAt = Date.now();
    const until = startedAt + seconds * 1000;
    const sampler = setInterval(() => {
      sample(pool, server.pid, startedAt, rec.counts, before).then(
        (s) => {
          samples.push(s);
          console.log(
            `soak ${String(Math.round(s.t)).padStart(5)} s  ${s.requests} requests, ${s.errors} errors  RSS ${mib(s.rssBytes)}  heap ${mib(s.heapUsedBytes)}  ` +
              `connections ${s.serverConnections} (database ${s.databaseConnections})  outbox ${s.outboxQueued} queued, ${s.outboxFailed} failed  ` +
              `streams ${s.sseClients}  load ${s.loadAverage.toFixed(1)}`,
          );
        },
        (err) => console.error('soak: a sample failed', err),
      );
    }, SAMPLE_EVERY_MS);
    const workers = Array.from({ length: WORKERS }, async () => {
      while (Date.now() < until) await act[weighted[Math.floor(Math.random() * weighted.length)]]();
    });
    const lanes = Array.from({ length: STREAMS }, () => streamLane(rec, token, until, streams));
    await Promise.all([...workers, ...lanes]);
    clearInterval(sampler);
    const elapsed = (Date.now() - startedAt) / 1000;
    // A reading after the load, then the outbox given 30 s to send what intake queued last.
    await sleep(500);
    const after = { ...(await sample(pool, server.pid, startedAt, rec.counts, before)), afterLoad: true };
    let drained = after.outboxQueued === 0;
    for (let i = 0; i < 30 && !drained; i += 1) {
      await sleep(1000);
      drained = (await pool.query(`SELECT count(*)::int AS n FROM mails WHERE state = 'queued'`)).rows[0].n === 0;
    }
    // Stopped now, so V8's last trace lines are in (it buffers what it writes to a pipe).
    await stopServer(server);
    stopped = true;

    // What was answered must be what was stored: each 201 an order with its confirmation mail (sent by now), each
    // webhook's 200 an applied event.
    const summary = rec.summary();
    const stored = (
      await pool.query(
        `SELECT count(*)::int AS orders,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM mails m WHERE m.order_id = o.id AND m.state = 'sent'
                                                AND m.kind = 'confirmation'))::int AS mailed
           FROM orders o WHERE intake_key_id = $1`,
        [keyId],
      )
    ).rows[0];
    const events = (
      await pool.query(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE outcome = 'applied')::int AS applied
           FROM gateway_events WHERE event_id LIKE $1`,
        [`evt_bench_soak_${run}_%`],
      )
    ).rows[0];
    const intakeAnswered = summary.perKind.intake?.requests ?? 0;
    const webhooksAnswered = summary.perKind.webhook?.requests ?? 0;

    // Memory, connections and outbox after warm-up, read during the load.
    samples.sort((x, y) => x.t - y.t);
    const warmUp = Math.min(seconds / 2, Math.max(seconds * WARM_UP_SHARE, WARM_UP_LEAST_SECONDS));
    const warm = samples.filter((s) => s.t >= warmUp);
    const firstWarm = warm[0] ?? samples[0];
    const lastInLoad = samples.at(-1);
    const fullCollections = gc
      .full()
      .map((c) => ({ t: Math.round((spawnedAt + c.ms - startedAt) / 100) / 10, v: c.after }))
      .filter((c) => c.t >= 0 && c.t <= elapsed);
    const memory = {
      fromSecond: warmUp,
      rss: spread(warm.map((s) => s.rssBytes)),
      rssFloor: floorRise(
        warm.map((s) => ({ t: s.t, v: s.rssBytes })),
        warmUp,
        elapsed,
      ),
      heapUsed: spread(warm.map((s) => s.heapUsedBytes).filter((v) => v !== null)),
      heapSize: spread(warm.map((s) => s.heapTotalBytes).filter((v) => v !== null)),
      afterFullCollections: spread(fullCollections.filter((c) => c.t >= warmUp).map((c) => c.v)),
      fullCollections: fullCollections.filter((c) => c.t >= warmUp).length,
    };
    const within = (rise) => rise !== null && rise <= MEMORY_TOLERANCE;
    const checks = {
      'no errors': rec.counts.errors === 0,
      'metrics read with the token': samples.every((s) => s.metricsStatus === 200),
      [`RSS floor after warm-up within ${MEMORY_TOLERANCE * 100} %`]: within(memory.rssFloor.rise),
      [`heap after full collections past warm-up within ${MEMORY_TOLERANCE * 100} % (2 or more)`]:
        memory.fullCollections >= 2 && within(memory.afterFullCollections.rise),
      'server connections steady': lastInLoad.serverConnections <= firstWarm.serverConnections + CONNECTIONS_MARGIN,
      'outbox steady': lastInLoad.outboxQueued <= firstWarm.outboxQueued + OUTBOX_MARGIN && after.outboxFailed === 0,
      'outbox empty after the load': drained,
      'every intake answer stored and mailed': stored.orders === intakeAnswered && stored.mailed === intakeAnswered,
      'every webhook answer stored and applied': events.n === webhooksAnswered && events.applied === events.n,
      'streams opened and closed, none left on the server':
        streams.opened > 0 && streams.closed > 0 && after.sseClients === 0,
    };
    const failed = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([check]) => check);
    const meets = failed.length === 0;
    const requests = rec.counts.requests;
    const serverSaid = Object.fromEntries([...stderr.seen].filter(([, n]) => n > 1));
    const report = {
      date: new Date().toISOString(),
      seconds,
      elapsedSeconds: Math.round(elapsed * 10) / 10,
      workers: WORKERS,
      streams: STREAMS,
      mix: MIX,
      machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}`,
      database: new URL(databaseUrl).pathname.slice(1),
      requests,
      rps: Math.round(requests / elapsed),
      perKind: summary.perKind,
      overall: summary.overall,
      errors: summary.errors,
      errorExamples: summary.examples,
      streamsOpened: streams.opened,
      streamsClosed: streams.closed,
      streamEvents: streams.events,
      intake: { answered: intakeAnswered, stored: stored.orders, mailed: stored.mailed },
      webhooks: { answered: webhooksAnswered, stored: events.n, applied: events.applied },
      mailsAcceptedBySendGrid: sendgrid.accepted(),
      memory,
      connections: { firstAfterWarmUp: firstWarm.serverConnections, last: lastInLoad.serverConnections },
      outbox: { firstAfterWarmUp: firstWarm.outboxQueued, last: lastInLoad.outboxQueued, failed: after.outboxFailed },
      serverRepeated: serverSaid,
      checks,
      meets,
      samples: [...samples, after],
      fullCollections,
    };
    const stamp = new Date().toISOString().slice(0, 16).replace(':', '-');
    const file = path.join(root, `bench/results/soak-${stamp}.json`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(report, null, 2) + '\n');

    console.log(
      `\nSoak: ${seconds} s, ${WORKERS} workers and ${STREAMS} live-desk tabs; ${requests} requests (${report.rps}/s), ` +
        `${rec.counts.errors} errors${rec.counts.errors ? ` ${JSON.stringify(summary.errors)}` : ''}`,
    );
    for (const [kind, k] of Object.entries(summary.perKind)) {
      console.log(
        `  ${kind.padEnd(26)} ${String(k.requests).padStart(8)}  p50 ${k.p50}ms  p95 ${k.p95}ms  p99 ${k.p99}ms`,
      );
    }
    console.log(
      `  streams: ${streams.opened} opened, ${streams.closed} closed, ${streams.events} events; ` +
        `intake ${stored.orders} orders stored of ${intakeAnswered} answered, ${stored.mailed} mailed; ` +
        `webhooks ${events.applied} applied of ${webhooksAnswered}; SendGrid took ${sendgrid.accepted()} mails`,
    );
    console.log(
      `  after warm-up (from ${warmUp} s): RSS ${mib(memory.rss.min)}-${mib(memory.rss.max)}, its floor ` +
        `${mib(memory.rssFloor.first)} → ${mib(memory.rssFloor.last)} (${percent(memory.rssFloor.rise)}); heap used ` +
        `${mib(memory.heapUsed.min)}-${mib(memory.heapUsed.max)}, after ${memory.fullCollections} full collections ` +
        `${mib(memory.afterFullCollections.min)}-${mib(memory.afterFullCollections.max)} ` +
        `(${percent(memory.afterFullCollections.rise)})`,
    );
    console.log(
      `  server connections ${firstWarm.serverConnections} → ${lastInLoad.serverConnections}; outbox ` +
        `${firstWarm.outboxQueued} → ${lastInLoad.outboxQueued} queued, ${after.outboxFailed} failed, ` +
        `${drained ? 'empty' : 'not empty'} after the load`,
    );
    for (const [text, n] of Object.entries(serverSaid)) console.log(`  the server said ${n} times: ${text}`);
    console.log(
      `${meets ? 'ok  ' : 'MISS'} ${name}${meets ? '' : `: ${failed.join('; ')}`}  (${path.relative(root, file)})`,
    );
    if (!meets) process.exitCode = 1;
    return httpOnlyRow(
      name,
      { ...summary.overall, rps: report.rps, requests, errors: rec.counts.errors },
      floor ?? {},
      {
        connections: WORKERS,
        meets,
        soak: {
          seconds,
          perKind: Object.fromEntries(Object.entries(summary.perKind).map(([k, v]) => [k, v.requests])),
          errors: summary.errors,
          memory,
          serverConnections: [firstWarm.serverConnections, lastInLoad.serverConnections],
          outboxQueued: [firstWarm.outboxQueued, lastInLoad.outboxQueued],
          failed,
          samples: path.relative(root, file),
        },
      },
    );
  } finally {
    if (!stopped) await stopServer(server);
    await sendgrid.close();
    if (intakeKeyId !== null) await removeSoakData(pool, staffId, before);
  }
}
