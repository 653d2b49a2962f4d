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

/**
 * The password was right and a second step is needed (issue 34): `status` 2, no token. `next` says which: 'code' (a
 * code from the authenticator app, or a recovery code) or 'enrol' (the sign-in policy asks this member for a second
 * factor they do not have yet). The challenge is single use and ends after CHALLENGE_MINUTES.
 */
export const LoginChallengeResponse = Type.Object({
  status: Type.Literal(2),
  message: Type.String(),
  challenge: Type.String(),
  next: Type.Union([Type.Literal('code'), Type.Literal('enrol')]),
});
export type LoginChallengeResponse = Static<typeof LoginChallengeResponse>;
export const LoginAnswer = Type.Union([LoginResponse, LoginChallengeResponse]);
export type LoginAnswer = Static<typeof LoginAnswer>;

/** How long the step between the password and the code lasts. */
export const CHALLENGE_MINUTES = 5;
/** How long a password or code given counts as a recent proof for the calls that take an account over. */
export const RECENT_PROOF_MINUTES = 5;

const Code = Type.String({ minLength: 1, maxLength: 64 });
const Challenge = Type.String({ minLength: 16, maxLength: 128 });

/** The second step: a code from the app, or one of the recovery codes. */
export const LoginCodeBody = Type.Object({
  challenge: Challenge,
  code: Type.Optional(Code),
  recoveryCode: Type.Optional(Code),
});
export type LoginCodeBody = Static<typeof LoginCodeBody>;

export const LoginEnrolBody = Type.Object({ challenge: Challenge });
export type LoginEnrolBody = Static<typeof LoginEnrolBody>;

export const LoginEnrolConfirmBody = Type.Object({ challenge: Challenge, code: Code });
export type LoginEnrolConfirmBody = Static<typeof LoginEnrolConfirmBody>;

/** What an authenticator app needs, shown once while enrolling: never again after the first code confirms it. */
export const TotpSetup = Type.Object({ secret: Type.String(), uri: Type.String(), qrSvg: Type.String() });
export type TotpSetup = Static<typeof TotpSetup>;
export const TotpSetupResponse = Envelope(TotpSetup);

export const RecoveryCodes = Type.Object({ recoveryCodes: Type.Array(Type.String()) });
export type RecoveryCodes = Static<typeof RecoveryCodes>;
export const RecoveryCodesResponse = Envelope(RecoveryCodes);

/** A sign-in completed by enrolling: the session, and the recovery codes to keep (shown this once). */
export const LoginEnrolledResponse = Type.Object({
  ...LoginResponse.properties,
  recoveryCodes: RecoveryCodes.properties.recoveryCodes,
});
export type LoginEnrolledResponse = Static<typeof LoginEnrolledResponse>;

/** Proof that the person at the keyboard is the member: their password or a code (the app's or a recovery code). */
export const ConfirmIdentityBody = Type.Object({
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  code: Type.Optional(Code),
});
export type ConfirmIdentityBody = Static<typeof ConfirmIdentityBody>;

export const TotpConfirmBody = Type.Object({ code: Code });
export type TotpConfirmBody = Static<typeof TotpConfirmBody>;

export const MySecurity = Type.Object({
  /** The sign-in policy asks this member's role for a second factor. */
  mfaRequired: Type.Boolean(),
  totpEnabled: Type.Boolean(),
  totpEnrolledAt: Type.Union([Type.String(), Type.Null()]),
  recoveryCodesLeft: Type.Integer(),
});
export type MySecurity = Static<typeof MySecurity>;
export const MySecurityResponse = Envelope(MySecurity);

/** A signed-in session as its owner (or an Admin) sees it. */
export const StaffSession = Type.Object({
  id: Type.String(),
  browser: Type.String(),
  os: Type.String(),
  device: Type.String(),
  ip: Type.String(),
  location: Type.String(),
  signedInAt: Type.String(),
  lastSeenAt: Type.String(),
  expiresAt: Type.String(),
  endedAt: Type.Union([Type.String(), Type.Null()]),
  endedBy: Type.Union([Type.String(), Type.Null()]),
  /** 'totp' or 'recovery' when the sign-in gave a second factor; null for a password alone. */
  secondFactor: Type.Union([Type.String(), Type.Null()]),
  /** The session this call came from. */
  current: Type.Boolean(),
});
export type StaffSession = Static<typeof StaffSession>;
export const StaffSessionsResponse = Envelope(Type.Array(StaffSession));

export const SessionIdParams = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 64 }) });
export type SessionIdParams = Static<typeof SessionIdParams>;

export const SignInPolicy = Type.Object({
  mfaRoles: Type.Array(StaffTypeSchema),
  /** 'environment' until an Admin first saves the policy (STAFF_MFA_ROLES), then 'admin'. */
  source: Type.Union([Type.Literal('environment'), Type.Literal('admin')]),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});
export type SignInPolicy = Static<typeof SignInPolicy>;
export const SignInPolicyResponse = Envelope(SignInPolicy);
export const SignInPolicyBody = Type.Object({
  mfaRoles: Type.Array(StaffTypeSchema, { maxItems: 5, uniqueItems: true }),
});
export type SignInPolicyBody = Static<typeof SignInPolicyBody>;

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
