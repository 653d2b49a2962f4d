// Single sign-on with OpenID Connect (issue 34 items 3 and 4) against a real OpenID provider on loopback
// (helpers/oidc-provider.ts, the `oidc-provider` package): authorization code with PKCE, state and nonce; the
// provider's verified e-mail signs in the member who has it, with their own role; a wrong state, a replayed answer,
// an unverified e-mail and a stranger are refused; the policy that makes a role use SSO, and the guard that keeps
// an Admin's way in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';
import { startOidcProvider, type OidcStandIn } from './helpers/oidc-provider.js';

let t: TestApp;
let provider: OidcStandIn;

beforeAll(async () => {
  provider = await startOidcProvider();
  t = await buildTestApp({
    sso: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, name: 'Google' },
  });
  provider.setRedirectUris([`${t.config.publicUrl}/login/sso`]);
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? { authorization: token } : {} });

/** Starts a sign-in and follows the provider as `as`: the query the provider sends back, and the state kept. */
async function throughProvider(as: { sub: string; email: string; emailVerified: boolean; name?: string }) {
  provider.signInAs(as);
  const started = await post('/api/admin/sso/start', {});
  expect(started.statusCode, started.body).toBe(200);
  const { url, state } = started.json<{ data: { url: string; state: string } }>().data;
  const authorization = new URL(url);
  expect(authorization.origin).toBe(provider.issuer);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('state')).toBe(state);
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  expect(authorization.searchParams.get('redirect_uri')).toBe(`${t.config.publicUrl}/login/sso`);
  const back = await provider.authorize(url);
  expect(back.pathname).toBe('/login/sso');
  return { callback: back.search, state };
}

const refusedActions = async () =>
  (
    await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'after'])
      .where('action', '=', 'security.sso-refused')
      .execute()
  ).map((r) => ({ target: r.target, reason: (r.after as { reason: string }).reason }));

