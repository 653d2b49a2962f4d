// Manage Team (spec §2, §3, §5, §7; issue 10): every call, each role's refusals, e-mails unique in any case,
// passwords never returned, the self-delete and last-Admin rules (also under two deletes at once), a Manager
// touching an Admin, and a deletion or role change counting on the member's very next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_MESSAGES, TEAM_PASSWORD_MASK, type StaffType, type TeamMember } from '@eta/contracts';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { insertStaff } from '../src/modules/staff/staff.repository.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let manager: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  t = await buildTestApp({ loginLimitPerIp: 100_000 });
  admin = await t.signIn('Admin', 'Alice Admin');
  manager = await t.signIn('Manager', 'Mona Manager');
});
afterAll(() => t.close());

type Caller = { token: string };
const call = (app: TestApp, who: Caller | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  app.app.inject({
    method,
    url,
    headers: who ? { authorization: who.token } : {},
    ...(payload ? { payload } : {}),
  });
const add = (who: Caller, body: object, app = t) => call(app, who, 'POST', '/api/admin/add-team-member', body);
const update = (who: Caller, body: object, app = t) => call(app, who, 'POST', '/api/admin/update-team-member', body);
const remove = (who: Caller, id: number, app = t) =>
  call(app, who, 'PUT', '/api/admin/delete-team-member', { teamMemberId: id });
const login = (email: string, password: string, app = t) =>
  app.app.inject({ method: 'POST', url: '/api/admin/admin-login', payload: { email, password } });
const userInfo = (token: string, app = t) =>
  app.app.inject({ method: 'GET', url: '/api/user_info', headers: { authorization: token } });

let serial = 0;
const newMember = (overrides: object = {}) => {
  serial += 1;
  return {
    name: `Member ${serial}`,
    email: `member${serial}@team.test`,
    password: 'secret-1',
    type: 'Team',
    ...overrides,
  };
};
async function added(who: Caller, overrides: object = {}): Promise<TeamMember & { password_plain: string }> {
  const body = newMember(overrides);
  const res = await add(who, body);
  expect(res.statusCode, res.body).toBe(200);
  return { ...res.json<{ data: TeamMember }>().data, password_plain: body.password };
}
async function signInAs(email: string, password: string, app = t): Promise<string> {
  const res = await login(email, password, app);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ jwtToken: string }>().jwtToken;
}

