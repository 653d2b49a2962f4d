import { Type, type Static } from 'typebox';
import { STAFF_TYPES, MIN_PASSWORD_LENGTH } from './domain.js';
import { Envelope } from './envelope.js';

export const StaffTypeSchema = Type.Enum(STAFF_TYPES);

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type LoginBody = Static<typeof LoginBody>;

/** The signed-in staff member as the API shows them; never carries a password or hash. */
export const StaffUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  type: StaffTypeSchema,
});
export type StaffUser = Static<typeof StaffUser>;

export const LoginResponse = Type.Object({
  status: Type.Literal(1),
  message: Type.String(),
  jwtToken: Type.String(),
  data: StaffUser,
});
export type LoginResponse = Static<typeof LoginResponse>;

export const UserInfoResponse = Envelope(StaffUser);

export const ChangePasswordBody = Type.Object({
  newPassword: Type.String({
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: 1024,
    errorMessage: `New Password must be at least ${MIN_PASSWORD_LENGTH} characters.`,
  }),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** Claims of the staff JWT; the web app decodes name and type (spec §3 "Stored user session"). */
export interface StaffTokenClaims {
  sub: string;
  name: string;
  type: (typeof STAFF_TYPES)[number];
  iat: number;
  exp: number;
}
