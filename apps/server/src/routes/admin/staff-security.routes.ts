// A member's own sign-in (issue 34): confirm it is you, the authenticator app and recovery codes, sessions; and the
// Admin's side: a member's sessions, a factor reset, the sign-in policy. Rules live in StaffSecurityService.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ConfirmIdentityBody,
  MessageOnly,
  MySecurityResponse,
  RecoveryCodesResponse,
  SessionIdParams,
  SignInPolicyBody,
  SignInPolicyResponse,
  StaffSessionsResponse,
  TeamMemberParams,
  TotpConfirmBody,
  TotpSetupResponse,
} from '@eta/contracts';
import { actorOf, requireSession } from '../../plugins/auth.js';

const staffSecurityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { auth, staffSecurity } = app.services;
  const tags = ['sign-in'];

  app.post(
    '/api/admin/confirm-identity',
    {
      schema: {
        tags,
        description:
          "A recent proof: the current password, or a code (the app's or a recovery code). Calls that take an " +
          'account over (a password, role or factor change, the policy) answer 403 RECENT_PROOF_REQUIRED without one ' +
          'given in this session within 5 minutes (signing in counts). A wrong one is 403 PROOF_REJECTED.',
        body: ConfirmIdentityBody,
        response: { 200: MessageOnly },
      },
    },
    async (request) => {
      const { password, code } = request.body;
      // A code of six digits is the app's; anything else is tried as a recovery code.
      const proof = code && !/^\s*\d{6}\s*$/.test(code) ? { recoveryCode: code } : { password, code };
      await auth.confirmIdentity(requireSession(request.session), proof, request.ip);
      return { status: 1 as const, message: 'Thank you: you can make the change now.' };
    },
  );

  app.get('/api/admin/my-security', { schema: { tags, response: { 200: MySecurityResponse } } }, async (request) => ({
    status: 1 as const,
    message: 'OK',
    data: await staffSecurity.mySecurity(requireSession(request.session)),
  }));

  app.post(
    '/api/admin/my-security/totp',
    { schema: { tags, response: { 200: TotpSetupResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'Scan the QR code with your authenticator app, then enter the code it shows.',
      data: await staffSecurity.startTotp(requireSession(request.session)),
    }),
  );

  app.post(
    '/api/admin/my-security/totp/confirm',
    { schema: { tags, body: TotpConfirmBody, response: { 200: RecoveryCodesResponse } } },
    async (request) => {
      const session = requireSession(request.session);
      const recoveryCodes = await staffSecurity.confirmTotp(
        session,
        request.body.code,
        actorOf(session.staff, request.ip),
      );
      return { status: 1 as const, message: 'Your authenticator app is set up.', data: { recoveryCodes } };
    },
  );

  app.post(
    '/api/admin/my-security/totp/remove',
    { schema: { tags, response: { 200: MessageOnly } } },
    async (request) => {
      const session = requireSession(request.session);
      await staffSecurity.removeTotp(session, actorOf(session.staff, request.ip));
      return { status: 1 as const, message: 'Your authenticator app was removed.' };
    },
  );

  app.post(
    '/api/admin/my-security/recovery-codes',
    { schema: { tags, response: { 200: RecoveryCodesResponse } } },
    async (request) => {
      const session = requireSession(request.session);
      const recoveryCodes = await staffSecurity.newRecoveryCodes(session, actorOf(session.staff, request.ip));
      return {
        status: 1 as const,
        message: 'New recovery codes made; the old ones no longer work.',
        data: { recoveryCodes },
      };
    },
  );

  app.get(
    '/api/admin/my-sessions',
    { schema: { tags, response: { 200: StaffSessionsResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await staffSecurity.sessions(requireSession(request.session)),
    }),
  );

  app.post(
    '/api/admin/my-sessions/end-others',
    { schema: { tags, response: { 200: MessageOnly } } },
    async (request) => {
      const session = requireSession(request.session);
      const ended = await staffSecurity.endOtherSessions(session, actorOf(session.staff, request.ip));
      return { status: 1 as const, message: ended === 1 ? '1 other session ended.' : `${ended} other sessions ended.` };
    },
  );

  app.post(
    '/api/admin/sessions/:sessionId/end',
    { schema: { tags, params: SessionIdParams, response: { 200: MessageOnly } } },
    async (request) => {
      const session = requireSession(request.session);
      await staffSecurity.endSession(session, request.params.sessionId, actorOf(session.staff, request.ip));
      return { status: 1 as const, message: 'The session was ended.' };
    },
  );

  app.get(
    '/api/admin/team-member-sessions/:id',
    { schema: { tags, params: TeamMemberParams, response: { 200: StaffSessionsResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await staffSecurity.sessions(requireSession(request.session), request.params.id),
    }),
  );

  app.post(
    '/api/admin/team-member-factors/:id/reset',
    { schema: { tags, params: TeamMemberParams, response: { 200: MessageOnly } } },
    async (request) => {
      const session = requireSession(request.session);
      await staffSecurity.resetFactors(session, request.params.id, actorOf(session.staff, request.ip));
      return { status: 1 as const, message: 'Second factor reset; the member was signed out everywhere.' };
    },
  );

  app.get('/api/admin/sign-in-policy', { schema: { tags, response: { 200: SignInPolicyResponse } } }, async () => ({
    status: 1 as const,
    message: 'OK',
    data: await staffSecurity.policy(),
  }));

  app.put(
    '/api/admin/sign-in-policy',
    { schema: { tags, body: SignInPolicyBody, response: { 200: SignInPolicyResponse } } },
    async (request) => {
      const session = requireSession(request.session);
      const data = await staffSecurity.savePolicy(session, request.body.mfaRoles, actorOf(session.staff, request.ip));
      return { status: 1 as const, message: 'Sign-in policy saved.', data };
    },
  );
};

export default staffSecurityRoutes;