describe('single sign-on', () => {
  it("the provider's verified e-mail signs in the member who has it, with their role; the sign-in page offers it", async () => {
    const member = await t.signIn('Manager');
    expect((await t.app.inject({ url: '/api/admin/sign-in-options' })).json()).toMatchObject({
      data: { sso: { name: 'Google' } },
    });
    const back = await throughProvider({ sub: 'g-1', email: member.email.toUpperCase(), emailVerified: true });
    const signedIn = await post('/api/admin/sso/callback', back);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const body = signedIn.json<{ jwtToken: string; data: { id: number; type: string } }>();
    expect(body.data).toMatchObject({ id: member.id, type: 'Manager' });
    const sessions = await t.app.inject({ url: '/api/admin/my-sessions', headers: { authorization: body.jwtToken } });
    expect(
      sessions.json<{ data: { current: boolean; secondFactor: string }[] }>().data.find((s) => s.current),
    ).toMatchObject({ secondFactor: 'sso' });
    // The same answer a second time: its sign-in is used.
    const replay = await post('/api/admin/sso/callback', back);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'CHALLENGE_EXPIRED' });
  });

  it('refuses an answer for another state, one the provider refused, an unverified e-mail and a stranger', async () => {
    const member = await t.signIn('Team');
    // A sign-in started in another tab (or by an attacker, whose code would sign the victim in as the attacker).
    const theirs = await throughProvider({ sub: 'g-2', email: member.email, emailVerified: true });
    const mine = await post('/api/admin/sso/start', {});
    const wrongState = await post('/api/admin/sso/callback', {
      callback: theirs.callback,
      state: mine.json<{ data: { state: string } }>().data.state,
    });
    expect(wrongState.statusCode).toBe(403);
    expect(wrongState.json()).toMatchObject({
      code: 'SIGN_IN_REFUSED',
      message: expect.stringContaining('did not start'),
    });
    // A state no sign-in of the desk started.
    const forged = await post('/api/admin/sso/callback', {
      callback: `code=abc&state=${'f'.repeat(43)}`,
      state: 'f'.repeat(43),
    });
    expect(forged.statusCode).toBe(401);

    const provided = await post('/api/admin/sso/start', {});
    const { state } = provided.json<{ data: { state: string } }>().data;
    const denied = await post('/api/admin/sso/callback', {
      callback: `error=access_denied&error_description=The+user+cancelled&state=${state}`,
      state,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json<{ message: string }>().message).toContain('The user cancelled');

    const unverified = await post(
      '/api/admin/sso/callback',
      await throughProvider({ sub: 'g-3', email: member.email, emailVerified: false }),
    );
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json<{ message: string }>().message).toContain('has not verified');

    const stranger = await post(
      '/api/admin/sso/callback',
      await throughProvider({ sub: 'g-4', email: 'nobody@elsewhere.example', emailVerified: true }),
    );
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json<{ message: string }>().message).toContain('no eTA Desk account');
    expect(await refusedActions()).toEqual(
      expect.arrayContaining([
        { target: 'single sign-on', reason: 'state' },
        { target: member.email.toLowerCase(), reason: 'e-mail not verified' },
        {
          target: 'nobody@elsewhere.example',
          reason: 'There is no eTA Desk account for nobody@elsewhere.example. Ask an Admin to add you.',
        },
      ]),
    );
  });

  it('a named domain gets Team accounts at their first sign-in; other domains still do not', async () => {
    const admin = await t.signIn('Admin');
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sign-in-policy',
      payload: { mfaRoles: [], ssoCreateDomain: 'Office.Example' },
      headers: { authorization: admin.token },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ data: { ssoCreateDomain: 'office.example', sso: { configured: true } } });
    const newcomer = await post(
      '/api/admin/sso/callback',
      await throughProvider({
        sub: 'g-5',
        email: 'new.person@office.example',
        emailVerified: true,
        name: 'New Person',
      }),
    );
    expect(newcomer.statusCode, newcomer.body).toBe(200);
    expect(newcomer.json()).toMatchObject({
      data: { type: 'Team', name: 'New Person', email: 'new.person@office.example' },
    });
    const outsider = await post(
      '/api/admin/sso/callback',
      await throughProvider({ sub: 'g-6', email: 'someone@office.example.net', emailVerified: true }),
    );
    expect(outsider.statusCode).toBe(403);
    // The new member has no password anyone knows.
    const password = await post('/api/admin/admin-login', {
      email: 'new.person@office.example',
      password: TEST_PASSWORD,
    });
    expect(password.statusCode).toBe(401);
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sign-in-policy',
      payload: { mfaRoles: [], ssoCreateDomain: null },
      headers: { authorization: admin.token },
    });
  });

  it('a role required to use SSO cannot sign in with its password; Admins are required only by an Admin who came through SSO', async () => {
    const admin = await t.signIn('Admin');
    const team = await t.signIn('Team');
    const setPolicy = (token: string, ssoRoles: string[]) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/sign-in-policy',
        payload: { mfaRoles: [], ssoRoles },
        headers: { authorization: token },
      });
    expect((await setPolicy(admin.token, ['Team'])).statusCode).toBe(200);
    const byPassword = await post('/api/admin/admin-login', { email: team.email, password: TEST_PASSWORD });
    expect(byPassword.statusCode).toBe(403);
    expect(byPassword.json()).toMatchObject({ code: 'SSO_REQUIRED', message: expect.stringContaining('Google') });
    const wrongPassword = await post('/api/admin/admin-login', { email: team.email, password: 'not-the-password' });
    expect(wrongPassword.statusCode).toBe(401);
    const bySso = await post(
      '/api/admin/sso/callback',
      await throughProvider({ sub: 'g-7', email: team.email, emailVerified: true }),
    );
    expect(bySso.statusCode, bySso.body).toBe(200);

    // An Admin signed in with a password cannot make Admins depend on SSO: nobody has shown it works for an Admin.
    const guarded = await setPolicy(admin.token, ['Team', 'Admin']);
    expect(guarded.statusCode).toBe(409);
    expect(guarded.json()).toMatchObject({ code: 'LAST_ADMIN' });
    const viaSso = await post(
      '/api/admin/sso/callback',
      await throughProvider({ sub: 'g-8', email: admin.email, emailVerified: true }),
    );
    expect(viaSso.statusCode, viaSso.body).toBe(200);
    const ssoAdmin = viaSso.json<{ jwtToken: string }>().jwtToken;
    expect((await setPolicy(ssoAdmin, ['Team', 'Admin'])).statusCode).toBe(200);
    expect((await post('/api/admin/admin-login', { email: admin.email, password: TEST_PASSWORD })).statusCode).toBe(
      403,
    );
    expect((await setPolicy(ssoAdmin, [])).statusCode).toBe(200);
    expect((await post('/api/admin/admin-login', { email: admin.email, password: TEST_PASSWORD })).statusCode).toBe(
      200,
    );
  });
});
