// The order detail page's calls: the whole application in one answer, comments, Move-to buttons by role
// and status, transaction details, stale copies named back, and every write in the timeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOVE_TO_BUTTONS, REMARK_MAX_LENGTH, STAFF_TYPES, type StaffType } from '@eta/contracts';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';

let t: TestApp;
type Person = Awaited<ReturnType<TestApp['signIn']>>;
const people = {} as Record<StaffType, Person>;

beforeAll(async () => {
  t = await buildTestApp();
  for (const type of STAFF_TYPES) people[type] = await t.signIn(type, `${type} Person`);
});
afterAll(() => t.close());

const as = (who: Person) => ({ authorization: who.token });
const details = async (orderId: string, who: Person = people.Team) =>
  t.app.inject({ url: `/api/admin/get-orders-details/${orderId}`, headers: as(who) });
const move = (who: Person, orderId: string, updatingStatus: string, version: number) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/admin/move-order-status',
    headers: as(who),
    payload: { orderId, updatingStatus, version },
  });
const remark = (who: Person, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/admin/add-new-remark', headers: as(who), payload });
const saveTransaction = (who: Person, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/admin/save-transaction-details', headers: as(who), payload });
const row = (orderId: string) =>
  t.database.db.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
const audit = (orderId: string) =>
  t.database.db
    .selectFrom('audit_log')
    .innerJoin('orders', 'orders.id', 'audit_log.order_id')
    .select(['audit_log.action', 'audit_log.actor_name'])
    .where('orders.order_id', '=', orderId)
    .orderBy('audit_log.id')
    .execute();

describe('GET get-orders-details', () => {
  it('returns every section of the application, typed, with absent values left out', async () => {
    const id = await insertOrder(t.database.db, {
      process_status: 'Pending',
      assign_to: people.Team.id,
      assign_date: new Date('2026-11-20T15:04:05Z'),
      passport_number: 'X1234567',
      birth_year: 1980,
      birth_month: 7,
      birth_date: 14,
      applying_for_someone: false,
      have_you_ever_been_refused_a_visa_or_permit: true,
      occupation: 'Engineer',
      city: 'Leeds',
      travel_to_canada_year: '2027-03-01',
      customer_date: new Date('2026-11-19T10:00:00Z'),
      ip_address: '203.0.113.5',
      customer_sign: 'signatures/abc.png',
      surname: null,
    });
    const res = await details(id.toLowerCase());
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      order_id: id,
      email: `${id.toLowerCase()}@mail.test`,
      process_status: 'Pending',
      processing_type: 'Standard',
      passport_first_name: 'Ada',
      passport_number: 'X1234567',
      birth_year: 1980,
      birth_month: 7,
      birth_date: 14,
      applying_for_someone: false,
      have_you_ever_been_refused_a_visa_or_permit: true,
      occupation: 'Engineer',
      city: 'Leeds',
      telephone_number: '5550100',
      country_code: '44',
      travel_to_canada_year: '2027-03-01',
      assign_date: '2026-11-20T15:04:05.000Z',
      customer_date: '2026-11-19T10:00:00.000Z',
      ip_address: '203.0.113.5',
      customer_sign: 'signatures/abc.png',
      version: 1,
      assign_to: 'Team Person',
      assign_to_id: people.Team.id,
      uploadDoc: [],
      mailHistory: [],
      downloadHistory: [],
      remark: [],
      activity: [],
    });
    expect(data.create_ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const absent of ['surname', 'uci_number', 'transaction_id', 'refund_date', 'job_title']) {
      expect(data, absent).not.toHaveProperty(absent);
    }
  });

  it('lists downloads and mails of the order, newest first, in the same one answer', async () => {
    const id = await insertOrder(t.database.db, { process_status: 'Completed' });
    const { id: key } = await row(id);
    await t.database.db
      .insertInto('downloads')
      .values([
        {
          order_id: key,
          ip: '198.51.100.1',
          browser: 'Firefox',
          os: 'Linux',
          created_at: new Date('2026-11-01T00:00:00Z'),
        },
        { order_id: key, ip: '198.51.100.2', device_type: 'mobile', created_at: new Date('2026-11-02T00:00:00Z') },
      ])
      .execute();
    await t.database.db
      .insertInto('mails')
      .values({
        order_id: key,
        kind: 'approval',
        to_address: 'a@b.test',
        subject: 'Your eTA',
        html: '<p>x</p>',
        text: 'x',
        provider: 'AWS',
      })
      .execute();
    const data = (await details(id)).json().data;
    expect(data.downloadHistory).toEqual([
      expect.objectContaining({ order_id: id, ip: '198.51.100.2', device_type: 'mobile' }),
      expect.objectContaining({ order_id: id, ip: '198.51.100.1', browser: 'Firefox', os: 'Linux' }),
    ]);
    expect(data.downloadHistory[1]).not.toHaveProperty('device_type');
    expect(data.mailHistory).toEqual([
      expect.objectContaining({
        kind: 'approval',
        to: 'a@b.test',
        subject: 'Your eTA',
        provider: 'AWS',
        state: 'queued',
        attempts: 0,
      }),
    ]);
    expect(JSON.stringify(data.mailHistory)).not.toContain('<p>x</p>');
  });

  it('answers 404 with a clear message for an unknown or malformed order id', async () => {
    for (const id of ['ETA-999999999', 'nonsense', '%20']) {
      const res = await details(id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({
        status: 0,
        code: 'ORDER_NOT_FOUND',
        message: expect.stringMatching(/was not found/),
      });
    }
  });
});

describe('POST add-new-remark', () => {
  it('records the signed-in author whatever remarkerName says, keeps the text as typed, flags Y or empty', async () => {
    const id = await insertOrder(t.database.db);
    const text = '<img src=x onerror=alert(1)> Customer asked for a call  ';
    const res = await remark(people.Telecaller, {
      orderId: id,
      remark: text,
      remarkerName: 'Admin Person',
      whatsapp: 'Y',
      telephone: '',
      statusRefund: '',
      voided: 'Y',
      chargeBack: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      remark_name: 'Telecaller Person',
      remark: text,
      whatsapp: true,
      telephone: false,
      voided: true,
      chargeback: false,
      us_date: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/),
      us_time: expect.stringMatching(/^\d\d:\d\d:\d\d E[SD]T$/),
    });
    await remark(people.Team, { orderId: id, remark: 'second' });
    const data = (await details(id)).json().data;
    expect(data.remark.map((r: { remark: string }) => r.remark)).toEqual(['second', text]);
    expect(data.activity.map((a: { action: string; actor: string }) => [a.action, a.actor])).toEqual([
      ['Comment added', 'Telecaller Person'],
      ['Comment added', 'Team Person'],
    ]);
  });

  it("refuses an empty, blank or oversize remark with the spec's message and stores nothing", async () => {
    const id = await insertOrder(t.database.db);
    for (const text of ['', '   \n ']) {
      const res = await remark(people.Team, { orderId: id, remark: text });
      expect(res.statusCode, text.slice(0, 5)).toBe(400);
      expect(res.json().message).toBe('Please enter your remark');
    }
    const long = await remark(people.Team, { orderId: id, remark: 'x'.repeat(REMARK_MAX_LENGTH + 1) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(`Remark must be at most ${REMARK_MAX_LENGTH} characters.`);
    const missing = await remark(people.Team, { orderId: id });
    expect(missing.json().message).toBe('Please enter your remark');
    expect((await details(id)).json().data.remark).toEqual([]);
    expect(await audit(id)).toEqual([]);
  });

  it('answers 404 for an unknown order', async () => {
    const res = await remark(people.Team, { orderId: 'ETA-999999998', remark: 'hello' });
    expect(res.statusCode).toBe(404);
  });
});

describe('PUT move-order-status', () => {
  const everyone = STAFF_TYPES;
  for (const { status } of MOVE_TO_BUTTONS) {
    const allowed: readonly StaffType[] = status === 'Deleted' ? ['Admin', 'Manager'] : everyone;
    it(`${status}: allowed to ${allowed.join(', ')}, refused to the rest, audited, version bumped`, async () => {
      for (const type of everyone) {
        const id = await insertOrder(t.database.db, {
          process_status: status === 'AwaitingGovt' ? 'Awaiting' : 'AwaitingGovt',
        });
        const before = await row(id);
        const res = await move(people[type], id, status, 1);
        if (allowed.includes(type)) {
          expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
          expect(res.json()).toMatchObject({ status: 1, data: { orderId: id, version: 2 } });
          expect(await row(id)).toMatchObject({ process_status: status, version: 2 });
          expect((await audit(id)).map((a) => a.actor_name)).toEqual([`${type} Person`]);
        } else {
          expect(res.statusCode, type).toBe(403);
          expect(await row(id)).toEqual(before);
        }
      }
    });
  }

  it('a button for the status the order already has is refused, and Refund Completed never moves', async () => {
    const id = await insertOrder(t.database.db, { process_status: 'ChargeBack' });
    expect((await move(people.Team, id, 'ChargeBack', 1)).json()).toMatchObject({ code: 'ALREADY_IN_STATUS' });
    const done = await insertOrder(t.database.db, { process_status: 'Refund Completed' });
    const res = await move(people.Admin, done, 'Awaiting', 1);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ORDER_CLOSED' });
    expect((await row(done)).process_status).toBe('Refund Completed');
  });

  it('a Deleted order is only restored by an Admin ("Restore to New"), to New and unassigned', async () => {
    const id = await insertOrder(t.database.db, { process_status: 'Deleted', assign_to: people.Team.id });
    expect((await move(people.Manager, id, 'New', 1)).statusCode).toBe(403);
    expect((await move(people.Manager, id, 'Awaiting', 1)).json()).toMatchObject({ code: 'ORDER_DELETED' });
    const res = await move(people.Admin, id, 'New', 1);
    expect(res.statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ process_status: 'New', assign_to: null, version: 2 });
  });

  it('a stale version is a 409 naming who changed the order and when, and nothing is overwritten', async () => {
    const id = await insertOrder(t.database.db);
    expect((await move(people.Manager, id, 'AwaitingGovt', 1)).statusCode).toBe(200);
    const res = await move(people.Team, id, 'Contact Customer', 1);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      status: 0,
      code: 'STALE_VERSION',
      message: expect.stringMatching(
        /^Order ETA-\d{9} was changed by Manager Person at \d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d UTC/,
      ),
      data: { changedBy: 'Manager Person', changedAt: expect.any(String) },
    });
    expect(await row(id)).toMatchObject({ process_status: 'AwaitingGovt', version: 2 });
    expect(await audit(id)).toHaveLength(1);
  });

  it('an order held by someone is moved only by its holder, a Manager or an Admin (spec §6)', async () => {
    for (const type of STAFF_TYPES) {
      const id = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: people.Team.id });
      const res = await move(people[type], id, 'AwaitingGovt', 1);
      if (['Admin', 'Manager', 'Team'].includes(type)) {
        expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
        expect(await row(id)).toMatchObject({ process_status: 'AwaitingGovt', version: 2 });
        continue;
      }
      expect(res.statusCode, type).toBe(409);
      expect(res.json()).toMatchObject({ code: 'ORDER_HELD' });
      expect(res.json().message).toContain('is held by Team Person');
      expect(await row(id)).toMatchObject({ process_status: 'Pending', assign_to: people.Team.id, version: 1 });
      expect(await audit(id)).toEqual([]);
    }
  });

  it('a move without the version the person saw is a 400 and changes nothing', async () => {
    const id = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: people.Team.id });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/move-order-status',
      headers: as(people.Team),
      payload: { orderId: id, updatingStatus: 'AwaitingGovt' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await row(id)).toMatchObject({ process_status: 'Pending', version: 1 });
  });

  it('the timeline lists each move in time order with who, what, from and to', async () => {
    const id = await insertOrder(t.database.db);
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/assign-order-status',
      headers: as(people.Team),
      payload: { orderId: [id], assignto: 'Team Person', versions: { [id]: 1 } },
    });
    await move(people.Team, id, 'AwaitingGovt', 2);
    await move(people.Manager, id, 'Completed', 3);
    const { activity } = (await details(id)).json().data;
    expect(activity.map((a: object) => ({ ...a, at: undefined }))).toEqual([
      { actor: 'Team Person', action: 'Assigned', from: 'New', to: 'Pending' },
      { actor: 'Team Person', action: 'Status changed', from: 'Pending', to: 'Awaiting Govt' },
      { actor: 'Manager Person', action: 'Status changed', from: 'Awaiting Govt', to: 'Completed' },
    ]);
    const times = activity.map((a: { at: string }) => a.at);
    expect(times).toEqual([...times].sort());
  });
});

