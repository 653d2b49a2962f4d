// Assign to me, Move to New orders, Delete, Refunded it: what changes, who may, and what is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
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

const put = (url: string, who: Person, payload: object) => putWithVersions(t, url, who.token, payload);
const order = (id: string) =>
  t.database.db.selectFrom('orders').selectAll().where('order_id', '=', id).executeTakeFirstOrThrow();
const auditFor = (id: string) =>
  t.database.db
    .selectFrom('audit_log')
    .innerJoin('orders', 'orders.id', 'audit_log.order_id')
    .select(['audit_log.action', 'audit_log.actor_id', 'audit_log.before', 'audit_log.after'])
    .where('orders.order_id', '=', id)
    .execute();
const counts = async (who: Person) =>
  (await t.app.inject({ url: '/api/admin/get-folder-count', headers: { authorization: who.token } })).json().data;

describe('Assign to me', () => {
  it('claims New orders: Pending, assigned with a date, audited, counts move', async () => {
    const a = await insertOrder(t.database.db);
    const b = await insertOrder(t.database.db, { processing_type: 'Priority' });
    const before = await counts(team);
    const res = await put('/api/admin/assign-order-status', team, {
      orderId: [a, b.toLowerCase()],
      assignto: 'Tara Team',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 1,
      message: 'Order has been assigned successfully',
      data: { updated: [a, b], skipped: [] },
    });
    const row = await order(a);
    expect(row).toMatchObject({ process_status: 'Pending', assign_to: team.id, version: 2 });
    expect(row.assign_date).toBeInstanceOf(Date);
    const after = await counts(team);
    expect(after.myOrdersCount).toBe(before.myOrdersCount + 2);
    expect(after.newOrdersCount).toBe(before.newOrdersCount - 1);
    expect(after.priorityOrdersCount).toBe(before.priorityOrdersCount - 1);
    expect(after.pendingOrdersCount).toBe(before.pendingOrdersCount + 2);
    expect(await auditFor(a)).toEqual([
      expect.objectContaining({
        action: 'order.assign',
        actor_id: team.id,
        before: expect.objectContaining({ process_status: 'New' }),
        after: expect.objectContaining({ process_status: 'Pending' }),
      }),
    ]);
  });

  it('reports an order someone else claimed meanwhile instead of taking it, and changes the rest', async () => {
    const mine = await insertOrder(t.database.db);
    const taken = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: other.id });
    const res = await put('/api/admin/assign-order-status', team, { orderId: [mine, taken], assignto: 'Tara Team' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      updated: [mine],
      skipped: [{ orderId: taken, code: 'ORDER_HELD', reason: 'is held by Omar Other' }],
    });
    expect((await order(taken)).assign_to).toBe(other.id);
  });

  it('answers 409 and changes nothing when every order moved on meanwhile', async () => {
    const gone = await insertOrder(t.database.db, { process_status: 'Completed' });
    const res = await put('/api/admin/assign-order-status', team, { orderId: [gone], assignto: 'Tara Team' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 0, message: expect.stringContaining(gone) });
    expect(await order(gone)).toMatchObject({ process_status: 'Completed', assign_to: null, version: 1 });
    expect(await auditFor(gone)).toEqual([]);
  });

  it('refuses a stale version', async () => {
    const id = await insertOrder(t.database.db);
    const res = await put('/api/admin/assign-order-status', team, {
      orderId: [id],
      assignto: 'Tara Team',
      versions: { [id]: 7 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/changed by someone else/);
    expect((await order(id)).process_status).toBe('New');
  });

  it('two Managers claiming the same order at the same moment: one gets it, the other is told, nothing is lost', async () => {
    const id = await insertOrder(t.database.db);
    const second = await t.signIn('Manager', 'Max Manager');
    const [a, b] = await Promise.all([
      put('/api/admin/assign-order-status', manager, {
        orderId: [id],
        assignto: 'Mona Manager',
        versions: { [id]: 1 },
      }),
      put('/api/admin/assign-order-status', second, { orderId: [id], assignto: 'Max Manager', versions: { [id]: 1 } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json()).toMatchObject({
      code: 'STALE_VERSION',
      data: { updated: [], skipped: [{ orderId: id, code: 'STALE_VERSION' }] },
    });
    const winner = a.statusCode === 200 ? manager : second;
    expect(await order(id)).toMatchObject({ assign_to: winner.id, version: 2 });
    expect(await auditFor(id)).toHaveLength(1);
  });

  it('leaves a Future order that is not due yet in the Future queue', async () => {
    const due = daysFromToday(30);
    const id = await insertOrder(t.database.db, { processing_type: 'Future', processing_date: due });
    const res = await put('/api/admin/assign-order-status', team, { orderId: [id], assignto: 'Tara Team' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'WRONG_STATUS',
      message: expect.stringContaining(`not due before ${due}`),
    });
    expect(await order(id)).toMatchObject({ process_status: 'New', assign_to: null, version: 1 });
  });

  it('refuses unpaid and unknown orders', async () => {
    const unpaid = await insertOrder(t.database.db, { payment_status: 'Pending' });
    const res = await put('/api/admin/assign-order-status', team, {
      orderId: [unpaid, 'ETA-999999999'],
      assignto: 'Tara Team',
    });
    expect(res.statusCode).toBe(409);
    expect((await order(unpaid)).process_status).toBe('New');
  });

  it('lets only a Manager or Admin assign to someone else', async () => {
    const id = await insertOrder(t.database.db);
    const denied = await put('/api/admin/assign-order-status', team, { orderId: [id], assignto: 'Omar Other' });
    expect(denied.statusCode).toBe(403);
    const ok = await put('/api/admin/assign-order-status', manager, { orderId: [id], assignto: 'Omar Other' });
    expect(ok.statusCode).toBe(200);
    expect((await order(id)).assign_to).toBe(other.id);
  });
});

describe('Move to New orders', () => {
  it('returns my order to the New queue, unassigned', async () => {
    const id = await insertOrder(t.database.db, {
      process_status: 'Pending',
      assign_to: team.id,
      assign_date: new Date(),
    });
    const res = await put('/api/admin/assign-order-status', team, { orderId: [id], assignto: '' });
    expect(res.statusCode).toBe(200);
    expect(await order(id)).toMatchObject({ process_status: 'New', assign_to: null, assign_date: null });
  });

  it("does not let a Team member release someone else's order", async () => {
    const id = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: other.id });
    const res = await put('/api/admin/assign-order-status', team, { orderId: [id], assignto: '' });
    expect(res.statusCode).toBe(409);
    expect((await order(id)).assign_to).toBe(other.id);
  });
});

describe('Delete (soft)', () => {
  it('is refused to Team, Telecaller and Night Staff', async () => {
    const id = await insertOrder(t.database.db);
    for (const type of ['Team', 'Telecaller', 'Night Staff'] as const) {
      const who = await t.signIn(type);
      const res = await put('/api/admin/change-order-status', who, {
        orderId: [id],
        updatingStatus: 'Deleted',
        permanentDeletedFlag: false,
      });
      expect(res.statusCode, type).toBe(403);
    }
    expect((await order(id)).process_status).toBe('New');
  });

  it('a Manager deletes: status Deleted, row kept, in Deleted Orders, audited', async () => {
    const id = await insertOrder(t.database.db);
    const before = await counts(manager);
    const res = await put('/api/admin/change-order-status', manager, {
      orderId: [id],
      updatingStatus: 'Deleted',
      permanentDeletedFlag: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Order has been deleted successfully');
    expect((await order(id)).process_status).toBe('Deleted');
    const after = await counts(manager);
    expect(after.deletedOrdersCount).toBe(before.deletedOrdersCount + 1);
    expect(after.allOrdersCount).toBe(before.allOrdersCount - 1);
    expect((await auditFor(id)).map((a) => a.action)).toEqual(['order.delete']);
  });

  it('never deletes permanently', async () => {
    const id = await insertOrder(t.database.db);
    const res = await put('/api/admin/change-order-status', admin, {
      orderId: [id],
      updatingStatus: 'Deleted',
      permanentDeletedFlag: true,
    });
    expect(res.statusCode).toBe(400);
    expect((await order(id)).process_status).toBe('New');
  });

  it('only an Admin restores a deleted order to New', async () => {
    const id = await insertOrder(t.database.db, { process_status: 'Deleted' });
    expect(
      (await put('/api/admin/change-order-status', manager, { orderId: [id], updatingStatus: 'New' })).statusCode,
    ).toBe(403);
    expect(
      (await put('/api/admin/change-order-status', admin, { orderId: [id], updatingStatus: 'New' })).statusCode,
    ).toBe(200);
    expect((await order(id)).process_status).toBe('New');
  });

  it('refuses statuses that have their own flow', async () => {
    const id = await insertOrder(t.database.db);
    for (const updatingStatus of ['Pending', 'Refund Completed', 'Nonsense']) {
      const res = await put('/api/admin/change-order-status', admin, { orderId: [id], updatingStatus });
      expect(res.statusCode, updatingStatus).toBe(400);
    }
  });
});

describe('Refunded it', () => {
  it('moves Refunds orders to Refund Completed with a refund date and skips others', async () => {
    const refund = await insertOrder(t.database.db, { process_status: 'Refunds', refund_date: new Date('2026-01-01') });
    const completed = await insertOrder(t.database.db, { process_status: 'Completed' });
    const res = await put('/api/admin/move-to-complete-refund', team, { orderId: [refund, completed] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      updated: [refund],
      skipped: [{ orderId: completed, code: 'WRONG_STATUS', reason: 'is Completed, not in Refunds' }],
    });
    const row = await order(refund);
    expect(row.process_status).toBe('Refund Completed');
    expect(row.refund_date!.getTime()).toBeGreaterThan(new Date('2026-01-02').getTime());
  });
});

describe('bad input', () => {
  it.each([
    ['/api/admin/assign-order-status', { orderId: [], assignto: 'x' }],
    ['/api/admin/assign-order-status', { orderId: 'ETA-1', assignto: 'x' }],
    ['/api/admin/change-order-status', { orderId: ['ETA-1'] }],
    ['/api/admin/move-to-complete-refund', { orderId: [''] }],
  ])('%s %j → 400', async (url, payload) => {
    const res = await put(url, admin, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 0, message: expect.any(String) });
  });
});