describe('add-team-member', () => {
  it('adds a member who can sign in; the answer and every later read show the fixed mask, never a hash', async () => {
    const res = await add(admin, {
      name: '  Nadia Night  ',
      email: ' Nadia@Night.test ',
      password: 'night-pass',
      type: 'Night Staff',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ status: number; message: string; data: TeamMember }>();
    expect(body).toMatchObject({
      status: 1,
      message: 'Team member added successfully.',
      data: {
        name: 'Nadia Night',
        email: 'Nadia@Night.test',
        password: TEAM_PASSWORD_MASK,
        type: 'Night Staff',
        memberRole: 'Night Staff',
      },
    });
    const token = await signInAs('nadia@night.test', 'night-pass');
    expect((await userInfo(token)).json()).toMatchObject({ data: { name: 'Nadia Night', type: 'Night Staff' } });

    const stored = await t.database.db
      .selectFrom('staff')
      .select('password_hash')
      .where('id', '=', body.data.id)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    const info = await call(t, admin, 'GET', `/api/admin/team-member-info/${body.data.id}`);
    const list = await call(t, admin, 'GET', '/api/admin/get-team-member-list?limit=500');
    for (const text of [res.body, info.body, list.body]) {
      expect(text).not.toContain('argon2');
      expect(text).not.toContain('night-pass');
    }
    expect(info.json<{ data: TeamMember }>().data.password).toBe(TEAM_PASSWORD_MASK);
  });

  it('names every missing field at once in the spec words, and an invalid e-mail clearly', async () => {
    const res = await add(admin, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 0,
      code: 'VALIDATION_FAILED',
      message: TEAM_MESSAGES.name,
      errors: {
        name: 'Please enter your name.',
        email: 'Please enter your email.',
        password: 'Please enter your password.',
        type: 'Please select type.',
      },
    });
    const blank = await add(admin, { name: '   ', email: 'not-an-email', password: 'abc', type: 'Boss' });
    expect(blank.json()).toMatchObject({
      errors: {
        name: TEAM_MESSAGES.name,
        email: 'Please enter a valid email address.',
        password: 'Password must be at least 6 characters.',
        type: TEAM_MESSAGES.type,
      },
    });
  });

  it('refuses an e-mail already used, whatever its case, and writes nothing', async () => {
    const first = await added(admin, { email: 'Dup.Case@Team.test' });
    const before = await t.database.db
      .selectFrom('staff')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await add(admin, newMember({ email: 'dup.case@TEAM.TEST' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'EMAIL_TAKEN',
      errors: { email: 'A team member with this email already exists.' },
    });
    const after = await t.database.db
      .selectFrom('staff')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // The same on an edit: another member cannot take that address either.
    const other = await added(admin);
    const edit = await update(admin, {
      tmId: other.id,
      name: other.name,
      email: first.email.toUpperCase(),
      password: '',
      type: 'Team',
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
  });

  it('two adds of one e-mail at the same moment leave exactly one account', async () => {
    const [a, b] = await Promise.all([
      add(admin, newMember({ email: 'race@team.test' })),
      add(admin, newMember({ email: 'RACE@team.test' })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const rows = await t.database.db
      .selectFrom('staff')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', 'race@team.test'))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('a Manager adds Team, Telecaller and Night Staff, never a Manager or an Admin', async () => {
    for (const type of ['Team', 'Telecaller', 'Night Staff']) {
      expect((await add(manager, newMember({ type }))).statusCode).toBe(200);
    }
    const res = await add(manager, newMember({ type: 'Admin' }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Only an Admin may create an Admin.' });
    const peer = await add(manager, newMember({ type: 'Manager' }));
    expect(peer.statusCode).toBe(403);
    expect(peer.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Only an Admin may create a Manager.' });
  });

  it('the member types, and which the caller may give', async () => {
    const asAdmin = await call(t, admin, 'GET', '/api/admin/get-team-member-type');
    expect(asAdmin.json<{ data: unknown[] }>().data).toEqual(
      ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'].map((type) => ({ type, assignable: true })),
    );
    const asManager = await call(t, manager, 'GET', '/api/admin/get-team-member-type');
    expect(
      asManager.json<{ data: { type: string; assignable: boolean }[] }>().data.filter((x) => !x.assignable),
    ).toEqual([
      { type: 'Admin', assignable: false },
      { type: 'Manager', assignable: false },
    ]);
  });
});

describe('get-team-member-list and team-member-info', () => {
  it('pages, searches by name or e-mail in any case, and leaves deleted members out', async () => {
    const a = await added(admin, { name: 'Zed Searchable One', email: 'zed1@find.test' });
    const b = await added(admin, { name: 'Zed Searchable Two', email: 'zed2@find.test' });
    const gone = await added(admin, { name: 'Zed Searchable Gone', email: 'zed3@find.test' });
    expect((await remove(admin, gone.id)).statusCode).toBe(200);
    const page1 = await call(t, admin, 'GET', '/api/admin/get-team-member-list?search=zED%20searchable&limit=1&page=1');
    const page2 = await call(t, admin, 'GET', '/api/admin/get-team-member-list?search=zED%20searchable&limit=1&page=2');
    expect(page1.json()).toMatchObject({ status: 1, data: { total: 2, page: 1, limit: 1, rows: [{ id: a.id }] } });
    expect(page2.json()).toMatchObject({ data: { total: 2, rows: [{ id: b.id }] } });
    const byEmail = await call(t, admin, 'GET', '/api/admin/get-team-member-list?search=ZED2%40FIND');
    expect(byEmail.json<{ data: { rows: TeamMember[] } }>().data.rows.map((r) => r.id)).toEqual([b.id]);
    const none = await call(t, admin, 'GET', '/api/admin/get-team-member-list?search=nobody-like-this');
    expect(none.json()).toMatchObject({ data: { total: 0, rows: [] } });
    expect((await call(t, admin, 'GET', `/api/admin/team-member-info/${gone.id}`)).statusCode).toBe(404);
    expect((await call(t, admin, 'GET', '/api/admin/team-member-info/987654')).statusCode).toBe(404);
  });
});

describe('update-team-member', () => {
  it('an empty password keeps the current one and the member stays signed in', async () => {
    const m = await added(admin);
    const token = await signInAs(m.email, m.password_plain);
    const res = await update(admin, { tmId: m.id, name: 'Renamed Member', email: m.email, password: '', type: 'Team' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Team member updated successfully.',
      data: { name: 'Renamed Member', password: TEAM_PASSWORD_MASK },
    });
    expect((await login(m.email, m.password_plain)).statusCode).toBe(200);
    expect((await userInfo(token)).json()).toMatchObject({ data: { name: 'Renamed Member' } });
  });

  it('a new password replaces the old one and ends the member’s sessions', async () => {
    const m = await added(admin);
    const token = await signInAs(m.email, m.password_plain);
    expect(
      (await update(admin, { tmId: m.id, name: m.name, email: m.email, password: 'brand-new-pw', type: 'Team' }))
        .statusCode,
    ).toBe(200);
    expect((await userInfo(token)).json()).toMatchObject({ status: 401, code: 'SESSION_EXPIRED' });
    expect((await login(m.email, m.password_plain)).statusCode).toBe(401);
    expect((await login(m.email, 'brand-new-pw')).statusCode).toBe(200);
  });

  it('a role change counts on the member’s very next request, both ways', async () => {
    const m = await added(admin, { type: 'Team' });
    const token = await signInAs(m.email, m.password_plain);
    const teamList = () =>
      t.app.inject({ method: 'GET', url: '/api/admin/get-team-member-list', headers: { authorization: token } });
    expect((await teamList()).statusCode).toBe(403);
    expect((await update(admin, { tmId: m.id, name: m.name, email: m.email, type: 'Manager' })).statusCode).toBe(200);
    expect((await teamList()).statusCode).toBe(200);
    expect((await update(admin, { tmId: m.id, name: m.name, email: m.email, type: 'Telecaller' })).statusCode).toBe(
      200,
    );
    expect((await teamList()).statusCode).toBe(403);
  });

  it('a Manager cannot edit an Admin nor make anyone an Admin; an Admin can', async () => {
    const other = await added(admin, { type: 'Admin' });
    const edit = await update(manager, { tmId: other.id, name: 'Hijacked', email: other.email, type: 'Admin' });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Only an Admin may edit an Admin.' });
    const team = await added(manager);
    const promote = await update(manager, { tmId: team.id, name: team.name, email: team.email, type: 'Admin' });
    expect(promote.statusCode).toBe(403);
    expect(promote.json()).toMatchObject({ message: 'Only an Admin may make someone an Admin.' });
    const unchanged = await call(t, admin, 'GET', `/api/admin/team-member-info/${team.id}`);
    expect(unchanged.json()).toMatchObject({ data: { type: 'Team' } });
    expect((await update(admin, { tmId: team.id, name: team.name, email: team.email, type: 'Admin' })).statusCode).toBe(
      200,
    );
  });

  it('is audited with before and after, never the password', async () => {
    const m = await added(admin);
    await update(admin, {
      tmId: m.id,
      name: 'Audited Name',
      email: m.email,
      password: 'audit-secret',
      type: 'Telecaller',
    });
    const rows = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'before', 'after'])
      .where('target', '=', `staff:${m.id}`)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { action: 'team.add', actor_id: admin.id, before: null, after: { name: m.name, email: m.email, type: 'Team' } },
      {
        action: 'team.update',
        actor_id: admin.id,
        before: { name: m.name, email: m.email, type: 'Team' },
        after: { name: 'Audited Name', email: m.email, type: 'Telecaller', passwordChanged: true },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain('audit-secret');
  });
});

describe('delete-team-member', () => {
  it('deactivates: signed out at once, cannot sign in, name kept on remarks and the audit trail, e-mail not freed', async () => {
    const m = await added(admin, { name: 'Leaving Larry' });
    const token = await signInAs(m.email, m.password_plain);
    const orderId = await insertOrder(t.database.db);
    const remark = await t.app.inject({
      method: 'POST',
      url: '/api/admin/add-new-remark',
      headers: { authorization: token },
      payload: { orderId, remark: 'Called the customer.' },
    });
    expect(remark.statusCode).toBe(200);

    const res = await remove(manager, m.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1, message: 'Team member deleted successfully.' });
    expect((await userInfo(token)).json()).toMatchObject({ status: 401, code: 'SESSION_EXPIRED' });
    expect((await login(m.email, m.password_plain)).statusCode).toBe(401);

    const detail = await call(t, admin, 'GET', `/api/admin/get-orders-details/${orderId}`);
    expect(detail.body).toContain('Leaving Larry');
    const row = await t.database.db
      .selectFrom('staff')
      .select(['name', 'active'])
      .where('id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Leaving Larry', active: false });
    const again = await add(admin, newMember({ email: m.email.toUpperCase() }));
    expect(again.json()).toMatchObject({
      code: 'EMAIL_TAKEN',
      message: 'This email belongs to a deleted team member; please use another email.',
    });
    expect((await remove(admin, m.id)).statusCode).toBe(404);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('target', '=', `staff:${m.id}`)
      .where('action', '=', 'team.delete')
      .execute();
    expect(audit).toEqual([{ action: 'team.delete', actor_id: manager.id }]);
  });

  it('nobody deletes themself', async () => {
    const res = await remove(manager, manager.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'SELF_DELETE', message: 'You cannot delete your own account.' });
    expect((await userInfo(manager.token)).statusCode).toBe(200);
  });

  it('a Manager cannot delete an Admin', async () => {
    const other = await added(admin, { type: 'Admin' });
    const res = await remove(manager, other.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Only an Admin may delete an Admin.' });
    expect((await call(t, admin, 'GET', `/api/admin/team-member-info/${other.id}`)).statusCode).toBe(200);
  });
});

describe('the last active Admin', () => {
  let solo: TestApp;
  beforeAll(async () => {
    solo = await buildTestApp({ loginLimitPerIp: 100_000 });
  });
  afterAll(() => solo.close());

  it('cannot be given another type', async () => {
    const only = await solo.signIn('Admin', 'Only Admin');
    const res = await update(only, { tmId: only.id, name: 'Only Admin', email: only.email, type: 'Manager' }, solo);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'LAST_ADMIN',
      message: 'The last active Admin cannot be deleted or given another type.',
    });
    // Nor delete themself (nobody does).
    const gone = await remove(only, only.id, solo);
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ code: 'SELF_DELETE', message: 'You cannot delete your own account.' });
    // Renaming themself is fine.
    expect(
      (await update(only, { tmId: only.id, name: 'Only Admin Renamed', email: only.email, type: 'Admin' }, solo))
        .statusCode,
    ).toBe(200);
  });

  it('two Admins deleting each other at the same moment leave exactly one active Admin', async () => {
    const activeAdmins = () =>
      solo.database.db
        .selectFrom('staff')
        .select('id')
        .where('type', '=', 'Admin')
        .where('active', '=', true)
        .execute();
    for (const existing of await activeAdmins()) {
      await solo.database.db.updateTable('staff').set({ active: false }).where('id', '=', existing.id).execute();
      await solo.app.services.auth.forgetStaff(existing.id);
    }
    const a = await solo.signIn('Admin', 'Admin A');
    const b = await solo.signIn('Admin', 'Admin B');
    const [ra, rb] = await Promise.all([remove(a, b.id, solo), remove(b, a.id, solo)]);
    const codes = [ra, rb].map((r) => r.json<{ code?: string }>().code ?? 'OK');
    // One wins; the other finds itself the last Admin, or already signed out by the winner.
    expect(codes.filter((c) => c === 'OK')).toHaveLength(1);
    expect(codes.find((c) => c !== 'OK')).toMatch(/^(LAST_ADMIN|SESSION_EXPIRED)$/);
    expect(await activeAdmins()).toHaveLength(1);
  });
});

describe('who may act on whom (issue 22): every role × every target type × every change', () => {
  const TYPES: StaffType[] = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'];
  const ACTIONS = ['create', 'edit', 'password', 'delete', 'give type'] as const;
  type Action = (typeof ACTIONS)[number];
  /** What the table of issue 22 says: Admin acts on everyone; a Manager only on Team, Telecaller, Night Staff. */
  const expected = (actor: StaffType, target: StaffType): { status: number; message?: string } => {
    if (actor !== 'Admin' && actor !== 'Manager') {
      return { status: 403, message: `Your role (${actor}) does not allow this action.` };
    }
    if (actor === 'Admin' || !['Admin', 'Manager'].includes(target)) return { status: 200 };
    return { status: 403 };
  };
  const refusal: Record<Action, (target: StaffType) => string> = {
    create: (type) => `Only an Admin may create ${type === 'Admin' ? 'an' : 'a'} ${type}.`,
    edit: (type) => `Only an Admin may edit ${type === 'Admin' ? 'an' : 'a'} ${type}.`,
    password: (type) => `Only an Admin may edit ${type === 'Admin' ? 'an' : 'a'} ${type}.`,
    delete: (type) => `Only an Admin may delete ${type === 'Admin' ? 'an' : 'a'} ${type}.`,
    'give type': (type) => `Only an Admin may make someone ${type === 'Admin' ? 'an' : 'a'} ${type}.`,
  };

  let hash: string;
  let serialM = 0;
  /** A member straight into the table (no Admin needed to make it), so each cell starts from the same row. */
  const member = async (type: StaffType) => {
    serialM += 1;
    return insertStaff(t.database.db, {
      name: `Matrix ${serialM}`,
      email: `matrix${serialM}@team.test`,
      passwordHash: hash,
      type,
    });
  };
  beforeAll(async () => {
    hash = await hashPassword('matrix-pass');
  });

  const attempt = async (who: Caller, action: Action, target: StaffType) => {
    if (action === 'create') return add(who, newMember({ type: target }));
    if (action === 'give type') {
      const m = await member('Team');
      return update(who, { tmId: m.id, name: m.name, email: m.email, password: '', type: target });
    }
    const m = await member(target);
    if (action === 'delete') return remove(who, m.id);
    return update(who, {
      tmId: m.id,
      name: `${m.name} edited`,
      email: m.email,
      password: action === 'password' ? 'taken-over-1' : '',
      type: target,
    });
  };

  it.each(TYPES)('as %s', async (actorType) => {
    const actor = await t.signIn(actorType);
    const outcomes: string[] = [];
    const wanted: string[] = [];
    for (const target of TYPES) {
      for (const action of ACTIONS) {
        const res = await attempt(actor, action, target);
        const body = res.json<{ message: string }>();
        const want = expected(actorType, target);
        outcomes.push(`${action} ${target}: ${res.statusCode} ${res.statusCode === 200 ? '' : body.message}`);
        const message = want.status === 200 ? '' : (want.message ?? refusal[action](target));
        wanted.push(`${action} ${target}: ${want.status} ${message}`);
      }
    }
    expect(outcomes).toEqual(wanted);
  });

  it('a refused password change leaves the password and the member’s sessions as they were', async () => {
    const peer = await member('Manager');
    const token = await signInAs(peer.email, 'matrix-pass');
    const res = await update(manager, {
      tmId: peer.id,
      name: peer.name,
      email: peer.email,
      password: 'taken-over-1',
      type: 'Manager',
    });
    expect(res.statusCode).toBe(403);
    expect((await userInfo(token)).statusCode).toBe(200);
    expect((await login(peer.email, 'matrix-pass')).statusCode).toBe(200);
    expect((await login(peer.email, 'taken-over-1')).statusCode).toBe(401);
  });

  it('a Manager cannot edit their own row either (Change Password is theirs); an Admin can', async () => {
    const self = await t.signIn('Manager', 'Self Manager');
    const res = await update(self, { tmId: self.id, name: 'Self Manager', email: self.email, type: 'Manager' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Only an Admin may edit a Manager.' });
    const adminSelf = await t.signIn('Admin', 'Self Admin');
    const renamed = await update(adminSelf, {
      tmId: adminSelf.id,
      name: 'Self Admin Renamed',
      email: adminSelf.email,
      type: 'Admin',
    });
    expect(renamed.statusCode).toBe(200);
  });
});
