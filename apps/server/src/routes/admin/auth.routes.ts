// Staff sign-in, the current user and password change (spec §7 "Authentication and account").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChangePasswordBody, LoginBody, LoginResponse, MessageOnly, UserInfoResponse } from '@eta/contracts';
import { AppError } from '../../lib/errors.js';
import { actorOf, requireStaff } from '../../plugins/auth.js';
import { toStaffUser } from '../../modules/auth/auth.service.js';

const FIVE_MINUTES = 5 * 60_000;
const FIFTEEN_MINUTES = 15 * 60_000;

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Per account: only failed attempts count, so a locked-out attacker cannot lock the owner out forever.
  const accountLimit = app.createRateLimit({
    max: app.config.loginFailuresPerAccount,
    timeWindow: FIFTEEN_MINUTES,
    keyGenerator: (req) =>
      `login-account:${String((req.body as { email?: unknown } | undefined)?.email ?? '')
        .trim()
        .toLowerCase()}`,
  });

  app.post(
    '/api/admin/admin-login',
    {
      schema: { tags: ['auth'], body: LoginBody, response: { 200: LoginResponse } },
      config: {
        rateLimit: {
          max: app.config.loginLimitPerIp,
          timeWindow: FIVE_MINUTES,
          errorResponseBuilder: (_req, ctx) =>
            new AppError(
              'TOO_MANY_REQUESTS',
              `Too many sign-in attempts from your network. Please wait ${minutes(ctx.ttl)} minute(s) and try again.`,
            ),
        },
      },
    },
    async (request) => {
      const peek = await accountLimit(request, { increment: false });
      if (!peek.isAllowed && peek.remaining <= 0) {
        throw new AppError(
          'TOO_MANY_REQUESTS',
          `Too many failed sign-in attempts for this account. Please wait ${minutes(peek.ttl)} minute(s) and try again.`,
        );
      }
      try {
        const { token, user } = await app.services.auth.login(request.body.email, request.body.password, request.ip);
        return { status: 1 as const, message: 'Login successful.', jwtToken: token, data: user };
      } catch (err) {
        if (err instanceof AppError && err.code === 'UNAUTHORIZED') await accountLimit(request);
        throw err;
      }
    },
  );

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
      await app.services.auth.changePassword(staff, request.body.newPassword, actorOf(staff, request.ip));
      return { status: 1 as const, message: 'Password updated successfully. Please sign in again.' };
    },
  );
};

export default authRoutes;
