// Two real server processes (the built server, as production runs it) on one PostgreSQL database, as behind a load
// balancer (issue 23): what one server does holds on the other. PostgreSQL only (the embedded database belongs to one
// process), so the PGlite project leaves this file out (vitest.config.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { insertMail } from '../src/modules/mail/mail.repository.js';
import { insertStaff } from '../src/modules/staff/staff.repository.js';
import { startBuiltServer, waitFor, type BuiltServer } from './helpers/built-server.js';
import { application } from './helpers/intake.js';
import { insertOrder } from './helpers/orders.js';
import { startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';
import { createTestDatabase } from './helpers/test-database.js';

const PASSWORD = 'correct-horse';
/** The sign-in limit per account and address (LOGIN_FAILURES_PER_ACCOUNT's default). */
const PAIR_LIMIT = 5;

function startServer(dataDir: string, mail: MailStandIn): Promise<BuiltServer> {
  return startBuiltServer({
    NODE_ENV: 'test',
    DATABASE_URL: database.connectionString,
    DATA_DIR: dataDir,
    JWT_SECRET: 'two-servers-test-secret-0123456789abcdef',
    // Each server has a DATA_DIR of its own, as on two machines: they share the master key of personal data as they
    // share the JWT secret (a key each made in its own DATA_DIR would not open the other's data keys).
    DATA_KEY: 'dHdvLXNlcnZlcnMtdGVzdC1tYXN0ZXIta2V5LTMyYiE=',
    ADMIN_EMAIL: 'first-admin@test.local',
    ADMIN_PASSWORD: 'first-admin-password',
    MAIL_FROM: 'eTA Desk <desk@eta-desk.test>',
    MAIL_POLL_SECONDS: '1',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIATESTSTANDIN',
    AWS_SECRET_ACCESS_KEY: 'stand-in-secret-key',
    AWS_ENDPOINT_URL_SESV2: mail.url,
  });
}

const call = async (server: BuiltServer, method: string, route: string, token?: string, body?: unknown) => {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: token } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const signIn = async (server: BuiltServer, email: string, password = PASSWORD) => {
  const res = await call(server, 'POST', '/api/admin/admin-login', undefined, { email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return res.body.jwtToken as string;
};

/** Whether `check` holds within `ms`. */
const within = (ms: number, check: () => Promise<boolean>) =>
  waitFor('', check, ms, 25).then(
    () => true,
    () => false,
  );

let database: DatabaseHandle;
let mail: MailStandIn;
let dataDir: string;
let a: BuiltServer | undefined;
let b: BuiltServer | undefined;
let serial = 0;

async function newStaff(type: 'Admin' | 'Team'): Promise<{ id: number; email: string }> {
  serial += 1;
  const email = `${type.toLowerCase()}-${serial}@two-servers.test`;
  const staff = await insertStaff(database.db, {
    name: `${type} ${serial}`,
    email,
    passwordHash: await hashPassword(PASSWORD),
    type,
  });
  return { id: staff.id, email };
}

beforeAll(async () => {
  database = await createTestDatabase();
  mail = await startMailStandIn();
  dataDir = await mkdtemp(path.join(tmpdir(), 'eta-two-servers-'));
  // One at a time: the first start creates the first Admin, which the second then finds.
  a = await startServer(path.join(dataDir, 'a'), mail);
  b = await startServer(path.join(dataDir, 'b'), mail);
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await mail?.close();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('two server processes on one PostgreSQL database', () => {
  it('a token signed in through one server works on the other', async () => {
    const member = await newStaff('Team');
    const token = await signIn(a!, member.email);
    expect((await call(b!, 'GET', '/api/user_info', token)).status).toBe(200);
  });

  it('a logout through one server is refused by the other within a second', async () => {
    const member = await newStaff('Team');
    const token = await signIn(a!, member.email);
    expect((await call(b!, 'GET', '/api/user_info', token)).status).toBe(200); // cached on b now
    expect((await call(a!, 'POST', '/api/admin/logout', token)).status).toBe(200);
    expect(await within(1_000, async () => (await call(b!, 'GET', '/api/user_info', token)).status === 401)).toBe(true);
  });

  it('12 wrong passwords for one account spread over both servers get at most the limit of verifications', async () => {
    const member = await newStaff('Team');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(i % 2 === 0 ? a! : b!, 'POST', '/api/admin/admin-login', undefined, {
          email: member.email,
          password: `wrong-${i}`,
        }),
      ),
    );
    const verified = answers.filter((r) => r.status === 401).length;
    const refused = answers.filter((r) => r.status === 429).length;
    expect(verified).toBe(PAIR_LIMIT);
    expect(refused).toBe(12 - PAIR_LIMIT);
    // And the right password now waits too, on either server.
    const right = await call(b!, 'POST', '/api/admin/admin-login', undefined, {
      email: member.email,
      password: PASSWORD,
    });
    expect(right.status).toBe(429);
  });

  it('a Team member removed through one server is refused by the other within a second', async () => {
    const admin = await newStaff('Admin');
    const member = await newStaff('Team');
    const adminToken = await signIn(a!, admin.email);
    const memberToken = await signIn(b!, member.email);
    expect((await call(b!, 'GET', '/api/user_info', memberToken)).status).toBe(200);
    const removed = await call(a!, 'PUT', '/api/admin/delete-team-member', adminToken, { teamMemberId: member.id });
    expect(removed.status).toBe(200);
    expect(await within(1_000, async () => (await call(b!, 'GET', '/api/user_info', memberToken)).status === 401)).toBe(
      true,
    );
  });

  it('a move through one server reaches a live-desk stream on the other within a second', async () => {
    const manager = await signIn(b!, (await newStaff('Admin')).email);
    const mover = await signIn(a!, (await newStaff('Admin')).email);
    const orderId = await insertOrder(database.db, { process_status: 'AwaitingGovt' });
    const events: { name: string; data: string; at: number }[] = [];
    const stream = await fetch(`${b!.url}/api/admin/events`, {
      headers: { authorization: manager, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) events.push({ name, data, at: Date.now() });
        }
      }
    })();
    try {
      expect(await within(5_000, async () => events.some((e) => e.name === 'counts'))).toBe(true);
      const moved = await call(a!, 'PUT', '/api/admin/move-order-status', mover, {
        orderId,
        updatingStatus: 'Awaiting',
        version: 1,
      });
      expect(moved.status).toBe(200);
      const answeredAt = Date.now();
      const heard = () => events.find((e) => e.name === 'order' && JSON.parse(e.data).orderId === orderId);
      expect(await within(1_000, async () => heard() !== undefined)).toBe(true);
      expect(JSON.parse(heard()!.data)).toMatchObject({ orderId, version: 2, status: 'Awaiting' });
      expect(heard()!.at - answeredAt).toBeLessThan(1_000);
    } finally {
      await reader.cancel();
      await reading.catch(() => {});
    }
  });

  it('an intake key rotated through one server without grace is refused by the other within a second', async () => {
    const admin = await signIn(a!, (await newStaff('Admin')).email);
    const rotate = async () => {
      const res = await call(a!, 'POST', '/api/admin/landing-sites/default/intake-key', admin, { graceMinutes: 0 });
      expect(res.status).toBe(200);
      return (res.body.data as { intakeKey: string }).intakeKey;
    };
    const post = async (key: string) => {
      const res = await fetch(`${b!.url}/api/intake/orders`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'idempotency-key': crypto.randomUUID(),
          'content-type': 'application/json',
        },
        body: JSON.stringify(application()),
      });
      return res.status;
    };
    const old = await rotate();
    expect(await post(old)).toBe(201); // b has the key's row in its cache now
    await rotate();
    expect(await within(1_000, async () => (await post(old)) === 401)).toBe(true);
  });

  it("the outbox sends each mail once with both servers' workers claiming", async () => {
    const before = mail.delivered().length;
    const subjects = Array.from({ length: 40 }, (_, i) => `Two servers mail ${i}`);
    for (const subject of subjects) {
      await insertMail(database.db, {
        orderId: null,
        kind: 'resend',
        to: 'traveller@mail.test',
        from: 'eTA Desk <desk@eta-desk.test>',
        provider: 'AWS',
        subject,
        html: `<p>${subject}</p>`,
        text: subject,
        attachments: [],
        documentId: null,
        failed: null,
      });
    }
    const sent = () =>
      database.db
        .selectFrom('mails')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('subject', 'in', subjects)
        .where('state', '=', 'sent')
        .executeTakeFirstOrThrow();
    expect(await within(20_000, async () => (await sent()).n === subjects.length)).toBe(true);
    const delivered = mail
      .delivered()
      .slice(before)
      .map((m) => m.subject);
    expect(delivered.filter((s) => subjects.includes(s)).sort()).toEqual([...subjects].sort());
  });
});
