// A member's own sign-in (issue 34): confirm it is you, the authenticator app and recovery codes, sessions; and the
// Admin's side: a member's sessions, a factor reset, the sign-in policy. Rules live in StaffSecurityService.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ConfirmIdentityBody,
  MessageOnly,
  MySecurityResponse,
  PasskeyAddedResponse,
  PasskeyIdParams,
  PasskeyRegisterBody,
  RecoveryCodesResponse,
  SessionIdParams,
  SignInPolicyBody,
  SignInPolicyResponse,
  StaffSessionsResponse,
  TeamMemberParams,
  TotpConfirmBody,
  TotpSetupResponse,
  WebAuthnOptionsResponse,
} from '@eta/contracts';
import { actorOf, requireSession } from '../../plugins/auth.js';
import type { WebAuthnAnswer } from '../../modules/auth/passkey.service.js';

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

  app.post(
    '/api/admin/my-security/passkeys/options',
    {
      schema: {
        tags,
        description:
          "WebAuthn options (PublicKeyCredentialCreationOptionsJSON) for the browser's navigator.credentials.create: " +
          'a new passkey for the member, not one of theirs already. After a recent proof; at most 10 passkeys.',
        response: { 200: WebAuthnOptionsResponse },
      },
    },
    async (request) => ({
      status: 1 as const,
      message: 'Follow your browser to make the passkey.',
      data: await staffSecurity.passkeyOptions(requireSession(request.session)),
    }),
  );

  app.post(
    '/api/admin/my-security/passkeys',
    {
      schema: {
        tags,
        description:
          "The browser's answer (RegistrationResponseJSON) with the options' challenge and a name: the passkey is kept " +
          '(its public key only). A first factor also answers ten recovery codes, shown this once.',
        body: PasskeyRegisterBody,
        response: { 200: PasskeyAddedResponse },
      },
    },
    async (request) => {
      const session = requireSession(request.session);
      const { challenge, name, response } = request.body;
      const data = await staffSecurity.addPasskey(
        session,
        challenge,
        name,
        response as WebAuthnAnswer,
        actorOf(session.staff, request.ip),
      );
      return { status: 1 as const, message: `Passkey "${data.passkey.name}" added.`, data };
    },
  );

  app.post(
    '/api/admin/my-security/passkeys/:passkeyId/remove',
    { schema: { tags, params: PasskeyIdParams, response: { 200: MessageOnly } } },
    async (request) => {
      const session = requireSession(request.session);
      await staffSecurity.removePasskey(session, request.params.passkeyId, actorOf(session.staff, request.ip));
      return { status: 1 as const, message: 'The passkey was removed.' };
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
      const data = await staffSecurity.savePolicy(session, request.body, actorOf(session.staff, request.ip));
      return { status: 1 as const, message: 'Sign-in policy saved.', data };
    },
  );
};

export default staffSecurityRoutes;
