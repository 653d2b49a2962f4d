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
  LoginResponse,
  MessageOnly,
  TotpSetupResponse,
  UserInfoResponse,
} from '@eta/contracts';
import { actorOf, clientOf, requireSession, requireStaff } from '../../plugins/auth.js';
import { toStaffUser, type SignedIn } from '../../modules/auth/auth.service.js';

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
  const auth = app.services.auth;

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
          'once) or one of the recovery codes. A wrong code is 401 INVALID_CODE and counts in the sign-in limits.',
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
