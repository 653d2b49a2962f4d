// Staff sign-in, the current user, logout and password change (spec §7 "Authentication and account").
// Sign-in limits are applied by the auth service (modules/auth/login-throttle.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChangePasswordBody, LoginBody, LoginResponse, MessageOnly, UserInfoResponse } from '@eta/contracts';
import { actorOf, requireSession, requireStaff } from '../../plugins/auth.js';
import { toStaffUser } from '../../modules/auth/auth.service.js';

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const auth = app.services.auth;

  app.post(
    '/api/admin/admin-login',
    { schema: { tags: ['auth'], body: LoginBody, response: { 200: LoginResponse } } },
    async (request) => {
      const { token, user } = await auth.login(request.body.email, request.body.password, request.ip);
      return { status: 1 as const, message: 'Login successful.', jwtToken: token, data: user };
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
      const staff = requireStaff(request.staff);
      await auth.changePassword(staff, request.body.newPassword, actorOf(staff, request.ip));
      return { status: 1 as const, message: 'Password updated successfully. Please sign in again.' };
    },
  );
};

export default authRoutes;
