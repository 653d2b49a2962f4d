// Sign-in limits as an attacker and as the owner would meet them (OWASP Authentication Cheat Sheet):
// attempts are counted before the password is checked, one address cannot lock the owner out elsewhere,
// colleagues behind one address do not lock each other out, and every failure and lockout is audited.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NEW_ADDRESS_TRIES_DURING_LOCK } from '../src/modules/auth/login-throttle.js';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const login = (app: TestApp, email: string, password: string, ip: string, headers: Record<string, string> = {}) =>
  app.app.inject({
    method: 'POST',
    url: '/api/admin/admin-login',
    payload: { email, password },
    remoteAddress: ip,
    headers,
  });

const statuses = (responses: { statusCode: number }[]) =>
  responses.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }), {});

const securityEvents = (action: string) =>
  t.database.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();

describe('attempts are counted before the password is verified', () => {
  it('100 simultaneous wrong passwords from one address get exactly 5 verifications', async () => {
    const victim = await t.signIn('Team');
    const burst = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login(t, victim.email, `guess-${i}`, '203.0.113.9')),
    );
    expect(statuses(burst)).toEqual({
      401: t.config.loginFailuresPerAccount,
      429: 100 - t.config.loginFailuresPerAccount,
    });
    expect(await securityEvents('security.login-failed')).toHaveLength(t.config.loginFailuresPerAccount);
    const refused = burst.find((r) => r.statusCode === 429)!.json();
    expect(refused).toMatchObject({ status: 0, code: 'TOO_MANY_ATTEMPTS' });
    expect(refused.message).toMatch(/^Too many failed sign-in attempts for this account\. Please wait 15 minutes/);
  });

  it('100 simultaneous wrong passwords from 100 addresses get no more than the account-wide limit', async () => {
    const victim = await t.signIn('Team');
    const burst = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login(t, victim.email, `guess-${i}`, `198.51.100.${i + 1}`)),
    );
    // The account-wide limit, and the few tries a lock leaves to addresses new to the account.
    const verified = t.config.loginFailuresPerAccountHourly + NEW_ADDRESS_TRIES_DURING_LOCK;
    expect(statuses(burst)).toEqual({ 401: verified, 429: 100 - verified });
    // A distributed attack locks the account for a while (a growing delay), and that is audited once.
    const lockouts = await securityEvents('security.lockout');
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toMatchObject({ target: victim.email });
    const owner = await login(t, victim.email, TEST_PASSWORD, '192.0.2.200');
    expect(owner.statusCode).toBe(429);
    expect(owner.json().message).toMatch(/temporarily locked.*Please wait 1 minute and try again/);
  });
});

describe('an attacker at one address cannot lock the owner out at another', () => {
  it('the owner signs in from the office while the attacker is locked out at home', async () => {
    const owner = await t.signIn('Manager');
    for (let i = 0; i < 20; i += 1) await login(t, owner.email, `guess-${i}`, '203.0.113.66');
    expect((await login(t, owner.email, TEST_PASSWORD, '203.0.113.66')).statusCode).toBe(429);
    expect((await login(t, owner.email, TEST_PASSWORD, '192.0.2.10')).statusCode).toBe(200);
    // The 15 refused attempts were never verified, and the lockout of that one address is on record.
    expect(await securityEvents('security.login-failed')).toHaveLength(5);
    const [lockout] = await securityEvents('security.lockout');
    expect(lockout).toMatchObject({ target: owner.email, ip: '203.0.113.66' });
  });

  it('six addresses lock the account; the owner still signs in from the office, and that is on record', async () => {
    const owner = await t.signIn('Manager');
    expect((await login(t, owner.email, TEST_PASSWORD, '192.0.2.10')).statusCode).toBe(200); // the office
    const attackers = Array.from({ length: 6 }, (_, i) => `203.0.113.${i + 1}`);
    for (const address of attackers) for (let i = 0; i < 5; i += 1) await login(t, owner.email, `guess-${i}`, address);
    expect(await securityEvents('security.lockout')).not.toHaveLength(0);
    for (const address of attackers) {
      expect((await login(t, owner.email, TEST_PASSWORD, address)).statusCode).toBe(429);
    }
    expect((await login(t, owner.email, TEST_PASSWORD, '192.0.2.10')).statusCode).toBe(200);
    // An address that has never failed for the account gets its try too (a few such per lock).
    expect((await login(t, owner.email, TEST_PASSWORD, '192.0.2.77')).statusCode).toBe(200);
    const events = await securityEvents('security.login-during-lock');
    expect(events.map((e) => [e.target, e.ip])).toEqual([
      [owner.email, '192.0.2.10'],
      [owner.email, '192.0.2.77'],
    ]);
  });

  it('a correct sign-in starts the count for that address afresh', async () => {
    const me = await t.signIn('Team');
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < t.config.loginFailuresPerAccount - 1; i += 1) {
        expect((await login(t, me.email, 'typo', '192.0.2.1')).statusCode).toBe(401);
      }
      expect((await login(t, me.email, TEST_PASSWORD, '192.0.2.1')).statusCode).toBe(200);
    }
  });
});