describe('POST save-transaction-details', () => {
  it('is refused for an order that is not Completed, Customer Called or ChargeBack, and nothing changes', async () => {
    const id = await insertOrder(t.database.db);
    const res = await saveTransaction(people.Team, {
      orderId: id,
      transactionId: 'ch_123',
      merchantName: 'Acme',
      version: 1,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'WRONG_STATUS',
      message:
        'Transaction details can be saved only for Completed, Customer Called or Charge Back orders; this order is New.',
    });
    expect(await row(id)).toMatchObject({ transaction_id: null, merchant_name: null, version: 1 });
  });

  it('a save without the version the person saw is a 400 and changes nothing', async () => {
    const id = await insertOrder(t.database.db, { process_status: 'Completed' });
    const res = await saveTransaction(people.Team, { orderId: id, transactionId: 'ch_123', merchantName: 'Acme' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await row(id)).toMatchObject({ transaction_id: null, merchant_name: null, version: 1 });
  });

  it('saves for Completed and Customer Called orders, bumps the version and audits before and after', async () => {
    for (const status of ['Completed', 'Customer Called'] as const) {
      const id = await insertOrder(t.database.db, { process_status: status });
      const res = await saveTransaction(people.Team, {
        orderId: id,
        transactionId: ' ch_123 ',
        merchantName: 'Acme Ltd',
        version: 1,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 1, data: { version: 2 } });
      expect(await row(id)).toMatchObject({ transaction_id: 'ch_123', merchant_name: 'Acme Ltd', version: 2 });
      expect((await details(id)).json().data).toMatchObject({ transaction_id: 'ch_123', merchant_name: 'Acme Ltd' });
      expect((await audit(id)).map((a) => a.action)).toEqual(['order.transaction-details']);
    }
  });

  it("requires both fields with the spec's messages", async () => {
    const id = await insertOrder(t.database.db, { process_status: 'Completed' });
    const noId = await saveTransaction(people.Team, {
      orderId: id,
      transactionId: ' ',
      merchantName: 'Acme',
      version: 1,
    });
    expect(noId.json().message).toBe('Please enter your Transaction Id');
    const noMerchant = await saveTransaction(people.Team, { orderId: id, transactionId: 'ch_1', version: 1 });
    expect(noMerchant.json().message).toBe('Please enter your Merchant Name');
  });
});
