// Staff sign-in that holds against a stolen password (issue 34): two-factor codes computed here from the secret the
// desk gave (RFC 6238, the test's own clock), recovery codes, the policy that sends a member to enrol, an Admin's
// reset, the recent proof asked before an account changes hands, and sessions a member sees and ends, on this server
// and on another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { StaffType } from '@eta/contracts';
import { buildApp } from '../src/app.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { insertStaff } from '../src/modules/staff/staff.repository.js';
import { buildTestApp, JWT_SECRET, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let passwordHash: string;
let counter = 0;

beforeAll(async () => {
  // The policy as shipped: Admin and Manager must use a second factor. The limits are the defaults (5 failures per
  // account and address), so wrong codes meet them.
  t = await buildTestApp({ staffMfaRoles: ['Admin', 'Manager'] });
  passwordHash = await hashPassword(TEST_PASSWORD);
});
afterAll(() => t.close());

interface Member {
  id: number;
  email: string;
  name: string;
}

async function newMember(type: StaffType): Promise<Member> {
  counter += 1;
  const email = `sign-in-${counter}@test.local`;
  const name = `${type} Signer ${counter}`;
  const row = await insertStaff(t.database.db, { name, email, passwordHash, type });
  return { id: row.id, email, name };
}

const post = (url: string, payload: object, token?: string, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? { authorization: token } : {}, remoteAddress: ip });
const get = (url: string, token: string) => t.app.inject({ url, headers: { authorization: token } });

const login = async (m: Member, ip = '10.0.0.1') => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/admin-login',
    payload: { email: m.email, password: TEST_PASSWORD },
    remoteAddress: ip,
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ status: number; challenge?: string; next?: string; jwtToken?: string }>();
};

/** The code an authenticator app shows for `secret` at `at` (the test's clock). */
const codeAt = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });

/** Waits, if needed, until the current 30-second step has at least 5 s left, so "this step" means one step here and there. */
async function awayFromStepEdge(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/** Enrols a member through sign-in (the policy asks for it): returns the secret, recovery codes and token. */
async function enrolAtSignIn(m: Member) {
  const first = await login(m);
  expect(first).toMatchObject({ status: 2, next: 'enrol' });
  const setup = await post('/api/admin/login-enrol', { challenge: first.challenge });
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret, uri, qrSvg } = setup.json<{ data: { secret: string; uri: string; qrSvg: string } }>().data;
  expect(uri).toContain(`secret=${secret}`);
  expect(qrSvg).toMatch(/^<svg/);
  await awayFromStepEdge();
  const done = await post('/api/admin/login-enrol/confirm', { challenge: first.challenge, code: codeAt(secret) });
  expect(done.statusCode, done.body).toBe(200);
  const body = done.json<{ status: number; jwtToken: string; recoveryCodes: string[] }>();
  return { secret, recoveryCodes: body.recoveryCodes, token: body.jwtToken };
}

async function auditActions(staffId: number): Promise<string[]> {
  const rows = await t.database.db
    .selectFrom('audit_log')
    .select('action')
    .where((eb) => eb.or([eb('actor_id', '=', staffId), eb('target', '=', `staff:${staffId}`)]))
    .orderBy('id')
    .execute();
  return rows.map((r) => r.action);
}

