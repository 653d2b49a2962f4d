// Order rules of DESIGN §3 that one careless edit would break without any other test noticing: where a due
// Future order lives, that Deleted and closed orders only come back through their own door, who may release
// someone else's order, when refund_date is stamped, search never leaking past its queue beyond the count
// cap, the password-change audit row, and per-order optimistic concurrency in a bulk move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewOrder } from '../src/db/schema.js';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';
import { daysFromToday, insertOrder, putWithVersions } from './helpers/orders.js';

let t: TestApp;
type Person = Awaited<ReturnType<TestApp['signIn']>>;
let team: Person;
let other: Person;
let manager: Person;
let admin: Person;

beforeAll(async () => {
  t = await buildTestApp();
  team = await t.signIn('Team', 'Tara Team');
  other = await t.signIn('Team', 'Omar Other');
  manager = await t.signIn('Manager', 'Mona Manager');
  admin = await t.signIn('Admin', 'Adam Admin');
});
afterAll(() => t.close());

// ---- shared helpers -------------------------------------------------------------------------------------

type Row = { order_id: string; process_status: string; processing_type: string; assign_to: string };
type Skipped = { orderId: string; code?: string; reason: string };

const get = (url: string, who: Person) => t.app.inject({ url, headers: { authorization: who.token } });
const put = (url: string, who: Person, payload: object) => putWithVersions(t, url, who.token, payload);

const assign = (who: Person, orderId: string[], assignto: string, versions?: Record<string, number>) =>
  put('/api/admin/assign-order-status', who, { orderId, assignto, ...(versions ? { versions } : {}) });
const moveToNew = (who: Person, orderId: string[]) => assign(who, orderId, '');
const changeStatus = (who: Person, orderId: string[], updatingStatus: string, versions?: Record<string, number>) =>
  put('/api/admin/change-order-status', who, { orderId, updatingStatus, ...(versions ? { versions } : {}) });
const refundedIt = (who: Person, orderId: string[]) => put('/api/admin/move-to-complete-refund', who, { orderId });

const order = (id: string) =>
  t.database.db.selectFrom('orders').selectAll().where('order_id', '=', id).executeTakeFirstOrThrow();
const auditFor = (id: string) =>
  t.database.db
    .selectFrom('audit_log')
    .innerJoin('orders', 'orders.id', 'audit_log.order_id')
    .select(['audit_log.action', 'audit_log.actor_id', 'audit_log.before', 'audit_log.after'])
    .where('orders.order_id', '=', id)
    .execute();
