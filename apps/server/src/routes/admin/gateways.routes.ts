// Gateway Setting (spec §2 "Change Gateway", §7): the gateways without their secrets, and the switch.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GatewayListResponse, GatewaySettingBody, GatewaySettingResponse } from '@eta/contracts';
import { actorOf, requireStaff } from '../../plugins/auth.js';

const gatewaysRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const gateways = app.services.gateways;

  app.get(
    '/api/admin/payment-gateways',
    { schema: { tags: ['gateways'], response: { 200: GatewayListResponse } } },
    async () => ({ status: 1 as const, message: 'OK', data: await gateways.list() }),
  );

  app.post(
    '/api/admin/payment-gateway-setting',
    { schema: { tags: ['gateways'], body: GatewaySettingBody, response: { 200: GatewaySettingResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const { gateway, message } = await gateways.activate(
        actorOf(staff, request.ip),
        request.body.gatewayId,
        request.body.activateNotConfigured,
      );
      return { status: 1 as const, message, data: gateway };
    },
  );
};

export default gatewaysRoutes;