describe('a second factor at sign-in', () => {
  it('a role under the policy is sent to enrol after the password, gets no session until a first code, then ten recovery codes', async () => {
    const admin = await newMember('Admin');
    const first = await login(admin);
    expect(first.jwtToken).toBeUndefined();
    // The challenge is no session: it opens nothing behind the guard.
    expect((await get('/api/user_info', first.challenge!)).statusCode).toBe(401);
    const { secret, recoveryCodes, token } = await enrolAtSignIn(admin);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await get('/api/user_info', token)).statusCode).toBe(200);

    // The secret is sealed at rest and never returned again.
    const stored = await t.database.db
      .selectFrom('staff_totp')
      .selectAll()
      .where('staff_id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(stored.secret!).toString('latin1')).not.toContain(secret);
    expect(Buffer.from(stored.secret!).includes(Buffer.from(Secret.fromBase32(secret).bytes))).toBe(false);
    const mine = await get('/api/admin/my-security', token);
    expect(mine.json()).toMatchObject({ data: { mfaRequired: true, totpEnabled: true, recoveryCodesLeft: 10 } });
    expect(mine.body).not.toContain(secret);
    const codes = await t.database.db
      .selectFrom('staff_recovery_codes')
      .select('code_hash')
      .where('staff_id', '=', admin.id)
      .execute();
    expect(codes.map((c) => Buffer.from(c.code_hash).toString('latin1')).join()).not.toContain(recoveryCodes[0]!);
    expect(await auditActions(admin.id)).toEqual(expect.arrayContaining(['staff.totp-enrolled', 'staff.login']));
  });

  it('then signs in with a code in its step or the one before, never the same step twice, never one from 90 s ago', async () => {
    const manager = await newMember('Manager');
    const { secret } = await enrolAtSignIn(manager);
    const signInWith = async (code: string) => {
      const step = await login(manager);
      expect(step).toMatchObject({ status: 2, next: 'code' });
      return post('/api/admin/login-code', { challenge: step.challenge, code });
    };
    // The enrolment used this step's code (with 5 s of the step left): the same code again is refused.
    const reused = await signInWith(codeAt(secret));
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ code: 'INVALID_CODE' });
    // The next step's code (a phone clock 30 s ahead) is accepted once.
    const ahead = await signInWith(codeAt(secret, Date.now() + 30_000));
    expect(ahead.statusCode, ahead.body).toBe(200);
    expect((await get('/api/user_info', ahead.json<{ jwtToken: string }>().jwtToken)).statusCode).toBe(200);
    expect((await signInWith(codeAt(secret, Date.now() + 30_000))).statusCode).toBe(401);
    expect((await signInWith(codeAt(secret, Date.now() - 90_000))).statusCode).toBe(401);
    expect((await signInWith('12345')).statusCode).toBe(401);
    expect(await auditActions(manager.id)).toContain('security.code-failed');
  });

  it('a code given once leaves its challenge used: the same challenge cannot sign in again', async () => {
    const admin = await newMember('Admin');
    const { secret } = await enrolAtSignIn(admin);
    const step = await login(admin);
    // The enrolment took this step: the next step's code (a phone 30 s ahead) is a new one.
    const ok = await post('/api/admin/login-code', {
      challenge: step.challenge,
      code: codeAt(secret, Date.now() + 30_000),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await post('/api/admin/login-code', {
      challenge: step.challenge,
      code: codeAt(secret, Date.now() + 30_000),
    });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ code: 'CHALLENGE_EXPIRED' });
    const made = await post('/api/admin/login-code', { challenge: 'x'.repeat(43), code: '123456' });
    expect(made.json()).toMatchObject({ code: 'CHALLENGE_EXPIRED' });
  });

  it('a recovery code signs in once; used, it is refused', async () => {
    const admin = await newMember('Admin');
    const { recoveryCodes } = await enrolAtSignIn(admin);
    const use = async (recoveryCode: string) => {
      const step = await login(admin);
      return post('/api/admin/login-code', { challenge: step.challenge, recoveryCode });
    };
    // As the member reads it from paper: capitals and spaces are fine.
    const first = await use(recoveryCodes[3]!.toUpperCase().replace(/-/g, ' '));
    expect(first.statusCode, first.body).toBe(200);
    expect((await use(recoveryCodes[3]!)).statusCode).toBe(401);
    const mine = await get('/api/admin/my-security', first.json<{ jwtToken: string }>().jwtToken);
    expect(mine.json()).toMatchObject({ data: { recoveryCodesLeft: 9 } });
  });

  it('wrong codes count towards the same limits as wrong passwords: after five, even the right code waits', async () => {
    const admin = await newMember('Admin');
    const { recoveryCodes } = await enrolAtSignIn(admin);
    for (let i = 0; i < 5; i += 1) {
      const step = await login(admin, '10.9.9.9');
      const wrong = await post(
        '/api/admin/login-code',
        { challenge: step.challenge, code: '000000' },
        undefined,
        '10.9.9.9',
      );
      expect(wrong.statusCode).toBe(401);
    }
    // The pair (account, address) is spent: the password step itself is refused now.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/admin-login',
      payload: { email: admin.email, password: TEST_PASSWORD },
      remoteAddress: '10.9.9.9',
    });
    expect(refused.statusCode).toBe(429);
    // From the member's usual address they still get in.
    const step = await login(admin);
    expect(
      (await post('/api/admin/login-code', { challenge: step.challenge, recoveryCode: recoveryCodes[0] })).statusCode,
    ).toBe(200);
  });

  it('a role outside the policy signs in with the password alone until it sets up an app of its own', async () => {
    const team = await newMember('Team');
    const plain = await login(team);
    expect(plain.status).toBe(1);
    const token = plain.jwtToken!;
    expect((await get('/api/admin/my-security', token)).json()).toMatchObject({
      data: { mfaRequired: false, totpEnabled: false, recoveryCodesLeft: 0 },
    });
    const setup = await post('/api/admin/my-security/totp', {}, token);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ data: { secret: string } }>().data;
    const wrong = await post('/api/admin/my-security/totp/confirm', { code: '000000' }, token);
    expect(wrong.statusCode).toBe(400); // not 401: the member stays signed in
    await awayFromStepEdge();
    const confirmed = await post('/api/admin/my-security/totp/confirm', { code: codeAt(secret) }, token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<{ data: { recoveryCodes: string[] } }>().data.recoveryCodes).toHaveLength(10);
    expect(await login(team)).toMatchObject({ status: 2, next: 'code' });
    // Not required for a Team member: removing it is allowed, and the password alone works again.
    const removed = await post('/api/admin/my-security/totp/remove', {}, token);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await login(team)).status).toBe(1);
  });
});

