// The Activity page (Admin): the audit trail, its people for the filter, and the CSV of the filtered rows (a read of
// personal data on the record).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ActivityCsvQuery, ActivityPeopleResponse, ActivityQuery, ActivityResponse } from '@eta/contracts';
import { attachment } from '../../lib/csv.js';
import { readerOf } from '../../modules/access-records/access-record-writer.js';
import { requireStaff } from '../../plugins/auth.js';

const activityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const activity = app.services.activity;

  app.get(
    '/api/admin/activity',
    { schema: { tags: ['activity'], querystring: ActivityQuery, response: { 200: ActivityResponse } } },
    async (request) => {
      const { limit = 50, ...filter } = request.query;
      return { status: 1 as const, message: 'OK', data: await activity.page({ ...filter, limit }) };
    },
  );

  app.get(
    '/api/admin/activity-people',
    { schema: { tags: ['activity'], response: { 200: ActivityPeopleResponse } } },
    async () => ({ status: 1 as const, message: 'OK', data: await activity.people() }),
  );

  app.get(
    '/api/admin/activity/csv',
    { schema: { tags: ['activity'], querystring: ActivityCsvQuery } },
    async (request, reply) => {
      const { fileName, stream } = await activity.csv(request.query, readerOf(requireStaff(request.staff), request));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(fileName))
        .send(stream);
    },
  );
};

export default activityRoutes;
