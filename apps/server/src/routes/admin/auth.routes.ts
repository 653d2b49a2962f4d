// Staff sign-in, the current user, logout and password change (spec §7 "Authentication and account"), and the
// second step of a sign-in (issue 34): a code, a recovery code, or enrolling the factor the policy asks for.
// Sign-in limits are applied by the auth service (modules/auth/login-throttle.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ChangePasswordBody,
  LoginAnswer,
  LoginBody,
  LoginCodeBody,
  LoginEnrolBody,
  LoginEnrolConfirmBody,
  LoginEnrolledResponse,
  LoginPasskeyBody,
  LoginResponse,
  MessageOnly,
  PasskeySignInBody,
  SignInOptionsResponse,
  SsoCallbackBody,
  SsoStartResponse,
  TotpSetupResponse,
  UserInfoResponse,
  WebAuthnOptionsResponse,
} from '@eta/contracts';
import { actorOf, clientOf, requireSession, requireStaff } from '../../plugins/auth.js';
import { toStaffUser, type SignedIn } from '../../modules/auth/auth.service.js';
import type { WebAuthnAnswer } from '../../modules/auth/passkey.service.js';

const NEXT_STEP = {
  code: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  enrol: 'Your role must use a second factor: set up an authenticator app to finish signing in.',
} as const;

