// Passkeys (WebAuthn, issue 34 item 2), checked by the server's real WebAuthn library against a passkey made in the
// test (helpers/soft-authenticator.ts: a P-256 key, the authenticator's bytes, its signatures): registration after a
// recent proof, the passkey as the second step of a sign-in, a passkey alone where the Admin allows it, and the
// answers that must be refused (replayed, for another site, without the device's check, unknown).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';
import { softAuthenticator } from './helpers/soft-authenticator.js';

let t: TestApp;
/** PUBLIC_URL of the app under test: the relying party (its host name is the RP id). */
let origin: string;

beforeAll(async () => {
  t = await buildTestApp();
  origin = t.config.publicUrl;
});
afterAll(() => t.close());

const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? { authorization: token } : {} });
const get = (url: string, token: string) => t.app.inject({ url, headers: { authorization: token } });

const passwordStep = async (email: string) => {
  const res = await post('/api/admin/admin-login', { email, password: TEST_PASSWORD });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ status: number; challenge?: string; next?: string; methods?: string[]; jwtToken?: string }>();
};

/** Registers a new passkey for the member behind `token` (signed in moments ago: a recent proof). */
async function addPasskey(token: string, name: string, userVerified = true) {
  const device = softAuthenticator({ origin, userVerified });
  const options = await post('/api/admin/my-security/passkeys/options', {}, token);
  expect(options.statusCode, options.body).toBe(200);
  const { data } = options.json<{ data: { challenge: string; rp: { id: string }; excludeCredentials: unknown[] } }>();
  expect(data.rp.id).toBe(new URL(origin).hostname);
  const added = await post(
    '/api/admin/my-security/passkeys',
    { challenge: data.challenge, name, response: device.register(data) },
    token,
  );
  expect(added.statusCode, added.body).toBe(200);
  return {
    device,
    added: added.json<{ data: { passkey: { id: string; name: string }; recoveryCodes: string[] | null } }>().data,
  };
}

const staffActions = async (staffId: number) =>
  (
    await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where((eb) => eb.or([eb('actor_id', '=', staffId), eb('target', '=', `staff:${staffId}`)]))
      .execute()
  ).map((r) => r.action);

