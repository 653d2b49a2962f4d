import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

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

  it('locks an account after repeated failures, with a clear 429, while other accounts still work', async () => {
    const victim = await t.signIn('Team');
    const other = await t.signIn('Team');
    for (let i = 0; i < t.config.loginFailuresPerAccount; i += 1) {
      expect((await login(victim.email, `wrong-${i}`, `10.0.0.${i + 1}`)).statusCode).toBe(401);
    }
    const locked = await login(victim.email, TEST_PASSWORD, '10.0.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/too many failed sign-in attempts/i);
    expect((await login(other.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('limits sign-in attempts per IP', async () => {
    const strict = await buildTestApp({ loginLimitPerIp: 3 });
    try {
      const codes = [];
      for (let i = 0; i < 4; i += 1) {
        const res = await strict.app.inject({
          method: 'POST',
          url: '/api/admin/admin-login',
          payload: { email: `x${i}@test.local`, password: 'whatever' },
          remoteAddress: '192.0.2.7',
        });
        codes.push(res.statusCode);
        if (res.statusCode === 429) expect(res.json().message).toMatch(/too many sign-in attempts/i);
      }
      expect(codes).toEqual([401, 401, 401, 429]);
    } finally {
      await strict.close();
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

  it('writes an audit row for sign-in and password change', async () => {
    const me = await t.signIn('Manager');
    const rows = await t.database.db.selectFrom('audit_log').select(['action']).where('actor_id', '=', me.id).execute();
    expect(rows.map((r) => r.action)).toContain('staff.login');
  });
});

describe('health and unknown routes', () => {
  it('reports the database as reachable', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 1, data: { database: expect.stringMatching(/pglite|postgres/) } });
  });

  it('reports 503 when the database is gone', async () => {
    const other = await buildTestApp();
    await other.database.close();
    const res = await other.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 0, message: 'Database unreachable.' });
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
