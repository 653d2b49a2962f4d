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
  /** For 'code': the member's factors ('totp' an authenticator app, 'passkey' a passkey); recovery codes always. */
  methods: Type.Optional(Type.Array(Type.Union([Type.Literal('totp'), Type.Literal('passkey')]))),
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

/** A member's passkey as they see it: its name and dates, never a key. */
export const Passkey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});
export type Passkey = Static<typeof Passkey>;

export const MySecurity = Type.Object({
  /** The sign-in policy asks this member's role for a second factor. */
  mfaRequired: Type.Boolean(),
  /** The sign-in policy has this member's role sign in through single sign-on only. */
  ssoRequired: Type.Boolean(),
  totpEnabled: Type.Boolean(),
  totpEnrolledAt: Type.Union([Type.String(), Type.Null()]),
  recoveryCodesLeft: Type.Integer(),
  passkeys: Type.Array(Passkey),
  /** A passkey alone may sign in (the Admin's policy). */
  passwordlessPasskeys: Type.Boolean(),
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

/** Single sign-on as this server is set up for it (SSO_ISSUER …): its button's name, or not set up. */
export const SsoSetup = Type.Object({ configured: Type.Boolean(), name: Type.String() });

export const SignInPolicy = Type.Object({
  mfaRoles: Type.Array(StaffTypeSchema),
  /** A passkey alone (with the device's own check: PIN, fingerprint, face) may sign in, without the password. */
  passwordlessPasskeys: Type.Boolean(),
  /** Roles that must sign in through single sign-on: their password no longer signs them in. */
  ssoRoles: Type.Array(StaffTypeSchema),
  /** People of this e-mail domain get a Team account at their first SSO sign-in; null: SSO signs in members only. */
  ssoCreateDomain: Type.Union([Type.String(), Type.Null()]),
  sso: SsoSetup,
  /** 'environment' until an Admin first saves the policy (STAFF_MFA_ROLES), then 'admin'. */
  source: Type.Union([Type.Literal('environment'), Type.Literal('admin')]),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});
export type SignInPolicy = Static<typeof SignInPolicy>;
export const SignInPolicyResponse = Envelope(SignInPolicy);
/** The policy to save; a field left out keeps its value. */
export const SignInPolicyBody = Type.Object({
  mfaRoles: Type.Array(StaffTypeSchema, { maxItems: 5, uniqueItems: true }),
  passwordlessPasskeys: Type.Optional(Type.Boolean()),
  ssoRoles: Type.Optional(Type.Array(StaffTypeSchema, { maxItems: 5, uniqueItems: true })),
  ssoCreateDomain: Type.Optional(
    Type.Union([
      Type.String({
        maxLength: 253,
        pattern: '^$|^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$',
        errorMessage: 'Enter an e-mail domain such as example.com, or leave it empty.',
      }),
      Type.Null(),
    ]),
  ),
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

/** What the sign-in page offers besides the password (public). */
export const SignInOptions = Type.Object({
  /** The single sign-on button's provider name, or null when SSO is not set up. */
  sso: Type.Union([Type.Object({ name: Type.String() }), Type.Null()]),
  /** "Sign in with a passkey" (a passkey alone) is allowed. */
  passkeys: Type.Boolean(),
});
export type SignInOptions = Static<typeof SignInOptions>;
export const SignInOptionsResponse = Envelope(SignInOptions);

/**
 * A WebAuthn answer from the browser (@simplewebauthn/browser's RegistrationResponseJSON or
 * AuthenticationResponseJSON), checked by the server's WebAuthn library.
 */
export const WebAuthnAnswer = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 1024 }),
    rawId: Type.String({ maxLength: 1024 }),
    type: Type.Literal('public-key'),
    response: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: true },
);

/** Options for the browser's WebAuthn call (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON). */
export const WebAuthnOptionsResponse = Envelope(Type.Object({}, { additionalProperties: true }));

export const PasskeyName = Type.String({
  minLength: 1,
  maxLength: 60,
  errorMessage: 'Give the passkey a name of 1 to 60 characters (e.g. "Work laptop").',
});

/** A new passkey: the WebAuthn challenge it signed (from the options), its name, and the browser's answer. */
export const PasskeyRegisterBody = Type.Object({
  challenge: Type.String({ minLength: 16, maxLength: 128 }),
  name: PasskeyName,
  response: WebAuthnAnswer,
});
export type PasskeyRegisterBody = Static<typeof PasskeyRegisterBody>;

export const PasskeyAddedResponse = Envelope(
  Type.Object({ passkey: Passkey, recoveryCodes: Type.Union([Type.Array(Type.String()), Type.Null()]) }),
);

export const PasskeyIdParams = Type.Object({ passkeyId: Type.String({ minLength: 1, maxLength: 1024 }) });
export type PasskeyIdParams = Static<typeof PasskeyIdParams>;

/** The second step with a passkey: the sign-in's challenge and the browser's answer. */
export const LoginPasskeyBody = Type.Object({ challenge: Challenge, response: WebAuthnAnswer });
export type LoginPasskeyBody = Static<typeof LoginPasskeyBody>;

/** A sign-in with a passkey alone: the browser's answer (it carries the WebAuthn challenge it signed). */
export const PasskeySignInBody = Type.Object({ response: WebAuthnAnswer });
export type PasskeySignInBody = Static<typeof PasskeySignInBody>;

/** Where to send the browser for single sign-on, and the state it must come back with. */
export const SsoStartResponse = Envelope(Type.Object({ url: Type.String(), state: Type.String() }));

/** The provider's answer as it arrived at /login/sso (its query string), and the state this browser started with. */
export const SsoCallbackBody = Type.Object({
  callback: Type.String({ minLength: 1, maxLength: 8192 }),
  state: Type.String({ minLength: 16, maxLength: 128 }),
});
export type SsoCallbackBody = Static<typeof SsoCallbackBody>;