describe('passkeys', () => {
  it('a member adds a named passkey, gets recovery codes with their first factor, and signs in with it after the password', async () => {
    const member = await t.signIn('Team');
    const { device, added } = await addPasskey(member.token, 'Work laptop');
    expect(added.passkey).toMatchObject({ id: device.credentialId, name: 'Work laptop' });
    expect(added.recoveryCodes).toHaveLength(10);
    // Only the public half is kept.
    const row = await t.database.db
      .selectFrom('staff_passkeys')
      .selectAll()
      .where('id', '=', device.credentialId)
      .executeTakeFirstOrThrow();
    expect(row.staff_id).toBe(member.id);

    const step = await passwordStep(member.email);
    expect(step).toMatchObject({ status: 2, next: 'code', methods: ['passkey'] });
    const options = await post('/api/admin/login-passkey/options', { challenge: step.challenge });
    expect(options.statusCode, options.body).toBe(200);
    const request = options.json<{ data: { challenge: string; allowCredentials: { id: string }[] } }>().data;
    expect(request.allowCredentials.map((c) => c.id)).toEqual([device.credentialId]);
    const answer = device.authenticate(request);
    const signedIn = await post('/api/admin/login-passkey', { challenge: step.challenge, response: answer });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const token = signedIn.json<{ jwtToken: string }>().jwtToken;
    const mine = await get('/api/admin/my-security', token);
    expect(mine.json()).toMatchObject({ data: { passkeys: [{ name: 'Work laptop' }], recoveryCodesLeft: 10 } });
    expect(
      mine.json<{ data: { passkeys: { lastUsedAt: string | null }[] } }>().data.passkeys[0]!.lastUsedAt,
    ).not.toBeNull();
    const sessions = await get('/api/admin/my-sessions', token);
    expect(
      sessions.json<{ data: { current: boolean; secondFactor: string }[] }>().data.find((s) => s.current),
    ).toMatchObject({ secondFactor: 'passkey' });

    // The same answer again finds its challenge used.
    const replay = await post('/api/admin/login-passkey', { challenge: step.challenge, response: answer });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'CHALLENGE_EXPIRED' });
    // A second passkey keeps the codes the member has.
    expect((await addPasskey(token, 'Phone')).added.recoveryCodes).toBeNull();
    expect(await staffActions(member.id)).toEqual(expect.arrayContaining(['staff.passkey-added', 'staff.login']));
  });

  it('refuses an answer made for another site or signed over another challenge, and counts it like a wrong code', async () => {
    const member = await t.signIn('Manager');
    const { device } = await addPasskey(member.token, 'Key');
    const step = await passwordStep(member.email);
    const request = (await post('/api/admin/login-passkey/options', { challenge: step.challenge })).json<{
      data: { challenge: string };
    }>().data;
    const phished = await post('/api/admin/login-passkey', {
      challenge: step.challenge,
      response: device.authenticate(request, { origin: 'https://eta-desk.example.net' }),
    });
    expect(phished.statusCode).toBe(401);
    expect(phished.json()).toMatchObject({ code: 'INVALID_CODE', message: expect.stringContaining('passkey') });
    const stale = await post('/api/admin/login-passkey', {
      challenge: step.challenge,
      response: device.authenticate({ challenge: Buffer.from('another challenge').toString('base64url') }),
    });
    expect(stale.statusCode).toBe(401);
    expect(await staffActions(member.id)).toContain('security.code-failed');
    // The right answer still works: the refusals used nothing.
    const ok = await post('/api/admin/login-passkey', {
      challenge: step.challenge,
      response: device.authenticate(request),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("registration needs a recent proof and a fresh challenge of the member's own", async () => {
    const member = await t.signIn('Telecaller');
    const other = await t.signIn('Telecaller');
    const options = (await post('/api/admin/my-security/passkeys/options', {}, member.token)).json<{
      data: { challenge: string };
    }>().data;
    const device = softAuthenticator({ origin });
    // Another member cannot finish a registration someone else started.
    const stolen = await post(
      '/api/admin/my-security/passkeys',
      { challenge: options.challenge, name: 'Stolen', response: device.register(options) },
      other.token,
    );
    expect(stolen.statusCode).toBe(400);
    // Six minutes after the sign-in, the proof is old: the options are refused until the member confirms it is them.
    await t.database.db
      .updateTable('staff_sessions')
      .set({ proved_at: new Date(Date.now() - 6 * 60_000) })
      .where('staff_id', '=', member.id)
      .execute();
    const late = await post('/api/admin/my-security/passkeys/options', {}, member.token);
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ code: 'RECENT_PROOF_REQUIRED' });
  });

  it("a passkey alone signs in only where the Admin allows it, and only with the device's own check", async () => {
    const admin = await t.signIn('Admin');
    const member = await t.signIn('Team');
    const { device } = await addPasskey(member.token, 'Laptop');
    const noCheck = await addPasskey(member.token, 'Old key', false);

    expect((await t.app.inject({ url: '/api/admin/sign-in-options' })).json()).toMatchObject({
      data: { sso: null, passkeys: false },
    });
    expect((await post('/api/admin/passkey-sign-in/options', {})).statusCode).toBe(404);

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sign-in-policy',
      payload: { mfaRoles: [], passwordlessPasskeys: true },
      headers: { authorization: admin.token },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ data: { passwordlessPasskeys: true, mfaRoles: [] } });
    expect((await t.app.inject({ url: '/api/admin/sign-in-options' })).json()).toMatchObject({
      data: { passkeys: true },
    });

    const alone = async (answerWith: (options: { challenge: string }) => object) => {
      const options = await post('/api/admin/passkey-sign-in/options', {});
      expect(options.statusCode, options.body).toBe(200);
      const data = options.json<{
        data: { challenge: string; userVerification: string; allowCredentials?: unknown[] };
      }>().data;
      expect(data.userVerification).toBe('required');
      expect(data.allowCredentials ?? []).toEqual([]);
      return post('/api/admin/passkey-sign-in', { response: answerWith(data) });
    };
    const signedIn = await alone((o) => device.authenticate(o));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ data: { id: member.id, type: 'Team' } });

    // A device that did not check its owner is only a second factor.
    const unverified = await alone((o) => noCheck.device.authenticate(o));
    expect(unverified.statusCode).toBe(401);
    // A passkey the desk does not know.
    const stranger = await alone((o) => softAuthenticator({ origin }).authenticate(o));
    expect(stranger.statusCode).toBe(401);
    // An answer over a challenge the server never gave.
    const forged = await post('/api/admin/passkey-sign-in', {
      response: device.authenticate({ challenge: Buffer.from('made up by an attacker').toString('base64url') }),
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'CHALLENGE_EXPIRED' });

    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sign-in-policy',
      payload: { mfaRoles: [], passwordlessPasskeys: false },
      headers: { authorization: admin.token },
    });
  });

  it("the last factor a policy asks for cannot be removed; an Admin's reset removes passkeys and ends the sessions", async () => {
    const admin = await t.signIn('Admin');
    const member = await t.signIn('Manager');
    const { device } = await addPasskey(member.token, 'Only key');
    const setPolicy = (mfaRoles: string[]) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/sign-in-policy',
        payload: { mfaRoles },
        headers: { authorization: admin.token },
      });
    expect((await setPolicy(['Manager'])).statusCode).toBe(200);
    const refused = await post(`/api/admin/my-security/passkeys/${device.credentialId}/remove`, {}, member.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'FACTOR_REQUIRED' });
    expect((await get('/api/admin/my-security', member.token)).json()).toMatchObject({ data: { passkeys: [{}] } });

    const reset = await post(`/api/admin/team-member-factors/${member.id}/reset`, {}, admin.token);
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await get('/api/user_info', member.token)).statusCode).toBe(401);
    const left = await t.database.db
      .selectFrom('staff_passkeys')
      .select('id')
      .where('staff_id', '=', member.id)
      .execute();
    expect(left).toEqual([]);
    // Under the policy and without a factor now: the next sign-in enrols.
    expect(await passwordStep(member.email)).toMatchObject({ status: 2, next: 'enrol' });
    expect((await setPolicy([])).statusCode).toBe(200);
  });

  it('a member without the policy may remove a passkey; single sign-on cannot be required where it is not set up', async () => {
    const admin = await t.signIn('Admin');
    const member = await t.signIn('Team');
    const { device } = await addPasskey(member.token, 'Spare');
    const removed = await post(`/api/admin/my-security/passkeys/${device.credentialId}/remove`, {}, member.token);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await passwordStep(member.email)).toMatchObject({ status: 1 });
    expect(await staffActions(member.id)).toContain('staff.passkey-removed');

    const sso = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sign-in-policy',
      payload: { mfaRoles: [], ssoRoles: ['Team'] },
      headers: { authorization: admin.token },
    });
    expect(sso.statusCode).toBe(400);
    expect(sso.json<{ message: string }>().message).toContain('SSO_ISSUER');
  });
});
