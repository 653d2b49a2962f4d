// A PostgreSQL restart under intake load (issue 32): the built server, as production runs it, on a PostgreSQL of the
// test's own that is stopped (a fast shutdown: every connection is told 57P01, as `pg_ctlcluster restart` does),
// kept down for a few seconds and started again, while landing sites post orders and retry each with its
// Idempotency-Key until it is acknowledged. The process stays up; the orders posted meanwhile are answered 503 with
// Retry-After (never a 500); /api/ready says 503 and /api/health 200; orders are taken again within 5 s of the
// return, each stored exactly once; the live desk's stream opened before hears the orders taken after (the event bus
// listens again), and every confirmation mail goes out (the outbox worker goes on).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { startBuiltServer, waitFor, type BuiltServer } from './helpers/built-server.js';
import { application } from './helpers/intake.js';
import { startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';
import { ownPostgresRuns, startOwnPostgres, type OwnPostgres } from './helpers/own-postgres.js';

const ADMIN = { email: 'admin@restart.test', password: 'restart-secret' };
const SITES = 6;
const DOWN_MS = 3_000;

interface Answer {
  status: number | string;
  at: number;
  retryAfter: string | null;
  code?: string;
  message?: string;
}

/** Posts one application until it is acknowledged (2xx), as a landing site does; every answer on the way. */
async function placeOrder(base: string, key: string, answers: Answer[], stop: () => boolean): Promise<string | null> {
  const idempotencyKey = randomUUID();
  const body = JSON.stringify(application());
  for (;;) {
    let answer: Answer;
    try {
      const res = await fetch(`${base}/api/intake/orders`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'idempotency-key': idempotencyKey,
          'content-type': 'application/json',
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      const { code, message } = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
      answer = { status: res.status, at: Date.now(), retryAfter: res.headers.get('retry-after'), code, message };
    } catch (err) {
      answer = {
        status: (err as { cause?: { code?: string } }).cause?.code ?? String(err),
        at: Date.now(),
        retryAfter: null,
      };
    }
    answers.push(answer);
    if (answer.status === 200 || answer.status === 201) return idempotencyKey;
    if (stop() && typeof answer.status !== 'number') return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A GET's HTTP status, or why there was none. */
const statusOf = (url: string) =>
  fetch(url).then(
    (res) => res.status,
    (err: unknown) => String((err as { cause?: { code?: string } }).cause?.code ?? err),
  );

/** The live desk's stream, counting the order events it hears and when. */
function liveStream(base: string, token: string) {
  const heard: { at: number; orderId: string }[] = [];
  let ended = false;
  const request = http.get(`${base}/api/admin/events`, { headers: { authorization: token } }, (res) => {
    res.setEncoding('utf8');
    let buffer = '';
    res.on('data', (chunk: string) => {
      buffer += chunk;
      const messages = buffer.split('\n\n');
      buffer = messages.pop()!;
      for (const message of messages) {
        if (!message.includes('event: order')) continue;
        const data = message.split('\n').find((line) => line.startsWith('data: '));
        heard.push({ at: Date.now(), orderId: (JSON.parse(data!.slice(6)) as { orderId: string }).orderId });
      }
    });
    res.on('end', () => (ended = true));
  });
  request.on('error', () => (ended = true));
  return { heard, ended: () => ended, close: () => request.destroy() };
}

describe.runIf(ownPostgresRuns)('a PostgreSQL restart under intake load', () => {
  it('keeps the process up, answers 503 while the database is away and takes every order once after', async () => {
    let postgres: OwnPostgres | undefined;
    let server: BuiltServer | undefined;
    let mail: MailStandIn | undefined;
    let database: DatabaseHandle | undefined;
    let stopping = false;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-restart-'));
    try {
      postgres = await startOwnPostgres();
      const url = await postgres.createDatabase('eta_restart');
      mail = await startMailStandIn();
      server = await startBuiltServer({
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        JWT_SECRET: 'database-restart-test-secret-long-enough',
        INTAKE_RATE_PER_SECOND: '10000',
        MAIL_POLL_SECONDS: '1',
        MAIL_RETRY_BASE_SECONDS: '1',
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'AKIATESTSTANDIN',
        AWS_SECRET_ACCESS_KEY: 'stand-in-secret-key',
        AWS_ENDPOINT_URL_SESV2: mail.url,
      });
      const base = server.url;
      const output = () => server!.output.join('');
      const login = await fetch(`${base}/api/admin/admin-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      const { jwtToken } = (await login.json()) as { jwtToken: string };
      const keyRes = await fetch(`${base}/api/admin/landing-sites/default/intake-key`, {
        method: 'POST',
        headers: { authorization: jwtToken, 'content-type': 'application/json' },
        body: '{}',
      });
      const { intakeKey } = ((await keyRes.json()) as { data: { intakeKey: string } }).data;
      const stream = liveStream(base, jwtToken);

      // Landing sites post one order after another until told to stop; each is retried until acknowledged.
      const answers: Answer[] = [];
      const acknowledged: string[] = [];
      const sites = Array.from({ length: SITES }, async () => {
        while (!stopping) {
          const key = await placeOrder(base, intakeKey, answers, () => stopping);
          if (key) acknowledged.push(key);
        }
      });
      await waitFor('orders before the restart', () => acknowledged.length >= 20, 20_000).catch((err: unknown) => {
        throw new Error(`${String(err)}: ${JSON.stringify(answers.slice(-3))}`);
      });

      postgres.stop('fast');
      const downAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ready = await statusOf(`${base}/api/ready`);
      const health = await statusOf(`${base}/api/health`);
      await new Promise((resolve) => setTimeout(resolve, DOWN_MS - 500));
      expect(server.process.exitCode, output()).toBeNull();
      postgres.start();
      const backAt = Date.now();

      await waitFor(
        'an order taken after the return',
        () => answers.some((a) => a.at > backAt && a.status === 201),
        15_000,
      );
      const firstTaken = answers.find((a) => a.at > backAt && a.status === 201)!;
      // The event bus listens again: the stream opened before the restart hears the orders taken from then on (those
      // taken before it listened again are in the counts it is sent).
      await waitFor(
        'the live desk to hear an order taken after the return',
        () => stream.heard.some((h) => h.at > backAt),
        15_000,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}\n${output()}`);
      });
      const heardAgain = stream.heard.find((h) => h.at > backAt)!;
      stopping = true;
      await Promise.all(sites);

      expect(server.process.exitCode, output()).toBeNull();
      expect(ready).toBe(503);
      expect(health).toBe(200);
      expect(firstTaken.at - backAt, 'orders taken again within 5 s of the return').toBeLessThan(5_000);
      // While the database was away: 503 with Retry-After and what happened, never a 500.
      const during = answers.filter((a) => a.at > downAt && a.at < backAt);
      expect(during.length).toBeGreaterThan(0);
      expect(
        answers.filter((a) => typeof a.status !== 'number' || (a.status >= 500 && a.status !== 503)),
        output(),
      ).toEqual([]);
      for (const answer of answers.filter((a) => a.status === 503)) {
        expect(answer.retryAfter).toMatch(/^\d+$/);
        expect(answer.code).toMatch(/^DATABASE_(UNAVAILABLE|BUSY)$/);
      }
      expect(during.some((a) => a.code === 'DATABASE_UNAVAILABLE')).toBe(true);

      // Each acknowledged order is stored exactly once, and nothing else is.
      database = await openDatabase({ url, poolSize: 2 });
      const stored = await sql<{ idempotency_key: string; order_id: number }>`
        SELECT idempotency_key, order_id FROM intake_requests`.execute(database.db);
      expect(new Set(stored.rows.map((r) => r.idempotency_key))).toEqual(new Set(acknowledged));
      expect(new Set(stored.rows.map((r) => r.order_id)).size).toBe(acknowledged.length);
      const { count } = await database.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(acknowledged.length);

      expect(heardAgain.at - backAt, 'the live desk hears orders again within 5 s of the return').toBeLessThan(5_000);
      expect(stream.ended()).toBe(false);
      stream.close();
      // The outbox worker goes on: every order's confirmation mail is sent.
      await waitFor(
        'every confirmation mail to be sent',
        async () => {
          const unsent = await database!.db
            .selectFrom('mails')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('state', '<>', 'sent')
            .executeTakeFirstOrThrow();
          return Number(unsent.n) === 0;
        },
        30_000,
      );
      expect(new Set(mail.delivered().map((m) => m.to[0])).size).toBe(acknowledged.length);
    } finally {
      stopping = true;
      if (server && server.process.exitCode === null) server.process.kill('SIGKILL');
      await database?.close();
      await mail?.close();
      postgres?.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