const signedInAnswer = ({ token, user }: SignedIn) => ({
  status: 1 as const,
  message: 'Login successful.',
  jwtToken: token,
  data: user,
});

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { auth, sso } = app.services;

  app.post(
    '/api/admin/admin-login',
    {
      schema: {
        tags: ['auth'],
        description:
          'Step 1 of a staff sign-in. A right password answers status 1 with the token, or status 2 with a challenge ' +
          "when a second step is needed: next 'code' (POST /api/admin/login-code) or 'enrol' (the sign-in policy asks " +
          'for an authenticator app: POST /api/admin/login-enrol, then /api/admin/login-enrol/confirm). The challenge ' +
          'is single use and lasts 5 minutes.',
        body: LoginBody,
        response: { 200: LoginAnswer },
      },
    },
    async (request) => {
      const outcome = await auth.login(request.body.email, request.body.password, clientOf(request));
      if ('challenge' in outcome) {
        return {
          status: 2 as const,
          message: NEXT_STEP[outcome.next],
          challenge: outcome.challenge,
          next: outcome.next,
          ...(outcome.methods ? { methods: outcome.methods } : {}),
        };
      }
      return signedInAnswer(outcome);
    },
  );

  app.post(
    '/api/admin/login-code',
    {
      schema: {
        tags: ['auth'],
        description:
          'Step 2: the challenge with a 6-digit code from the authenticator app (RFC 6238, 30 s steps, each accepted ' +
          'once) or one of the recovery codes. A wrong code is 401 INVALID_CODE and counts in the sign-in limits. ' +
          "A member whose methods include 'passkey' may answer with a passkey instead: /api/admin/login-passkey.",
        body: LoginCodeBody,
        response: { 200: LoginResponse },
      },
    },
    async (request) => {
      const { challenge, code, recoveryCode } = request.body;
      return signedInAnswer(await auth.signInWithCode(challenge, { code, recoveryCode }, clientOf(request)));
    },
  );

  app.post(
    '/api/admin/login-enrol',
    {
      schema: {
        tags: ['auth'],
        description:
          "Step 2 when next is 'enrol': a new secret for the member's authenticator app (its otpauth:// address, a QR " +
          'code as SVG and the key in text). Shown while setting up only.',
        body: LoginEnrolBody,
        response: { 200: TotpSetupResponse },
      },
    },
    async (request) => ({
      status: 1 as const,
      message: 'Scan the QR code with your authenticator app, then enter the code it shows.',
      data: await auth.startEnrolmentAtSignIn(request.body.challenge),
    }),
  );

  app.post(
    '/api/admin/login-enrol/confirm',
    {
      schema: {
        tags: ['auth'],
        description:
          "The app's first code confirms its secret: the session's token, and ten recovery codes shown this once.",
        body: LoginEnrolConfirmBody,
        response: { 200: LoginEnrolledResponse },
      },
    },
    async (request) => {
      const done = await auth.confirmEnrolmentAtSignIn(request.body.challenge, request.body.code, clientOf(request));
      return { ...signedInAnswer(done), recoveryCodes: done.recoveryCodes };
    },
  );

  app.post(
    '/api/admin/login-passkey/options',
    {
      schema: {
        tags: ['auth'],
        description:
          "Step 2 with a passkey: WebAuthn options (PublicKeyCredentialRequestOptionsJSON) for the browser's " +
          "navigator.credentials.get, limited to the member's passkeys; the relying party is PUBLIC_URL's host.",
        body: LoginEnrolBody,
        response: { 200: WebAuthnOptionsResponse },
      },
    },
    async (request) => ({
      status: 1 as const,
      message: 'Use your passkey.',
      data: await auth.passkeyOptionsAtSignIn(request.body.challenge),
    }),
  );

  app.post(
    '/api/admin/login-passkey',
    {
      schema: {
        tags: ['auth'],
        description:
          "Step 2 with a passkey: the browser's answer (AuthenticationResponseJSON) to the options above. A refused " +
          'answer is 401 INVALID_CODE and counts in the sign-in limits like a wrong code.',
        body: LoginPasskeyBody,
        response: { 200: LoginResponse },
      },
    },
    async (request) =>
      signedInAnswer(
        await auth.signInWithPasskey(
          request.body.challenge,
          request.body.response as WebAuthnAnswer,
          clientOf(request),
        ),
      ),
  );

  app.get(
    '/api/admin/sign-in-options',
    {
      schema: {
        tags: ['auth'],
        description:
          'What the sign-in page offers besides the password: single sign-on (its name) and a passkey alone.',
        response: { 200: SignInOptionsResponse },
      },
    },
    async () => ({
      status: 1 as const,
      message: 'OK',
      data: {
        sso: sso.name ? { name: sso.name } : null,
        passkeys: (await auth.factors.policy()).passwordlessPasskeys,
      },
    }),
  );

  app.post(
    '/api/admin/passkey-sign-in/options',
    {
      schema: {
        tags: ['auth'],
        description:
          'A sign-in with a passkey alone, where the sign-in policy allows it: WebAuthn options for any passkey of the ' +
          "desk, with the device's own check of its owner (userVerification: required). 403 SIGN_IN_REFUSED otherwise.",
        response: { 200: WebAuthnOptionsResponse },
      },
    },
    async () => ({ status: 1 as const, message: 'Use your passkey.', data: await auth.passwordlessOptions() }),
  );

  app.post(
    '/api/admin/passkey-sign-in',
    {
      schema: {
        tags: ['auth'],
        description:
          "The browser's answer to the options above: the session of the passkey's owner. A refused answer is 401 " +
          'INVALID_CODE and counts in the sign-in limits.',
        body: PasskeySignInBody,
        response: { 200: LoginResponse },
      },
    },
    async (request) =>
      signedInAnswer(await auth.signInWithPasskeyAlone(request.body.response as WebAuthnAnswer, clientOf(request))),
  );

  app.post(
    '/api/admin/sso/start',
    {
      schema: {
        tags: ['auth'],
        description:
          "Single sign-on (OpenID Connect, authorization code with PKCE): the provider's address to send the browser " +
          'to, and the state the browser keeps until the provider sends it back to PUBLIC_URL/login/sso. ' +
          '404 when SSO_ISSUER is not set; 502 SSO_UNAVAILABLE when the provider cannot be reached.',
        response: { 200: SsoStartResponse },
      },
    },
    async () => ({ status: 1 as const, message: 'OK', data: await sso.start() }),
  );

  app.post(
    '/api/admin/sso/callback',
    {
      schema: {
        tags: ['auth'],
        description:
          "The provider's answer (the query string it sent to /login/sso) with the state this browser started with: the " +
          "session of the member with the provider's verified e-mail. 403 SIGN_IN_REFUSED for a state of another " +
          'sign-in, an unverified e-mail, or an e-mail with no member (unless the policy creates Team members for ' +
          'its domain); 401 CHALLENGE_EXPIRED for a used or expired sign-in.',
        body: SsoCallbackBody,
        response: { 200: LoginResponse },
      },
    },
    async (request) => {
      const identity = await sso.identify(request.body.callback, request.body.state, request.ip);
      return signedInAnswer(await auth.signInWithSso(identity, clientOf(request)));
    },
  );

  app.post('/api/admin/logout', { schema: { tags: ['auth'], response: { 200: MessageOnly } } }, async (request) => {
    const session = requireSession(request.session);
    await auth.logout(session, actorOf(session.staff, request.ip));
    return { status: 1 as const, message: 'You have been signed out.' };
  });

  app.get('/api/user_info', { schema: { tags: ['auth'], response: { 200: UserInfoResponse } } }, async (request) => ({
    status: 1 as const,
    message: 'OK',
    data: toStaffUser(requireStaff(request.staff)),
  }));

  app.post(
    '/api/admin/change-password',
    { schema: { tags: ['auth'], body: ChangePasswordBody, response: { 200: MessageOnly } } },
    async (request) => {
      const session = requireSession(request.session);
      await auth.changePassword(session, request.body.newPassword, actorOf(session.staff, request.ip));
      return { status: 1 as const, message: 'Password updated successfully. Please sign in again.' };
    },
  );
};

export default authRoutes;