describe('the sign-in policy and an Admin reset', () => {
  it('an Admin resets a member who lost their phone: factor gone, every session ended, the next sign-in enrols again', async () => {
    const admin = await newMember('Admin');
    const adminToken = (await enrolAtSignIn(admin)).token;
    const manager = await newMember('Manager');
    const managerToken = (await enrolAtSignIn(manager)).token;
    const reset = await post(`/api/admin/team-member-factors/${manager.id}/reset`, {}, adminToken);
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await get('/api/user_info', managerToken)).statusCode).toBe(401);
    expect(await login(manager)).toMatchObject({ status: 2, next: 'enrol' });
    expect(await auditActions(manager.id)).toContain('staff.factors-reset');
    // Only an Admin resets: a Manager (signed in again, with a new app) is refused.
    const again = await enrolAtSignIn(manager);
    const other = await newMember('Team');
    expect((await post(`/api/admin/team-member-factors/${other.id}/reset`, {}, again.token)).statusCode).toBe(403);
  });

  it('an Admin sets which roles must use a second factor; a Team member is then sent to enrol', async () => {
    const admin = await newMember('Admin');
    const token = (await enrolAtSignIn(admin)).token;
    expect((await get('/api/admin/sign-in-policy', token)).json()).toMatchObject({
      data: { mfaRoles: ['Admin', 'Manager'], source: 'environment', updatedAt: null },
    });
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sign-in-policy',
      headers: { authorization: token },
      payload: { mfaRoles: ['Admin', 'Manager', 'Team'] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ data: { mfaRoles: ['Admin', 'Manager', 'Team'], source: 'admin' } });
    const team = await newMember('Team');
    expect(await login(team)).toMatchObject({ status: 2, next: 'enrol' });
    const back = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sign-in-policy',
      headers: { authorization: token },
      payload: { mfaRoles: ['Admin', 'Manager'] },
    });
    expect(back.statusCode).toBe(200);
    expect((await login(team)).status).toBe(1);
    expect(await auditActions(admin.id)).toContain('staff.sign-in-policy');
  });
});

describe('a recent proof before an account changes hands', () => {
  /** Makes the session's last proof older than the few minutes it counts for. */
  const ageProof = (token: string) => {
    const jti = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string };
    return t.database.db
      .updateTable('staff_sessions')
      .set({ proved_at: new Date(Date.now() - 6 * 60_000) })
      .where('id', '=', jti.jti)
      .execute();
  };

  it('a password change from a session signed in long ago asks for the current password first', async () => {
    const team = await newMember('Team');
    const token = (await login(team)).jwtToken!;
    await ageProof(token);
    const change = () => post('/api/admin/change-password', { newPassword: 'another-password' }, token);
    const refused = await change();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'RECENT_PROOF_REQUIRED' });
    const wrong = await post('/api/admin/confirm-identity', { password: 'not-it' }, token);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'PROOF_REJECTED' });
    expect(await auditActions(team.id)).toContain('security.proof-failed');
    // The session survives a wrong proof (403, never 401) and the old password still works.
    expect((await get('/api/user_info', token)).statusCode).toBe(200);
    expect((await post('/api/admin/confirm-identity', { password: TEST_PASSWORD }, token)).statusCode).toBe(200);
    expect((await change()).statusCode).toBe(200);
  });

  it("an Admin changing a member's role or password proves it is them; a name alone needs nothing", async () => {
    const admin = await newMember('Admin');
    const { token, secret } = await enrolAtSignIn(admin);
    const member = await newMember('Team');
    const memberToken = (await login(member)).jwtToken!;
    await ageProof(token);
    const update = (type: StaffType, password = '') =>
      post(
        '/api/admin/update-team-member',
        { tmId: member.id, name: 'Renamed', email: member.email, password, type },
        token,
      );
    expect((await update('Team')).statusCode).toBe(200);
    expect((await update('Manager')).json()).toMatchObject({ code: 'RECENT_PROOF_REQUIRED' });
    expect((await update('Team', 'new-password-1')).json()).toMatchObject({ code: 'RECENT_PROOF_REQUIRED' });
    await awayFromStepEdge();
    const proved = await post('/api/admin/confirm-identity', { code: codeAt(secret, Date.now() + 30_000) }, token);
    expect(proved.statusCode, proved.body).toBe(200);
    expect((await update('Team', 'new-password-1')).statusCode).toBe(200);
    // A new password from an Admin ends the member's sessions.
    expect((await get('/api/user_info', memberToken)).statusCode).toBe(401);
  });
});

