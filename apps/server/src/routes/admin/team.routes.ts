// Manage Team (spec §2, §7 "Gateway and team"): list, add, view, edit and delete (deactivate) staff members.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddTeamMemberBody,
  DeleteTeamMemberBody,
  MessageOnly,
  TEAM_MESSAGES,
  TeamListQuery,
  TeamListResponse,
  TeamMemberParams,
  TeamMemberResponse,
  TeamMemberTypesResponse,
  UpdateTeamMemberBody,
} from '@eta/contracts';
import { actorOf, requireSession, requireStaff } from '../../plugins/auth.js';

const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const team = app.services.team;

  app.get(
    '/api/admin/get-team-member-list',
    { schema: { tags: ['team'], querystring: TeamListQuery, response: { 200: TeamListResponse } } },
    async (request) => {
      const { page = 1, limit = 10, search = '' } = request.query;
      return { status: 1 as const, message: 'OK', data: await team.list({ page, limit, search }) };
    },
  );

  app.get(
    '/api/admin/get-team-member-type',
    { schema: { tags: ['team'], response: { 200: TeamMemberTypesResponse } } },
    async (request) => ({ status: 1 as const, message: 'OK', data: team.types(requireStaff(request.staff)) }),
  );

  app.get(
    '/api/admin/team-member-info/:id',
    { schema: { tags: ['team'], params: TeamMemberParams, response: { 200: TeamMemberResponse } } },
    async (request) => ({ status: 1 as const, message: 'OK', data: await team.info(request.params.id) }),
  );

  app.post(
    '/api/admin/add-team-member',
    { schema: { tags: ['team'], body: AddTeamMemberBody, response: { 200: TeamMemberResponse } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      const data = await team.add(staff, actorOf(staff, request.ip), request.body);
      return { status: 1 as const, message: 'Team member added successfully.', data };
    },
  );

  app.post(
    '/api/admin/update-team-member',
    { schema: { tags: ['team'], body: UpdateTeamMemberBody, response: { 200: TeamMemberResponse } } },
    async (request) => {
      const session = requireSession(request.session);
      const { tmId, ...fields } = request.body;
      const data = await team.update(session, actorOf(session.staff, request.ip), tmId, fields);
      return { status: 1 as const, message: 'Team member updated successfully.', data };
    },
  );

  app.put(
    '/api/admin/delete-team-member',
    { schema: { tags: ['team'], body: DeleteTeamMemberBody, response: { 200: MessageOnly } } },
    async (request) => {
      const staff = requireStaff(request.staff);
      await team.remove(staff, actorOf(staff, request.ip), request.body.teamMemberId);
      return { status: 1 as const, message: TEAM_MESSAGES.deleted };
    },
  );
};

export default teamRoutes;
