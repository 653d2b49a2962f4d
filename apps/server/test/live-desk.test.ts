// The live desk over real HTTP connections (DESIGN §6): tickets, counts pushed after moves (coalesced), order and
// presence events, heartbeat, reconnection snapshots, the end of streams on close, and (PostgreSQL) a move made
// through one server reaching a stream of another server on the same database.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  LIVE_EVENTS_PATH,
  TRACK_PROOF_HEADER,
  type FolderCounts,
  type OrderChangedEvent,
  type OrderDetails,
  type PresenceEvent,
} from '@eta/contracts';
import { buildApp } from '../src/app.js';
import { openDatabase } from '../src/db/database.js';
import { LocalEventBus } from '../src/modules/events/event-bus.js';
import { LiveDeskHub } from '../src/modules/events/live-desk.hub.js';
import { OrderPresence } from '../src/modules/events/order-presence.js';
import type { Staff } from '../src/db/schema.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { givePortalHosts, insertOrder, putWithVersions } from './helpers/orders.js';
import { PDF, uploadRequest } from './helpers/uploads.js';
import { JWT_SECRET, buildTestApp, type TestApp } from './helpers/test-app.js';
import { testBackend } from './helpers/test-database.js';

interface SseEvent {
  id?: string;
  event?: string;
  data?: unknown;
  retry?: number;
  comment?: string;
}

