// Spec §2 "Manage Team", §3 "Team member", §5 and §7 "Gateway and team": staff accounts as the Admin and
// Manager see them. No call ever carries a password or its hash out; the table shows TEAM_PASSWORD_MASK.
import { Type, type Static } from 'typebox';
import { MAX_PAGE_SIZE, STAFF_TYPES } from './domain.js';
import { Envelope } from './envelope.js';

export const TeamMember = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  /** Always TEAM_PASSWORD_MASK. */
  password: Type.String(),
  type: Type.Enum(STAFF_TYPES),
  /** Spec §3: the list shows the type as memberRole. */
  memberRole: Type.Enum(STAFF_TYPES),
  created_at: Type.String(),
});
export type TeamMember = Static<typeof TeamMember>;

export const TeamListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 })),
  /** Part of a name or e-mail, any case. */
  search: Type.Optional(Type.String({ maxLength: 200 })),
});
export type TeamListQuery = Static<typeof TeamListQuery>;
export const TeamListPage = Type.Object({
  rows: Type.Array(TeamMember),
  total: Type.Integer({ minimum: 0 }),
  page: Type.Integer(),
  limit: Type.Integer(),
});
export type TeamListPage = Static<typeof TeamListPage>;
export const TeamListResponse = Envelope(TeamListPage);

/** Fields are checked by the service so every missing or wrong one is named at once, in the spec's words. */
const text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
export const AddTeamMemberBody = Type.Object({
  name: text(200),
  email: text(254),
  password: text(1024),
  type: text(40),
});
export type AddTeamMemberBody = Static<typeof AddTeamMemberBody>;

/** Spec §7 `update-team-member {name, email, password, type, tmId}`; an empty password keeps the current one. */
export const UpdateTeamMemberBody = Type.Object({
  tmId: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'Please choose a team member.' }),
  name: text(200),
  email: text(254),
  password: text(1024),
  type: text(40),
});
export type UpdateTeamMemberBody = Static<typeof UpdateTeamMemberBody>;

export const DeleteTeamMemberBody = Type.Object({
  teamMemberId: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'Please choose a team member.' }),
});
export type DeleteTeamMemberBody = Static<typeof DeleteTeamMemberBody>;

export const TeamMemberParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
export const TeamMemberResponse = Envelope(TeamMember);

/** Spec §7 `get-team-member-type`: the five types, and which of them the caller may give. */
export const TeamMemberTypes = Type.Array(Type.Object({ type: Type.Enum(STAFF_TYPES), assignable: Type.Boolean() }));
export const TeamMemberTypesResponse = Envelope(TeamMemberTypes);