describe('per address, failures count and successful sign-ins do not', () => {
  it('forty colleagues behind one office address all sign in, and a few typos lock nobody else out', async () => {
    const colleagues = [];
    for (let i = 0; i < 40; i += 1) colleagues.push(await t.signIn('Team'));
    for (const c of colleagues.slice(0, 10)) await login(t, c.email, 'typo', '192.0.2.50');
    // Attempts still in flight hold their place until answered, so these come one after the other, as
    // people arriving at the office do (a burst of more than the limit at once is refused by design).
    const results = [];
    for (const c of colleagues) results.push(await login(t, c.email, TEST_PASSWORD, '192.0.2.50'));
    expect(statuses(results)).toEqual({ 200: 40 });
  });

  it('an address with too many failures is refused, with a clear message, other addresses are not', async () => {
    const strict = await buildTestApp({ loginLimitPerIp: 3 });
    try {
      const me = await strict.signIn('Team');
      const codes = [];
      for (let i = 0; i < 4; i += 1)
        codes.push((await login(strict, `x${i}@test.local`, 'whatever', '192.0.2.7')).statusCode);
      expect(codes).toEqual([401, 401, 401, 429]);
      const refused = await login(strict, me.email, TEST_PASSWORD, '192.0.2.7');
      expect(refused.json().message).toMatch(
        /^Too many failed sign-in attempts from your network\. Please wait 5 minutes/,
      );
      expect((await login(strict, me.email, TEST_PASSWORD, '192.0.2.8')).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('client address behind a proxy', () => {
  it('with TRUST_PROXY the address comes from X-Forwarded-For; without it the header is ignored', async () => {
    const proxied = await buildTestApp({ trustProxy: true });
    try {
      const me = await proxied.signIn('Team');
      for (let i = 0; i < 5; i += 1) {
        await login(proxied, me.email, 'guess', '10.0.0.1', { 'x-forwarded-for': '203.0.113.1' });
      }
      expect(
        (await login(proxied, me.email, TEST_PASSWORD, '10.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode,
      ).toBe(429);
      expect(
        (await login(proxied, me.email, TEST_PASSWORD, '10.0.0.1', { 'x-forwarded-for': '203.0.113.2' })).statusCode,
      ).toBe(200);
      const [failed] = await proxied.database.db
        .selectFrom('audit_log')
        .select('ip')
        .where('action', '=', 'security.login-failed')
        .execute();
      expect(failed?.ip).toBe('203.0.113.1');
    } finally {
      await proxied.close();
    }
    const me = await t.signIn('Team');
    for (let i = 0; i < 5; i += 1)
      await login(t, me.email, 'guess', '10.0.0.1', { 'x-forwarded-for': `203.0.113.${i}` });
    expect(
      (await login(t, me.email, TEST_PASSWORD, '10.0.0.1', { 'x-forwarded-for': '203.0.113.99' })).statusCode,
    ).toBe(429);
  });
});

describe('security events in the audit trail', () => {
  it('a failed sign-in records the e-mail tried and the address, never the password', async () => {
    await login(t, 'Nobody@Example.test', 'hunter2-secret', '198.51.100.77');
    const [row] = await securityEvents('security.login-failed');
    expect(row).toMatchObject({ actor_id: null, target: 'nobody@example.test', ip: '198.51.100.77' });
    expect(JSON.stringify(row)).not.toContain('hunter2-secret');
  });
});