interface Stream {
  status: number;
  events: SseEvent[];
  ended: Promise<void>;
  /** Waits (up to `ms`) for an event that `match` accepts among those not yet taken, and returns it. */
  next(match: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  /** Stops reading (the server's writes wait in the sockets' buffers), and reads again. */
  pause(): void;
  resume(): void;
  close(): void;
}

/** A real HTTP connection reading the stream, as a browser's EventSource would. */
function openStream(base: string, query = '', headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${LIVE_EVENTS_PATH}${query}`, {
      headers: { accept: 'text/event-stream', ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const events: SseEvent[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let taken = 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const e: SseEvent = {};
          for (const line of block.split('\n')) {
            const [field, ...rest] = line.split(': ');
            const value = rest.join(': ');
            if (field === '') e.comment = value;
            else if (field === 'data') e.data = JSON.parse(value);
            else if (field === 'retry') e.retry = Number(value);
            else if (field === 'id' || field === 'event') e[field] = value;
          }
          events.push(e);
        }
        for (const wake of waiters) wake();
      });
      const ended = new Promise<void>((done) => res.on('close', done));
      resolve({
        status: res.statusCode ?? 0,
        events,
        ended,
        next: (match, ms = 1_000) =>
          new Promise((found, fail) => {
            const look = () => {
              const i = events.findIndex((e, index) => index >= taken && match(e));
              if (i < 0) return false;
              taken = i + 1;
              waiters.delete(look);
              clearTimeout(timer);
              found(events[i]!);
              return true;
            };
            const timer = setTimeout(() => {
              waiters.delete(look);
              fail(new Error(`no matching event within ${ms} ms; got ${JSON.stringify(events.slice(taken))}`));
            }, ms);
            if (!look()) waiters.add(look);
          }),
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => req.destroy(),
      });
    });
  });
}

const named =
  <T>(event: string, match: (data: T) => boolean = () => true) =>
  (e: SseEvent) =>
    e.event === event && match(e.data as T);

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

type Person = Awaited<ReturnType<TestApp['signIn']>>;

async function ticketFor(t: TestApp, who: Person): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/events/ticket',
    headers: { authorization: who.token },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ data: { ticket: string; expiresInSeconds: number } }>();
  expect(body.data.expiresInSeconds).toBe(30);
  return body.data.ticket;
}

const folderCounts = async (t: TestApp, who: Person): Promise<FolderCounts> =>
  (await t.app.inject({ url: '/api/admin/get-folder-count', headers: { authorization: who.token } })).json().data;

const assign = (t: TestApp, who: Person, orderIds: string[]) =>
  putWithVersions(t, '/api/admin/assign-order-status', who.token, { orderId: orderIds, assignto: who.name });

describe('live desk', () => {
  let t: TestApp;
  let base: string;
  let team: Person;
  let other: Person;
  const streams: Stream[] = [];
  const open = async (...args: Parameters<typeof openStream>) => {
    const s = await openStream(...args);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await buildTestApp({}, { liveDesk: { heartbeatMs: 300 } });
    base = await listen(t);
    team = await t.signIn('Team', 'Tara Team');
    other = await t.signIn('Telecaller', 'Priya Phone');
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });

  it('a ticket opens one stream once; a used, wrong, missing or expired one is 401', async () => {
    const ticket = await ticketFor(t, team);
    const first = await open(base, `?ticket=${ticket}`);
    expect(first.status).toBe(200);
    await first.next(named('counts'));
    const again = await open(base, `?ticket=${ticket}`);
    expect(again.status).toBe(401);
    expect((await open(base, '?ticket=not-a-ticket')).status).toBe(401);
    expect((await open(base)).status).toBe(401);
    // A staff token is not a ticket.
    expect((await open(base, `?ticket=${team.token}`)).status).toBe(401);

    const late = await ticketFor(t, team);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    try {
      expect((await open(base, `?ticket=${late}`)).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
    // Other clients may send the staff token instead.
    const byHeader = await open(base, '', { authorization: team.token });
    expect(byHeader.status).toBe(200);
    await byHeader.next(named('counts'));
    // A client that asks for anything but the stream is told so in the API's envelope.
    const json = await t.app.inject({
      url: LIVE_EVENTS_PATH,
      headers: { authorization: team.token, accept: 'application/json' },
    });
    expect(json.statusCode).toBe(406);
    expect(json.json()).toMatchObject({ status: 0, message: expect.stringMatching(/server-sent events/) });
  });

  it('sends counts on connect and again within a second of a move, with an order event naming who moved it', async () => {
    const orderId = await insertOrder(t.database.db);
    const s = await open(base, `?ticket=${await ticketFor(t, team)}`);
    const snapshot = await s.next(named('counts'));
    expect(snapshot.data).toEqual(await folderCounts(t, team));
    expect(snapshot.id).toMatch(/.+/);
    expect(s.events[0]).toEqual({ retry: 3000 });

    expect((await assign(t, team, [orderId])).statusCode).toBe(200);
    const moved = await s.next(named<OrderChangedEvent>('order', (d) => d.orderId === orderId));
    expect(moved.data).toEqual({ orderId, version: 2, status: 'Pending', byStaffId: team.id, byName: 'Tara Team' });
    const after = await s.next(named<FolderCounts>('counts', (d) => d.myOrdersCount !== undefined));
    expect(after.data).toEqual(await folderCounts(t, team));
    expect((after.data as FolderCounts).myOrdersCount).toBe((snapshot.data as FolderCounts).myOrdersCount! + 1);
  });

  it('coalesces a burst of 50 moves into a handful of counts events, the last one right', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, () => insertOrder(t.database.db)));
    const s = await open(base, `?ticket=${await ticketFor(t, team)}`);
    await s.next(named('counts'));
    const before = s.events.length;
    for (const id of ids) expect((await assign(t, team, [id])).statusCode).toBe(200);
    const expected = await folderCounts(t, team);
    await s.next(
      named<FolderCounts>('counts', (d) => d.myOrdersCount === expected.myOrdersCount),
      2_000,
    );
    // Nothing else is on the way: the last counts event stays the right one.
    await new Promise((r) => setTimeout(r, 700));
    const counts = s.events.slice(before).filter((e) => e.event === 'counts');
    const orders = s.events.slice(before).filter((e) => e.event === 'order');
    expect(orders).toHaveLength(50);
    expect(counts.at(-1)!.data).toEqual(expected);
    // At most one per 500 ms while the moves went on, plus the first at once.
    expect(counts.length).toBeLessThanOrEqual(8);
  });

  it('shows presence to another person, ends it on leave, and snapshots it on (re)connect with Last-Event-ID', async () => {
    const orderId = await insertOrder(t.database.db);
    const watcher = await open(base, `?ticket=${await ticketFor(t, other)}`);
    await watcher.next(named('counts'));
    const put = (activity: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/orders/${orderId.toLowerCase()}/presence`,
        headers: { authorization: team.token },
        payload: { activity },
      });
    const res = await put('editing-remarks');
    expect(res.statusCode, res.body).toBe(200);
    const person = { staffId: team.id, name: 'Tara Team', activity: 'editing-remarks' };
    expect(res.json().data).toEqual({ orderId, people: [person] });
    const seen = await watcher.next(named<PresenceEvent>('presence', (d) => d.orderId === orderId));
    expect(seen.data).toEqual({ orderId, people: [person] });

    const lastId = seen.id!;
    const back = await open(base, '', { authorization: other.token, 'last-event-id': lastId });
    const snapshot = await back.next(named<PresenceEvent>('presence', (d) => d.orderId === orderId));
    expect(snapshot.data).toEqual({ orderId, people: [person] });
    await back.next(named('counts'));

    expect((await put('left')).statusCode).toBe(200);
    const gone = await watcher.next(named<PresenceEvent>('presence', (d) => d.orderId === orderId));
    expect(gone.data).toEqual({ orderId, people: [] });

    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/orders/ETA-999999999/presence',
      headers: { authorization: team.token },
      payload: { activity: 'viewing' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('tells of a comment written on the detail page, naming the comment: the version stays, so a page cannot tell by it', async () => {
    const orderId = await insertOrder(t.database.db);
    const s = await open(base, `?ticket=${await ticketFor(t, other)}`);
    await s.next(named('counts'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/add-new-remark',
      headers: { authorization: team.token },
      payload: { orderId, remark: 'Called the customer' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const remarkId = res.json<{ data: { id: number } }>().data.id;
    const written = await s.next(named<OrderChangedEvent>('order', (d) => d.orderId === orderId));
    expect(written.data).toEqual({
      orderId,
      version: 1,
      status: 'New',
      byStaffId: team.id,
      byName: 'Tara Team',
      added: { kind: 'comment', id: remarkId },
    });
    // The id is the one the other window's Comment History will list after its reload.
    const details = await t.app.inject({
      url: `/api/admin/get-orders-details/${orderId}`,
      headers: { authorization: other.token },
    });
    const shown = details.json<{ data: OrderDetails }>().data;
    expect(shown.version).toBe(1);
    expect(shown.remark.map((r) => r.id)).toEqual([remarkId]);
  });

  it("tells of a mail resent, an invoice sent and a customer's download, each naming the row it added", async () => {
    await givePortalHosts(t.database.db);
    const email = 'live.desk@customer.test';
    const orderId = await insertOrder(t.database.db, { email });
    const form = await uploadRequest(
      { orderId, email, mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
      { name: 'approval.pdf', content: PDF, type: 'application/pdf' },
    );
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      headers: { ...form.headers, authorization: team.token },
      payload: form.payload,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const s = await open(base, `?ticket=${await ticketFor(t, other)}`);
    await s.next(named('counts'));
    const heard = async () =>
      (await s.next(named<OrderChangedEvent>('order', (d) => d.orderId === orderId))).data as OrderChangedEvent;
    const byTara = { orderId, version: 2, status: 'Completed', byStaffId: team.id, byName: 'Tara Team' };

    const resent = await t.app.inject({
      method: 'POST',
      url: '/api/admin/resend-mail',
      headers: { authorization: team.token },
      payload: { orderId, email, mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
    });
    expect(resent.statusCode, resent.body).toBe(200);
    const resentId = resent.json<{ data: { mailId: number } }>().data.mailId;
    expect(await heard()).toEqual({ ...byTara, added: { kind: 'mail', id: resentId } });

    const invoice = await t.app.inject({
      method: 'POST',
      url: '/api/admin/send-invoice',
      headers: { authorization: team.token },
      payload: { orderId },
    });
    expect(invoice.statusCode, invoice.body).toBe(200);
    const invoiceMailId = invoice.json<{ data: { mailId: number } }>().data.mailId;
    expect(await heard()).toEqual({ ...byTara, added: { kind: 'mail', id: invoiceMailId } });

    const tracked = await t.app.inject({ method: 'POST', url: '/api/front/track-order', payload: { orderId, email } });
    expect(tracked.statusCode, tracked.body).toBe(200);
    const proof = tracked.json<{ data: { proof: string } }>().data.proof;
    const prepared = await t.app.inject({
      method: 'POST',
      url: '/api/front/download-passport-doc-pdf',
      headers: { [TRACK_PROOF_HEADER]: proof },
      payload: { orderId, customername: 'Ada Lovelace', file1: `eTA-${orderId}.pdf` },
    });
    expect(prepared.statusCode, prepared.body).toBe(200);
    const file = await t.app.inject({ url: prepared.json<{ data: { url: string } }>().data.url });
    expect(file.statusCode).toBe(200);
    const download = await heard();
    expect(download).toEqual({
      orderId,
      version: 2,
      status: 'Completed',
      byStaffId: null,
      byName: 'Customer',
      added: { kind: 'download', id: expect.any(Number) },
    });

    // Each id is a row the order's details list: Email History and Download History.
    const details = await t.app.inject({
      url: `/api/admin/get-orders-details/${orderId}`,
      headers: { authorization: other.token },
    });
    const shown = details.json<{ data: OrderDetails }>().data;
    expect(shown.mailHistory.map((m) => m.id)).toEqual(expect.arrayContaining([resentId, invoiceMailId]));
    expect(shown.downloadHistory.map((d) => d.id)).toEqual([download.added!.id]);
  });

  it("tells of an erasure of the order's personal data, at its new version, so a page showing that data learns it is gone", async () => {
    const email = 'erase.me@customer.test';
    const orderId = await insertOrder(t.database.db, { email });
    const admin = await t.signIn('Admin', 'Ada Admin');
    const s = await open(base, `?ticket=${await ticketFor(t, other)}`);
    await s.next(named('counts'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/subject-requests/erase',
      headers: { authorization: admin.token },
      payload: { email, confirm: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const erased = await s.next(named<OrderChangedEvent>('order', (d) => d.orderId === orderId));
    expect(erased.data).toEqual({ orderId, version: 2, status: 'New', byStaffId: admin.id, byName: 'Ada Admin' });
  });

  it('tells of an order placed by a landing site, by the site', async () => {
    const key = await createIntakeKey(t);
    const s = await open(base, `?ticket=${await ticketFor(t, other)}`);
    await s.next(named('counts'));
    const res = await postIntake(t, key, application());
    expect(res.statusCode, res.body).toBe(201);
    const orderId = res.json<{ data: { order_id: string } }>().data.order_id;
    const placed = await s.next(named<OrderChangedEvent>('order', (d) => d.orderId === orderId));
    expect(placed.data).toMatchObject({ orderId, version: 1, status: 'New', byStaffId: null, byName: 'default' });
  });

  it("a logout ends the person's streams, and their token gets no new ticket", async () => {
    const leaving = await t.signIn('Team');
    const s = await open(base, `?ticket=${await ticketFor(t, leaving)}`);
    await s.next(named('counts'));
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { authorization: leaving.token },
    });
    expect(out.statusCode).toBe(200);
    await s.ended;
    expect(s.events.at(-1)).toEqual({ retry: 3000 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/events/ticket',
      headers: { authorization: leaving.token },
    });
    expect(res.statusCode).toBe(401);
  });

  it('sends a heartbeat comment on an idle stream', async () => {
    const s = await open(base, `?ticket=${await ticketFor(t, team)}`);
    await s.next((e) => e.comment === 'heartbeat');
  });

  it('caps the streams of one person', async () => {
    const capped = await t.signIn('Team');
    const mine: Stream[] = [];
    for (let i = 0; i < 10; i += 1) mine.push(await open(base, '', { authorization: capped.token }));
    expect(mine.map((s) => s.status)).toEqual(Array(10).fill(200));
    expect((await open(base, '', { authorization: capped.token })).status).toBe(429);
  });
});

describe('a stream that stops reading', () => {
  it('is ended instead of keeping every event for it; a stream that reads stays open', async () => {
    const bus = new LocalEventBus(() => {});
    const t = await buildTestApp({}, { eventBus: bus });
    // Events held for a stalled socket add no listener each (the soak's log warned of eleven at once).
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const base = await listen(t);
      const stalled = await openStream(base, `?ticket=${await ticketFor(t, await t.signIn('Team'))}`);
      const reading = await openStream(base, `?ticket=${await ticketFor(t, await t.signIn('Manager'))}`);
      await reading.next(named('counts'));
      stalled.pause();
      // 120,000 order events of ~150 bytes: far more than the bound and the sockets' own buffers together.
      const orders = Array.from({ length: 60 }, (_, i) => [`ETA-${String(i).padStart(9, '0')}`, 2, 'Pending']);
      const message = JSON.stringify({ by: { id: null, name: 'default' }, orders });
      // At a pace the reading stream keeps up with (it reads in this process, between the messages).
      for (let i = 0; i < 2_000; i += 1) {
        await bus.publish('eta_orders', message);
        await new Promise((r) => setTimeout(r, i % 10 === 9 ? 2 : 0));
      }
      stalled.resume();
      await stalled.ended;
      const sent = (s: Stream) => s.events.filter((e) => e.event === 'order').length;
      expect(sent(stalled), 'ended long before it was sent every event').toBeLessThan(100_000);
      await vi.waitFor(() => expect(sent(reading)).toBe(120_000), { timeout: 10_000 });
      reading.close();
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await t.close();
    }
  });
});

describe('presence expiry', () => {
  it('drops an entry 45 s after its last heartbeat', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      const changed: string[] = [];
      const presence = new OrderPresence(
        new LocalEventBus(),
        (id) => changed.push(id),
        () => {},
      );
      presence.beat('ETA-1', { id: 7, name: 'Priya' }, 'viewing');
      vi.advanceTimersByTime(40_000);
      expect(presence.people('ETA-1')).toHaveLength(1);
      presence.beat('ETA-1', { id: 7, name: 'Priya' }, 'viewing');
      vi.advanceTimersByTime(40_000);
      expect(presence.people('ETA-1')).toHaveLength(1);
      vi.advanceTimersByTime(10_000);
      expect(presence.people('ETA-1')).toEqual([]);
      expect(presence.orders()).toEqual([]);
      expect(changed).toEqual(['ETA-1', 'ETA-1']);
      presence.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the hub', () => {
  it('ends a stream whose counts snapshot cannot be read, and does not keep it', async () => {
    const hub = new LiveDeskHub(new LocalEventBus(), {
      countsFor: () => Promise.reject(new Error('database gone')),
      onError: () => {},
    });
    const sent: unknown[] = [];
    let ended = false;
    const sink = { send: (m: unknown) => sent.push(m), comment: () => {}, end: () => (ended = true) };
    const staff = { id: 1, name: 'Tara', type: 'Team' } as Staff;
    await expect(hub.connect(staff, new Date(Date.now() + 60_000), sink)).rejects.toThrow('database gone');
    expect(ended).toBe(true);
    expect(sent.at(-1)).toEqual({ retry: 3000 });
    expect(hub.clients).toBe(0);
    hub.close();
  });
});

describe('closing the app', () => {
  it('counts open streams in /metrics, and ends every stream with a retry hint before the server drains', async () => {
    const t = await buildTestApp({ metricsToken: 'metrics-token-for-the-live-desk-test' });
    const base = await listen(t);
    const who = await t.signIn('Team');
    const s = await openStream(base, `?ticket=${await ticketFor(t, who)}`);
    await s.next(named('counts'));
    const metrics = await t.app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-for-the-live-desk-test' },
    });
    expect(metrics.body).toMatch(/^eta_sse_clients 1$/m);
    const closing = t.close();
    await s.ended;
    await closing;
    expect(s.events.at(-1)).toEqual({ retry: 3000 });
  });
});

describe.skipIf(testBackend() !== 'postgres')('two servers on one PostgreSQL database', () => {
  it('a move through server A reaches a stream of server B within a second; presence goes both ways, and a new server learns it', async () => {
    const a = await buildTestApp();
    const database = await openDatabase({ url: a.database.connectionString!, poolSize: 2 });
    const who = await a.signIn('Team', 'Ann Across');
    const reader = await a.signIn('Team', 'Rita Reader');
    const orderId = await insertOrder(a.database.db);
    const earlier = await insertOrder(a.database.db);
    // Someone is on an order before server B starts: B learns it when it says hello.
    const beat = await a.app.inject({
      method: 'PUT',
      url: `/api/admin/orders/${earlier}/presence`,
      headers: { authorization: reader.token },
      payload: { activity: 'editing-remarks' },
    });
    expect(beat.statusCode, beat.body).toBe(200);
    const b = await buildApp({ config: a.config, database, jwtSecret: JWT_SECRET, logger: false });
    try {
      await b.ready();
      await b.listen({ port: 0, host: '127.0.0.1' });
      const baseB = `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`;
      const baseA = await listen(a);
      // A ticket issued by A opens a stream on B (the browser reconnected through the other server).
      const onB = await openStream(baseB, `?ticket=${await ticketFor(a, who)}`);
      expect(onB.status).toBe(200);
      const known = await onB.next(named<PresenceEvent>('presence', (d) => d.orderId === earlier));
      expect((known.data as PresenceEvent).people).toEqual([
        { staffId: reader.id, name: 'Rita Reader', activity: 'editing-remarks' },
      ]);
      const before = await onB.next(named('counts'));
      const onA = await openStream(baseA, `?ticket=${await ticketFor(a, who)}`);
      await onA.next(named('counts'));

      expect((await assign(a, who, [orderId])).statusCode).toBe(200);
      const moved = await onB.next(named<OrderChangedEvent>('order', (d) => d.orderId === orderId));
      expect(moved.data).toMatchObject({ orderId, status: 'Pending', byStaffId: who.id });
      const counts = await onB.next(named('counts'));
      expect((counts.data as FolderCounts).myOrdersCount).toBe((before.data as FolderCounts).myOrdersCount! + 1);

      const res = await b.inject({
        method: 'PUT',
        url: `/api/admin/orders/${orderId}/presence`,
        headers: { authorization: who.token },
        payload: { activity: 'viewing' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const seen = await onA.next(named<PresenceEvent>('presence', (d) => d.orderId === orderId));
      expect((seen.data as PresenceEvent).people).toEqual([
        { staffId: who.id, name: 'Ann Across', activity: 'viewing' },
      ]);
      onA.close();
      onB.close();
    } finally {
      await b.close();
      await database.close();
      await a.close();
    }
  });
});
