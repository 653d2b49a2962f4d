// Staff order queues (spec §7 "Staff orders").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FolderCountQuery, FolderCountResponse } from '@eta/contracts';
import { requireStaff } from '../../plugins/auth.js';

const ordersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/admin/get-folder-count',
    { schema: { tags: ['orders'], querystring: FolderCountQuery, response: { 200: FolderCountResponse } } },
    async (request) => ({
      status: 1 as const,
      message: 'OK',
      data: await app.services.orders.folderCounts(requireStaff(request.staff).id),
    }),
  );
};

export default ordersRoutes;
