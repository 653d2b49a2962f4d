// Retention and legal hold (Admin, issue 24): the policy per landing site, the retention job's runs with Dry run and
// Run now, and an order's legal hold.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  LegalHoldResponse,
  PlaceLegalHoldBody,
  ReleaseLegalHoldBody,
  RetentionOverviewResponse,
  RetentionPolicyParams,
  RetentionPolicyResponse,
  RetentionRunParams,
  RetentionRunResponse,
  StartRetentionRunBody,
  UpdateRetentionPolicyBody,
} from '@eta/contracts';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const retentionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const retention = app.services.retention;

  app.get(
    '/api/admin/retention',
    { schema: { tags: ['retention'], response: { 200: RetentionOverviewResponse } } },
    async () => ({ status: 1 as const, message: 'OK', data: await retention.overview() }),
  );

  app.put(
    '/api/admin/retention/policies/:key',
    {
      schema: {
        tags: ['retention'],
        params: RetentionPolicyParams,
        body: UpdateRetentionPolicyBody,
        response: { 200: RetentionPolicyResponse },
      },
    },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await retention.updatePolicy(actorOf(staff, request.ip), request.params.key, request.body.months);
      return { status: 1 as const, message: `${data.displayName} keeps personal data ${data.months} months.`, data };
    },
  );

  app.post(
    '/api/admin/retention/runs',
    {
      schema: {
        tags: ['retention'],
        description: 'Starts a retention run (or a dry run, which changes nothing); it goes on in the background.',
        body: StartRetentionRunBody,
        response: { 200: RetentionRunResponse },
      },
    },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await retention.start(actorOf(staff, request.ip), request.body.dryRun);
      return { status: 1 as const, message: data.dryRun ? 'Dry run started.' : 'Retention run started.', data };
    },
  );

  app.get(
    '/api/admin/retention/runs/:id',
    { schema: { tags: ['retention'], params: RetentionRunParams, response: { 200: RetentionRunResponse } } },
    async (request) => ({ status: 1 as const, message: 'OK', data: await retention.run(request.params.id) }),
  );

  app.post(
    '/api/admin/legal-hold',
    { schema: { tags: ['retention'], body: PlaceLegalHoldBody, response: { 200: LegalHoldResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const hold = await retention.setLegalHold(actorOf(staff, request.ip), request.body.orderId, request.body.reason);
      return {
        status: 1 as const,
        message: 'Legal hold placed: no erasure touches this order until it is released.',
        data: { orderId: request.body.orderId.trim().toUpperCase(), ...(hold ? { legalHold: hold } : {}) },
      };
    },
  );

  app.post(
    '/api/admin/legal-hold/release',
    { schema: { tags: ['retention'], body: ReleaseLegalHoldBody, response: { 200: LegalHoldResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      await retention.setLegalHold(actorOf(staff, request.ip), request.body.orderId, null);
      return {
        status: 1 as const,
        message: 'Legal hold released.',
        data: { orderId: request.body.orderId.trim().toUpperCase() },
      };
    },
  );
};

export default retentionRoutes;
