import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, JWT_SECRET, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';
import { LocalEventBus } from '../src/modules/events/event-bus.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ loginLimitPerIp: 1000 });
});
afterAll(() => t.close());

const login = (email: string, password: string, ip?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/admin-login',
    payload: { email, password },
    ...(ip ? { remoteAddress: ip } : {}),
  });

describe('staff sign-in', () => {
  it('returns the spec envelope with jwtToken and the user, never a password or hash', async () => {
    const me = await t.signIn('Manager', 'Maria Lopez');
    const res = await login(me.email.toUpperCase(), TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 1, data: { name: 'Maria Lopez', type: 'Manager', email: me.email } });
    expect(body.jwtToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body).not.toMatch(/argon2|password/i);
    const claims = JSON.parse(Buffer.from(body.jwtToken.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ name: 'Maria Lopez', type: 'Manager' });
  });

  it('answers a wrong e-mail and a wrong password the same way', async () => {
    const me = await t.signIn('Team');
    const wrongPassword = await login(me.email, 'not-the-password');
    const wrongEmail = await login('nobody@test.local', 'not-the-password');
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(wrongEmail.json());
    expect(wrongEmail.json().message).toBe('Invalid email or password.');
  });

  it('rejects malformed bodies with 400 and a message, not a 5xx', async () => {
    for (const payload of [{}, { email: 'a@b.c' }, { email: 42, password: [] }, 'not json']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/admin-login', payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json()).toMatchObject({ status: 0, message: expect.any(String) });
    }
  });
});

describe('session', () => {
  it('accepts the token with or without "Bearer " and rejects a missing or forged one with 401', async () => {
    const me = await t.signIn('Telecaller', 'Tom Caller');
    for (const authorization of [me.token, `Bearer ${me.token}`]) {
      const res = await t.app.inject({ url: '/api/user_info', headers: { authorization } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ name: 'Tom Caller', type: 'Telecaller' });
    }
    const forged = me.token.slice(0, -4) + 'AAAA';
    for (const headers of [{}, { authorization: forged }, { authorization: 'Bearer' }]) {
      const res = await t.app.inject({ url: '/api/user_info', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().status).toBe(401);
    }
  });

  it('a password change ends every token issued before it; the new password works', async () => {
    const me = await t.signIn('Team');
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: me.token },
      payload: { newPassword: 'brand-new-pass' },
    });
    expect(change.statusCode).toBe(200);
    expect(change.json().status).toBe(1);
    const old = await t.app.inject({ url: '/api/user_info', headers: { authorization: me.token } });
    expect(old.statusCode).toBe(401);
    expect((await login(me.email, TEST_PASSWORD)).statusCode).toBe(401);
    const fresh = await login(me.email, 'brand-new-pass');
    expect(fresh.statusCode).toBe(200);
    const res = await t.app.inject({ url: '/api/user_info', headers: { authorization: fresh.json().jwtToken } });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a new password shorter than 6 characters and keeps the old one', async () => {
    const me = await t.signIn('Team');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: me.token },
      payload: { newPassword: '12345' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('New Password must be at least 6 characters.');
    expect((await login(me.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a new password of the wrong type instead of coercing it, and keeps the old one', async () => {
    const me = await t.signIn('Team');
    for (const newPassword of [123456, ['abcdefg'], null, { a: 'abcdefg' }, true]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/change-password',
        headers: { authorization: me.token },
        payload: { newPassword },
      });
      expect(res.statusCode, JSON.stringify(newPassword)).toBe(400);
      expect(res.json()).toMatchObject({ status: 0, code: 'VALIDATION_FAILED' });
    }
    expect((await login(me.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('writes an audit row for sign-in and password change', async () => {
    const me = await t.signIn('Manager');
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: me.token },
      payload: { newPassword: 'secret-new-one' },
    });
    const rows = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'before', 'after'])
      .where('actor_id', '=', me.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['staff.login', 'staff.change-password']);
    expect(rows[1]).toMatchObject({ target: `staff:${me.id}` });
    expect(JSON.stringify(rows)).not.toContain('secret-new-one');
  });

  it('logout ends that token on the server at once; another session of the same person goes on', async () => {
    const me = await t.signIn('Team');
    const second = (await login(me.email, TEST_PASSWORD)).json().jwtToken as string;
    const out = await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { authorization: me.token } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ status: 1 });
    const after = await t.app.inject({ url: '/api/user_info', headers: { authorization: me.token } });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ status: 401, code: 'SESSION_EXPIRED' });
    expect((await t.app.inject({ url: '/api/user_info', headers: { authorization: second } })).statusCode).toBe(200);
    const audit = await t.database.db.selectFrom('audit_log').select('action').where('actor_id', '=', me.id).execute();
    expect(audit.map((r) => r.action)).toContain('staff.logout');
  });

  it('a logout in one server process is honoured by another within a second', async () => {
    const me = await t.signIn('Team');
    const { buildApp } = await import('../src/app.js');
    // On PostgreSQL the other app listens on a connection of its own, as another server would; the embedded database
    // is one process's, so there the second app shares the first one's in-process events.
    const other = await buildApp({
      config: t.config,
      database: t.database,
      jwtSecret: JWT_SECRET,
      logger: false,
      ...(t.database.kind === 'pglite' ? { eventBus: t.app.eventBus } : {}),
    });
    try {
      const userInfo = () => other.inject({ url: '/api/user_info', headers: { authorization: me.token } });
      expect((await userInfo()).statusCode).toBe(200); // now in the other app's staff cache
      await t.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { authorization: me.token } });
      const loggedOutAt = Date.now();
      let status = (await userInfo()).statusCode;
      while (status === 200 && Date.now() - loggedOutAt < 1_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await userInfo()).statusCode;
      }
      expect(status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('health and unknown routes', () => {
  it('reports the database as reachable', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 1, data: { database: expect.stringMatching(/pglite|postgres/) } });
  });

  it('stays alive when the database is gone (liveness; /api/ready reports the database, readiness.test.ts)', async () => {
    // In-process events: a LISTEN connection would hold the database the test drops until it is forced out.
    const other = await buildTestApp({}, { eventBus: new LocalEventBus() });
    await other.database.close();
    const res = await other.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 1, message: 'OK' });
    await other.app.close();
  });

  it('answers an unknown API path with a 404 envelope', async () => {
    const res = await t.app.inject({ url: '/api/admin/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 0 });
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/admin/admin-login');
  });
});