describe('sessions a member sees and ends', () => {
  it('lists each sign-in with its browser, address and times; End ends one, End all others keeps this one', async () => {
    const team = await newMember('Team');
    const a = (await login(team, '10.1.1.1')).jwtToken!;
    const b = (await login(team, '10.2.2.2')).jwtToken!;
    const c = (await login(team, '10.3.3.3')).jwtToken!;
    const list = await get('/api/admin/my-sessions', a);
    expect(list.statusCode, list.body).toBe(200);
    const sessions = list.json<{
      data: { id: string; ip: string; browser: string; os: string; current: boolean; endedAt: string | null }[];
    }>().data;
    expect(sessions.map((s) => s.ip)).toEqual(['10.3.3.3', '10.2.2.2', '10.1.1.1']);
    expect(sessions.map((s) => s.current)).toEqual([false, false, true]);
    expect(sessions[0]).toMatchObject({ browser: 'Chrome 130', os: 'Linux', endedAt: null });

    const ended = await post(`/api/admin/sessions/${sessions[1]!.id}/end`, {}, a);
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await get('/api/user_info', b)).statusCode).toBe(401);
    expect((await get('/api/user_info', c)).statusCode).toBe(200);
    const others = await post('/api/admin/my-sessions/end-others', {}, a);
    expect(others.json()).toMatchObject({ message: '1 other session ended.' });
    expect((await get('/api/user_info', c)).statusCode).toBe(401);
    expect((await get('/api/user_info', a)).statusCode).toBe(200);
    const after = (await get('/api/admin/my-sessions', a)).json<{ data: { endedBy: string | null }[] }>().data;
    expect(after.map((s) => s.endedBy)).toEqual(['ended by its owner', 'ended by its owner', null]);
  });

  it("a member cannot end someone else's session; an Admin sees and ends a member's", async () => {
    const admin = await newMember('Admin');
    const adminToken = (await enrolAtSignIn(admin)).token;
    const team = await newMember('Team');
    const teamToken = (await login(team)).jwtToken!;
    const intruder = await newMember('Team');
    const intruderToken = (await login(intruder)).jwtToken!;
    const theirs = (await get(`/api/admin/team-member-sessions/${team.id}`, adminToken)).json<{
      data: { id: string }[];
    }>().data;
    expect(theirs).toHaveLength(1);
    expect((await post(`/api/admin/sessions/${theirs[0]!.id}/end`, {}, intruderToken)).statusCode).toBe(403);
    expect((await get('/api/user_info', teamToken)).statusCode).toBe(200);
    expect((await post(`/api/admin/sessions/${theirs[0]!.id}/end`, {}, adminToken)).statusCode).toBe(200);
    expect((await get('/api/user_info', teamToken)).statusCode).toBe(401);
  });

  /** Another server on the same database (on PGlite, sharing this one's in-process events). */
  const otherServer = () =>
    buildApp({
      config: t.config,
      database: t.database,
      jwtSecret: JWT_SECRET,
      logger: false,
      ...(t.database.kind === 'pglite' ? { eventBus: t.app.eventBus } : {}),
    });

  it('a sign-in on one server works at once on another that has the member cached', async () => {
    const team = await newMember('Team');
    const first = (await login(team)).jwtToken!;
    const other = await otherServer();
    try {
      const userInfo = (token: string) => other.inject({ url: '/api/user_info', headers: { authorization: token } });
      expect((await userInfo(first)).statusCode).toBe(200); // the member's row and sessions now cached there
      const second = (await login(team)).jwtToken!;
      expect((await userInfo(second)).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('a session ended on one server stops on another within a second', async () => {
    const team = await newMember('Team');
    const a = (await login(team)).jwtToken!;
    const b = (await login(team)).jwtToken!;
    const other = await otherServer();
    try {
      const userInfo = () => other.inject({ url: '/api/user_info', headers: { authorization: b } });
      expect((await userInfo()).statusCode).toBe(200); // now in the other server's staff cache
      expect((await post('/api/admin/my-sessions/end-others', {}, a)).statusCode).toBe(200);
      const endedAt = Date.now();
      let status = (await userInfo()).statusCode;
      while (status === 200 && Date.now() - endedAt < 1_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await userInfo()).statusCode;
      }
      expect(status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