const counts = async (who: Person = team) => (await get('/api/admin/get-folder-count', who)).json().data;
/** Every order id of a queue (5,000 is the page cap; this file never comes near it outside the search rule). */
const listIds = async (queue: string, who: Person = team, query = '') => {
  const res = await get(`/api/admin/get-orders-list/${queue}?page=1&limit=5000${query}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.rows as Row[]).map((r) => r.order_id);
};
const search = (folderName: string, searchVal: string, start = 0, end = 100, who: Person = team) =>
  t.search(who.token, { start, end, searchVal, folderName });

/** A 200 bulk answer: exactly these moved, exactly these were skipped (codes checked where given). */
function expectBulk(res: Awaited<ReturnType<typeof put>>, updated: string[], skipped: Partial<Skipped>[]) {
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { updated: string[]; skipped: Skipped[] };
  expect(data.updated).toEqual(updated);
  expect(data.skipped).toEqual(skipped.map((s) => expect.objectContaining(s)));
}

/** The order is exactly as it was inserted: same status, holder, version, refund date, and no audit row. */
async function expectUntouched(id: string, was: Partial<Awaited<ReturnType<typeof order>>>) {
  expect(await order(id)).toMatchObject({ version: 1, ...was });
  expect(await auditFor(id)).toEqual([]);
}

// ---- 1. a Future order's queue is decided by its processing date ----------------------------------------

describe('Future orders and "today" (DESIGN §3: a Future order whose processing_date has come joins New)', () => {
  // Kills: `processing_date < today` in the New filter (today's order in neither queue), `>=` in the Future
  // filter (today's order in both), or the counts' SQL drifting from the list/search filter (queues.ts vs
  // folder-counts.repository.ts vs the month tiles).
  it.each([
    ['yesterday', 'newOrder', -1, 'Yesterdayfuture'],
    ['today', 'newOrder', 0, 'Todayfuture'],
    ['tomorrow', 'futureOrder', 1, 'Tomorrowfuture'],
  ] as const)('a Future order due %s is in exactly one queue: %s', async (_when, home, days, surname) => {
    const away = home === 'newOrder' ? 'futureOrder' : 'newOrder';
    const processingDate = daysFromToday(days);
    const month = Number(processingDate.slice(5, 7));
    const monthCount = async () =>
      (await get('/api/admin/future-order-counts', team)).json().data.find((c: { month: number }) => c.month === month)
        .count as number;
    const before = await counts();
    const monthBefore = await monthCount();

    const id = await insertOrder(t.database.db, {
      processing_type: 'Future',
      processing_date: processingDate,
      passport_surname: surname,
    });

    expect(await listIds(home)).toContain(id);
    expect(await listIds(away)).not.toContain(id);
    expect((await search(home, surname)).rows.map((r) => r.order_id)).toEqual([id]);
    expect(await search(away, surname)).toMatchObject({ rows: [], total: 0 });

    const after = await counts();
    expect(after.newOrdersCount - before.newOrdersCount).toBe(home === 'newOrder' ? 1 : 0);
    expect(after.futureOrdersCount - before.futureOrdersCount).toBe(home === 'futureOrder' ? 1 : 0);
    // The month tiles and the month list are the Future queue too: a due order is on neither.
    expect((await monthCount()) - monthBefore).toBe(home === 'futureOrder' ? 1 : 0);
    expect((await listIds('futureOrder', team, `&month=${month}`)).includes(id)).toBe(home === 'futureOrder');
  });
});

// ---- 2. a Deleted order comes back only through an Admin restore --------------------------------------

describe('Deleted orders', () => {
  const deleted = (overrides: Partial<NewOrder> = {}) =>
    insertOrder(t.database.db, {
      process_status: 'Deleted',
      assign_to: other.id,
      assign_date: new Date('2026-01-05T10:00:00Z'),
      ...overrides,
    });
  const wasDeleted = { process_status: 'Deleted', refund_date: null } as const;

  // Kills: dropping the "is deleted; an Admin must restore it first" check from change-order-status, which
  // would let anyone (even Team) bring a deleted order back to life without a restore. The movable order in
  // the same call makes the answer 200 so the skipped entry and its code can be read.
  it.each(['Awaiting', 'AwaitingGovt', 'Customer Called', 'Contact Customer', 'Completed', 'Refunds', 'ChargeBack'])(
    'change-order-status to %s skips a Deleted order, even for an Admin',
    async (to) => {
      const gone = await deleted();
      const movable = await insertOrder(t.database.db);
      expectBulk(await changeStatus(admin, [gone, movable], to), [movable], [{ orderId: gone, code: 'ORDER_DELETED' }]);
      await expectUntouched(gone, { ...wasDeleted, assign_to: other.id });
      expect((await order(movable)).process_status).toBe(to);
    },
  );

  it('answers 409 and changes nothing when the only order named is Deleted', async () => {
    const gone = await deleted();
    const res = await changeStatus(admin, [gone], 'Completed');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 0, message: expect.stringContaining(gone) });
    await expectUntouched(gone, { ...wasDeleted, assign_to: other.id });
  });

  // Kills: an Assign-to-me status check that forgets Deleted (or a take-over rule that runs before it).
  it('Assign to me skips a Deleted order, for Team (unassigned order) and Admin (held order) alike', async () => {
    const unheld = await deleted({ assign_to: null, assign_date: null });
    const fresh = await insertOrder(t.database.db);
    expectBulk(
      await assign(team, [unheld, fresh], team.name),
      [fresh],
      [{ orderId: unheld, code: expect.stringMatching(/ORDER_DELETED|WRONG_STATUS/) }],
    );
    await expectUntouched(unheld, { ...wasDeleted, assign_to: null });

    const held = await deleted();
    const fresh2 = await insertOrder(t.database.db);
    expectBulk(
      await assign(admin, [held, fresh2], admin.name),
      [fresh2],
      [{ orderId: held, code: expect.stringMatching(/ORDER_DELETED|WRONG_STATUS/) }],
    );
    await expectUntouched(held, { ...wasDeleted, assign_to: other.id });
  });

  // Kills: taking Deleted out of the statuses Move to New refuses: that is a restore by the back door (New,
  // unassigned), open to any holder rather than to Admins only.
  it('Move to New skips a Deleted order, whether the holder or an Admin asks', async () => {
    const mine = await deleted({ assign_to: team.id });
    const pending = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: team.id });
    expectBulk(
      await moveToNew(team, [mine, pending]),
      [pending],
      [{ orderId: mine, code: expect.stringMatching(/ORDER_DELETED|ORDER_CLOSED/) }],
    );
    await expectUntouched(mine, { ...wasDeleted, assign_to: team.id });

    const held = await deleted();
    const pending2 = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: other.id });
    expectBulk(
      await moveToNew(admin, [held, pending2]),
      [pending2],
      [{ orderId: held, code: expect.stringMatching(/ORDER_DELETED|ORDER_CLOSED/) }],
    );
    await expectUntouched(held, { ...wasDeleted, assign_to: other.id });
  });

  // Kills: "Refunded it" accepting any status instead of Refunds only.
  it('Refunded it skips a Deleted order', async () => {
    const gone = await deleted({ refund_date: null });
    const refund = await insertOrder(t.database.db, { process_status: 'Refunds', refund_date: new Date() });
    expectBulk(
      await refundedIt(admin, [gone, refund]),
      [refund],
      [{ orderId: gone, code: expect.stringMatching(/ORDER_DELETED|WRONG_STATUS/) }],
    );
    await expectUntouched(gone, { ...wasDeleted, assign_to: other.id });
  });

  // Kills: a restore that keeps the old holder (the order would sit in nobody's New queue but in a My Orders),
  // a restore without version bump or audit, and restore open to Managers (ACTION_RULES.restoreDeleted).
  it('an Admin restores it to New, unassigned, audited; a Manager or Team member is refused with 403', async () => {
    const gone = await deleted();
    for (const who of [manager, team]) {
      const res = await changeStatus(who, [gone], 'New');
      expect(res.statusCode, who.name).toBe(403);
      await expectUntouched(gone, { ...wasDeleted, assign_to: other.id });
    }

    const before = await counts(other);
    expectBulk(await changeStatus(admin, [gone], 'New'), [gone], []);
    expect(await order(gone)).toMatchObject({ process_status: 'New', assign_to: null, assign_date: null, version: 2 });
    expect(await auditFor(gone)).toEqual([
      expect.objectContaining({
        actor_id: admin.id,
        before: expect.objectContaining({ process_status: 'Deleted' }),
        after: expect.objectContaining({ process_status: 'New' }),
      }),
    ]);
    expect(await listIds('newOrder')).toContain(gone);
    expect(await listIds('deletedOrder')).not.toContain(gone);
    const after = await counts(other);
    expect(after.deletedOrdersCount - before.deletedOrdersCount).toBe(-1);
    expect(after.newOrdersCount - before.newOrdersCount).toBe(1);
  });
});

// ---- 3. closed orders are not reopened by Move to New ---------------------------------------------------

describe('Completed and Refund Completed orders stay closed', () => {
  // The closed orders are assigned, so the refusal must come from their status: an unassigned order would be
  // refused anyway ("not assigned") and the test could not fail. Kills: dropping the closed-status check from
  // Move to New (for the holder, or for an Admin whose take-over rule runs first).
  it.each([
    ['Completed', 'the holder (Team)'],
    ['Completed', 'an Admin'],
    ['Refund Completed', 'the holder (Team)'],
    ['Refund Completed', 'an Admin'],
  ] as const)('Move to New of a %s order is refused for %s', async (status, asker) => {
    const who = asker === 'an Admin' ? admin : team;
    const holder = asker === 'an Admin' ? other : team;
    const closed = await insertOrder(t.database.db, {
      process_status: status,
      assign_to: holder.id,
      assign_date: new Date('2026-01-05T10:00:00Z'),
    });
    const open = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: holder.id });
    expectBulk(
      await moveToNew(who, [closed, open]),
      [open],
      [{ orderId: closed, code: expect.stringMatching(/ORDER_CLOSED|WRONG_STATUS/) }],
    );
    await expectUntouched(closed, { process_status: status, assign_to: holder.id });

    const alone = await moveToNew(who, [closed]);
    expect(alone.statusCode).toBe(409);
    await expectUntouched(closed, { process_status: status, assign_to: holder.id });
  });

  // Kills: a restore (change-order-status 'New') that accepts any status instead of Deleted only.
  it.each(['Completed', 'Refund Completed'] as const)(
    "an Admin's restore (change-order-status New) does not reopen a %s order",
    async (status) => {
      const closed = await insertOrder(t.database.db, { process_status: status, assign_to: other.id });
      const gone = await insertOrder(t.database.db, { process_status: 'Deleted' });
      expectBulk(
        await changeStatus(admin, [closed, gone], 'New'),
        [gone],
        [{ orderId: closed, code: expect.stringMatching(/ORDER_CLOSED|WRONG_STATUS/) }],
      );
      await expectUntouched(closed, { process_status: status, assign_to: other.id });
    },
  );
});

// ---- 4. releasing someone else's order --------------------------------------------------------------------

describe('Move to New of an order someone else holds', () => {
  // Kills: a release rule that only ever allows your own orders (Manager refused), and the audit row naming
  // the holder instead of the person who released it.
  it.each(['Manager', 'Admin'] as const)('a %s releases it: New, unassigned, version bumped, audited', async (role) => {
    const who = role === 'Manager' ? manager : admin;
    const held = await insertOrder(t.database.db, {
      process_status: 'Pending',
      assign_to: other.id,
      assign_date: new Date('2026-01-05T10:00:00Z'),
    });
    const before = await counts(other);
    expectBulk(await moveToNew(who, [held]), [held], []);
    expect(await order(held)).toMatchObject({ process_status: 'New', assign_to: null, assign_date: null, version: 2 });
    expect(await auditFor(held)).toEqual([
      expect.objectContaining({
        actor_id: who.id,
        before: expect.objectContaining({ process_status: 'Pending', assign_to: other.id }),
        after: expect.objectContaining({ process_status: 'New', assign_to: null }),
      }),
    ]);
    expect(await listIds('newOrder')).toContain(held);
    const after = await counts(other);
    expect(after.myOrdersCount - before.myOrdersCount).toBe(-1);
    expect(after.pendingOrdersCount - before.pendingOrdersCount).toBe(-1);
    expect(after.newOrdersCount - before.newOrdersCount).toBe(1);
  });

  // Kills: a release rule that lets anyone release anything (`mayMoveOthers` true for Team).
  it('a Team member may not: skipped as held beside their own order, 409 alone, unchanged', async () => {
    const held = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: other.id });
    const mine = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: team.id });
    expectBulk(await moveToNew(team, [held, mine]), [mine], [{ orderId: held, code: 'ORDER_HELD' }]);
    await expectUntouched(held, { process_status: 'Pending', assign_to: other.id });

    expect((await moveToNew(team, [held])).statusCode).toBe(409);
    await expectUntouched(held, { process_status: 'Pending', assign_to: other.id });
  });
});

// ---- 5. refund_date ---------------------------------------------------------------------------------------

describe('refund_date', () => {
  const expectNow = (d: Date | null, from: number) => {
    expect(d).toBeInstanceOf(Date);
    // A few seconds either side: the stamp may come from the server process or the database clock.
    expect(d!.getTime()).toBeGreaterThanOrEqual(from - 5_000);
    expect(d!.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
  };

  // Kills: forgetting the stamp when an order enters Refunds (the Refund queue's "Refund Date" column).
  it('moving an order to Refunds stamps refund_date with now, shown in the Refund queue', async () => {
    const id = await insertOrder(t.database.db, { process_status: 'Completed' });
    const from = Date.now();
    expectBulk(await changeStatus(team, [id], 'Refunds'), [id], []);
    const row = await order(id);
    expect(row.process_status).toBe('Refunds');
    expectNow(row.refund_date, from);
    const { rows } = (await get('/api/admin/get-orders-list/refundOrder?limit=5000', team)).json().data;
    expect(rows.find((r: { order_id: string }) => r.order_id === id).refund_date).toBe(row.refund_date!.toISOString());
  });

  // Kills: stamping refund_date on every status change (the Refund Date would then lie for orders that were
  // never refunded, and a later chargeback pack would show a refund request that did not happen).
  it.each(['Awaiting', 'AwaitingGovt', 'Customer Called', 'Contact Customer', 'Completed', 'ChargeBack', 'Deleted'])(
    'moving an order to %s leaves refund_date empty',
    async (to) => {
      const id = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: team.id });
      expectBulk(await changeStatus(admin, [id], to), [id], []);
      expect(await order(id)).toMatchObject({ process_status: to, refund_date: null, version: 2 });
    },
  );

  it('an Admin restore leaves refund_date empty', async () => {
    const id = await insertOrder(t.database.db, { process_status: 'Deleted' });
    expectBulk(await changeStatus(admin, [id], 'New'), [id], []);
    expect(await order(id)).toMatchObject({ process_status: 'New', refund_date: null });
  });

  // Kills: Refunded it that changes the status but keeps the old request date (or clears it).
  it('Refunded it sets Refund Completed and stamps refund_date again', async () => {
    const id = await insertOrder(t.database.db, {
      process_status: 'Refunds',
      refund_date: new Date('2020-03-01T09:00:00Z'),
    });
    const from = Date.now();
    expectBulk(await refundedIt(team, [id]), [id], []);
    const row = await order(id);
    expect(row).toMatchObject({ process_status: 'Refund Completed', version: 2 });
    expectNow(row.refund_date, from);
  });
});

// ---- 7. the password change is audited, without the password ------------------------------------------

describe('change-password audit', () => {
  // Kills: the audit row going missing (it is written in the same transaction as the change), naming the
  // wrong actor/target, or carrying the request body or the new hash in before/after.
  it("writes 'staff.change-password' by the person for staff:<id>, and no trace of the password", async () => {
    const person = await t.signIn('Telecaller', 'Pat Password');
    const newPassword = 'Zebra-Quartz-91!';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: person.token },
      payload: { newPassword },
    });
    expect(res.statusCode, res.body).toBe(200);

    const rows = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'staff.change-password')
      .where('actor_id', '=', person.id)
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ actor_id: person.id, actor_name: person.name, target: `staff:${person.id}` }),
    ]);

    const { password_hash } = await t.database.db
      .selectFrom('staff')
      .select('password_hash')
      .where('id', '=', person.id)
      .executeTakeFirstOrThrow();
    // The whole audit trail, not only this row: a password must not leak into any entry.
    const everything = JSON.stringify(await t.database.db.selectFrom('audit_log').selectAll().execute());
    for (const secret of [newPassword, password_hash, TEST_PASSWORD]) expect(everything).not.toContain(secret);
  });
});

// ---- 8. optimistic concurrency per order ----------------------------------------------------------------

describe('versions in a bulk move', () => {
  // The stale order was really changed by someone else after the person loaded it (version 1 → 2).
  // Kills: ignoring `versions` (the stale order is overwritten), failing the whole call for one stale order
  // (the current one does not move), and treating any supplied version as stale.
  it('change-order-status: a stale version is skipped and untouched, a current one moves', async () => {
    const stale = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: team.id });
    const current = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: team.id });
    expectBulk(await changeStatus(manager, [stale], 'Contact Customer'), [stale], []);

    const res = await changeStatus(team, [stale, current], 'Awaiting', { [stale]: 1, [current]: 1 });
    expectBulk(res, [current], [{ orderId: stale, code: 'STALE_VERSION' }]);
    expect(await order(stale)).toMatchObject({ process_status: 'Contact Customer', version: 2 });
    expect((await auditFor(stale)).map((a) => a.actor_id)).toEqual([manager.id]);
    expect(await order(current)).toMatchObject({ process_status: 'Awaiting', version: 2 });
  });

  it('change-order-status: an order sent without the version its person saw refuses the whole request', async () => {
    const seen = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: team.id });
    const unseen = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: team.id });

    const res = await changeStatus(team, [seen, unseen], 'Awaiting', { [seen]: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.json().message).toContain(`order ${unseen} was not sent`);
    expect(await order(seen)).toMatchObject({ process_status: 'Pending', version: 1 });
    expect(await order(unseen)).toMatchObject({ process_status: 'Pending', version: 1 });
    expect(await auditFor(seen)).toEqual([]);
  });

  it('Assign to me: a stale version is skipped and untouched, a current one is claimed', async () => {
    const stale = await insertOrder(t.database.db);
    const current = await insertOrder(t.database.db);
    // Someone claimed and released it meanwhile: back in New, but version 3.
    expectBulk(await assign(other, [stale], other.name), [stale], []);
    expectBulk(await moveToNew(other, [stale]), [stale], []);

    const res = await assign(team, [stale, current], team.name, { [stale]: 1, [current]: 1 });
    expectBulk(res, [current], [{ orderId: stale, code: 'STALE_VERSION' }]);
    expect(await order(stale)).toMatchObject({ process_status: 'New', assign_to: null, version: 3 });
    expect(await order(current)).toMatchObject({ process_status: 'Pending', assign_to: team.id, version: 2 });
  });
});

// ---- 6. search beyond the count cap stays inside its queue ----------------------------------------------
// Last in the file: it adds 1,250 orders that no other rule should have to page around.

describe('search with more than 1,000 matches', () => {
  const TERM = 'Capsearchzz';
  const MATCHING = 1_100;
  /** Matching decoys that must never show in the New queue: unpaid copies of New orders and paid orders of other queues. */
  const DECOYS: Partial<NewOrder>[] = [
    { payment_status: 'Pending' },
    { payment_status: 'Failed' },
    { process_status: 'Completed' },
    { process_status: 'Pending' }, // assign_to set below
    { processing_type: 'Priority' },
    { processing_type: 'Future', processing_date: daysFromToday(30) },
    { process_status: 'Deleted' },
    { process_status: 'Awaiting' },
    { process_status: 'Refunds', refund_date: new Date('2026-02-01T00:00:00Z') },
    { process_status: 'ChargeBack' },
  ];
  type Seeded = { orderId: string; createdAt: number; paid: boolean; status: string; type: string };
  const seeded: Seeded[] = [];

  beforeAll(async () => {
    const base = Date.UTC(2025, 0, 1);
    const values: NewOrder[] = [];
    const add = (extra: Partial<NewOrder>) => {
      const position = values.length;
      const orderId = `ETA-8${String(position).padStart(8, '0')}`;
      const row: NewOrder = {
        order_id: orderId,
        email: `capsearchzz.${position}@mail.test`,
        landing_site: 'default',
        payment_status: 'Success',
        process_status: 'New',
        processing_type: 'Standard',
        passport_first_name: 'Ada',
        passport_surname: TERM,
        telephone_number: '5550100',
        country_code: '44',
        citizen_country: 'United Kingdom',
        created_at: new Date(base + position * 60_000),
        ...extra,
        ...(extra.process_status === 'Pending' ? { assign_to: team.id } : {}),
      };
      values.push(row);
      seeded.push({
        orderId,
        createdAt: base + position * 60_000,
        paid: row.payment_status === 'Success',
        status: row.process_status!,
        type: row.processing_type!,
      });
    };
    // Decoys interleaved through the whole range (any page of a leaky query would show one) and a batch of
    // each kind newest of all (the first page would show them).
    for (let i = 0; i < MATCHING; i += 1) {
      add({});
      if (i % 8 === 3) add(DECOYS[Math.floor(i / 8) % DECOYS.length]!);
    }
    for (let round = 0; round < 3; round += 1) for (const decoy of DECOYS) add(decoy);
    await t.database.db.insertInto('orders').values(values).execute();
  });

  /** What a queue must answer for TERM, newest first (created_at is unique here, so the order is total). */
  const expectedFor = (pick: (s: Seeded) => boolean) =>
    seeded
      .filter((s) => s.paid && pick(s))
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((s) => s.orderId);
  const inNewQueue = (s: Seeded) => s.status === 'New' && s.type === 'Standard';

  /**
   * What a search of a term with more matches than the cap says for rows start..end: it reads as far as the page's
   * end and one more (total is that lower bound), and shows the first 1,000 matches at most (issue 31).
   */
  const cappedTotal = (end: number) => Math.min(end + 1, 1_000);
  const shown = (expected: string[], start: number, end: number) => expected.slice(start, Math.min(end, 1_000));

  // Kills: a capped search whose page query loses the queue filter or the payment filter, a wrong offset, a page
  // past the first 1,000 matches, and totalCapped/total misreported.
  it.each([
    [0, 100],
    [500, 600],
    [950, 1_050],
    [1_050, 1_150],
  ])(
    'newOrder rows %i..%i: capped total, only paid New Standard unassigned orders, newest first',
    async (start, end) => {
      const expected = expectedFor(inNewQueue);
      expect(expected).toHaveLength(MATCHING);
      const data = await search('newOrder', TERM.toLowerCase(), start, end);
      expect(data).toMatchObject({ total: cappedTotal(end), totalCapped: true });
      expect(data.rows.map((r) => r.order_id)).toEqual(shown(expected, start, end));
      expect(data.rows.length).toBe(Math.max(0, Math.min(end, 1_000) - start));
      for (const r of data.rows)
        expect(r).toMatchObject({ process_status: 'New', processing_type: 'Standard', assign_to: '' });
      // And straight from the database: every row shown is paid.
      if (data.rows.length === 0) return;
      const payments = await t.database.db
        .selectFrom('orders')
        .select('payment_status')
        .distinct()
        .where(
          'order_id',
          'in',
          data.rows.map((r) => r.order_id),
        )
        .execute();
      expect(payments).toEqual([{ payment_status: 'Success' }]);
    },
  );

  // Order History is the widest queue: every paid order but Deleted. Capped the same way.
  it.each([
    [0, 200],
    [900, 1_100],
    [1_100, 1_300],
  ])('orderHistory rows %i..%i: capped, paid and not Deleted only', async (start, end) => {
    const expected = expectedFor((s) => s.status !== 'Deleted');
    const data = await search('orderHistory', TERM, start, end, admin);
    expect(data).toMatchObject({ total: cappedTotal(end), totalCapped: true });
    expect(data.rows.map((r) => r.order_id)).toEqual(shown(expected, start, end));
  });

  // Below the cap the trigram index has every match: the same term in a small queue is exact and uncapped.
  it('the same term in a small queue is counted exactly and holds only that queue', async () => {
    const expected = expectedFor((s) => s.status === 'Completed');
    const data = await search('completedOrder', TERM, 0, 500);
    expect(data.total).toBe(expected.length);
    expect(data.totalCapped).not.toBe(true);
    expect(data.rows.map((r) => r.order_id)).toEqual(expected);
  });
});
