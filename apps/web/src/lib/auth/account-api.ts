// A member's own sign-in (issue 34): the authenticator app, recovery codes, sessions, the recent proof asked before an
// account changes hands; and the Admin's: a member's sessions, a factor reset, the sign-in policy. Calls refused for
// want of a recent proof are silent: the page asks for the proof (useRecentProof) and tries again.
import type {
  ApiEnvelope,
  ConfirmIdentityBody,
  MySecurity,
  Passkey,
  RecoveryCodes,
  SignInOptions,
  SignInPolicy,
  SignInPolicyBody,
  StaffSession,
  TotpSetup,
} from '@eta/contracts';
import { api, type ApiError } from '../api';

const needsProof = (error: ApiError) => error.code === 'RECENT_PROOF_REQUIRED';

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    mySecurity: build.query<MySecurity, void>({
      query: () => ({ url: 'admin/my-security' }),
      transformResponse: (body: ApiEnvelope<MySecurity>) => body.data!,
      providesTags: ['MySecurity'],
    }),
    signInOptions: build.query<SignInOptions, void>({
      // Other ways to sign in are an offer: when they cannot be read, the password form is all there is, silently.
      query: () => ({ url: 'admin/sign-in-options', isPublic: true, silent: true }),
      transformResponse: (body: ApiEnvelope<SignInOptions>) => body.data!,
    }),
    passkeyOptions: build.mutation<object, void>({
      query: () => ({ url: 'admin/my-security/passkeys/options', method: 'POST', silent: needsProof }),
      transformResponse: (body: ApiEnvelope<object>) => body.data!,
    }),
    addPasskey: build.mutation<
      { passkey: Passkey; recoveryCodes: string[] | null },
      { challenge: string; name: string; response: object }
    >({
      query: (body) => ({ url: 'admin/my-security/passkeys', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<{ passkey: Passkey; recoveryCodes: string[] | null }>) => body.data!,
      invalidatesTags: ['MySecurity'],
    }),
    removePasskey: build.mutation<string, string>({
      query: (id) => ({
        url: `admin/my-security/passkeys/${encodeURIComponent(id)}/remove`,
        method: 'POST',
        silent: needsProof,
      }),
      transformResponse: (body: ApiEnvelope) => body.message,
      invalidatesTags: ['MySecurity'],
    }),
    startTotp: build.mutation<TotpSetup, void>({
      query: () => ({ url: 'admin/my-security/totp', method: 'POST', silent: needsProof }),
      transformResponse: (body: ApiEnvelope<TotpSetup>) => body.data!,
    }),
    confirmTotp: build.mutation<string[], { code: string }>({
      query: (body) => ({ url: 'admin/my-security/totp/confirm', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<RecoveryCodes>) => body.data!.recoveryCodes,
      invalidatesTags: ['MySecurity'],
    }),
    removeTotp: build.mutation<string, void>({
      query: () => ({ url: 'admin/my-security/totp/remove', method: 'POST', silent: needsProof }),
      transformResponse: (body: ApiEnvelope) => body.message,
      invalidatesTags: ['MySecurity'],
    }),
    newRecoveryCodes: build.mutation<string[], void>({
      query: () => ({ url: 'admin/my-security/recovery-codes', method: 'POST', silent: needsProof }),
      transformResponse: (body: ApiEnvelope<RecoveryCodes>) => body.data!.recoveryCodes,
      invalidatesTags: ['MySecurity'],
    }),
    // The dialog says what was wrong itself.
    confirmIdentity: build.mutation<string, ConfirmIdentityBody>({
      query: (body) => ({ url: 'admin/confirm-identity', method: 'POST', body, silent: true }),
      transformResponse: (body: ApiEnvelope) => body.message,
    }),
    mySessions: build.query<StaffSession[], void>({
      query: () => ({ url: 'admin/my-sessions' }),
      transformResponse: (body: ApiEnvelope<StaffSession[]>) => body.data!,
      providesTags: ['Sessions'],
    }),
    memberSessions: build.query<StaffSession[], number>({
      query: (id) => ({ url: `admin/team-member-sessions/${id}` }),
      transformResponse: (body: ApiEnvelope<StaffSession[]>) => body.data!,
      providesTags: ['Sessions'],
    }),
    endSession: build.mutation<string, string>({
      query: (id) => ({ url: `admin/sessions/${encodeURIComponent(id)}/end`, method: 'POST' }),
      transformResponse: (body: ApiEnvelope) => body.message,
      invalidatesTags: ['Sessions'],
    }),
    endOtherSessions: build.mutation<string, void>({
      query: () => ({ url: 'admin/my-sessions/end-others', method: 'POST' }),
      transformResponse: (body: ApiEnvelope) => body.message,
      invalidatesTags: ['Sessions'],
    }),
    resetFactors: build.mutation<string, number>({
      query: (id) => ({ url: `admin/team-member-factors/${id}/reset`, method: 'POST', silent: needsProof }),
      transformResponse: (body: ApiEnvelope) => body.message,
      invalidatesTags: ['Sessions'],
    }),
    signInPolicy: build.query<SignInPolicy, void>({
      query: () => ({ url: 'admin/sign-in-policy' }),
      transformResponse: (body: ApiEnvelope<SignInPolicy>) => body.data!,
      providesTags: ['SignInPolicy'],
    }),
    saveSignInPolicy: build.mutation<SignInPolicy, SignInPolicyBody>({
      query: (body) => ({ url: 'admin/sign-in-policy', method: 'PUT', body, silent: needsProof }),
      transformResponse: (body: ApiEnvelope<SignInPolicy>) => body.data!,
      invalidatesTags: ['SignInPolicy', 'MySecurity'],
    }),
  }),
});

export const {
  useSignInOptionsQuery,
  usePasskeyOptionsMutation,
  useAddPasskeyMutation,
  useRemovePasskeyMutation,
  useMySecurityQuery,
  useStartTotpMutation,
  useConfirmTotpMutation,
  useRemoveTotpMutation,
  useNewRecoveryCodesMutation,
  useConfirmIdentityMutation,
  useMySessionsQuery,
  useMemberSessionsQuery,
  useEndSessionMutation,
  useEndOtherSessionsMutation,
  useResetFactorsMutation,
  useSignInPolicyQuery,
  useSaveSignInPolicyMutation,
} = accountApi;
