// Manage Team calls (spec §7 "Gateway and team"). Changes answer with the server's message; the page shows it.
import type {
  AddTeamMemberBody,
  ApiEnvelope,
  StaffType,
  TeamListPage,
  TeamMember,
  UpdateTeamMemberBody,
} from '@eta/contracts';
import { api } from '../../../lib/api';

export interface TeamListArgs {
  page: number;
  limit: number;
  search: string;
}

const message = (body: ApiEnvelope<unknown>) => body.message;

export const teamApi = api.injectEndpoints({
  endpoints: (build) => ({
    teamList: build.query<TeamListPage, TeamListArgs>({
      query: ({ page, limit, search }) => ({
        url: 'admin/get-team-member-list',
        params: { page, limit, search: search || undefined },
      }),
      transformResponse: (body: ApiEnvelope<TeamListPage>) => body.data!,
      providesTags: ['Team'],
    }),
    teamMember: build.query<TeamMember, number>({
      query: (id) => ({ url: `admin/team-member-info/${id}` }),
      transformResponse: (body: ApiEnvelope<TeamMember>) => body.data!,
      providesTags: ['Team'],
    }),
    teamMemberTypes: build.query<{ type: StaffType; assignable: boolean }[], void>({
      query: () => ({ url: 'admin/get-team-member-type' }),
      transformResponse: (body: ApiEnvelope<{ type: StaffType; assignable: boolean }[]>) => body.data!,
    }),
    addTeamMember: build.mutation<string, AddTeamMemberBody>({
      query: (body) => ({ url: 'admin/add-team-member', method: 'POST', body, silent: true }),
      transformResponse: message,
      invalidatesTags: ['Team'],
    }),
    updateTeamMember: build.mutation<string, UpdateTeamMemberBody>({
      query: (body) => ({ url: 'admin/update-team-member', method: 'POST', body, silent: true }),
      transformResponse: message,
      invalidatesTags: ['Team'],
    }),
    deleteTeamMember: build.mutation<string, number>({
      query: (teamMemberId) => ({ url: 'admin/delete-team-member', method: 'PUT', body: { teamMemberId } }),
      transformResponse: message,
      invalidatesTags: ['Team'],
    }),
  }),
});

export const {
  useTeamListQuery,
  useTeamMemberQuery,
  useTeamMemberTypesQuery,
  useAddTeamMemberMutation,
  useUpdateTeamMemberMutation,
  useDeleteTeamMemberMutation,
} = teamApi;
