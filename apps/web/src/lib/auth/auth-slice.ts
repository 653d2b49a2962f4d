// Auth state of spec §3/§4: login, logout and change-password. Failures of login and change-password do not
// throw: the thunks return the server's body and the caller decides what to show.
import {
  createAsyncThunk,
  createSlice,
  isFulfilled,
  isPending,
  isRejected,
  type Dispatch,
  type PayloadAction,
} from '@reduxjs/toolkit';
import type {
  ChangePasswordBody,
  LoginBody,
  LoginCodeBody,
  LoginEnrolConfirmBody,
  LoginPasskeyBody,
  PasskeySignInBody,
  SsoCallbackBody,
  StaffType,
  StaffUser,
} from '@eta/contracts';
import { api } from '../api';
import { envelopeStatusOf, messageOf, sendRequest } from '../http';
import { hasStoredUser, removeStoredUser, saveStoredUser } from './session';

export interface AuthState {
  loading: boolean;
  error: string | null;
  data: StaffUser | null;
  isAuth: boolean;
  /** Part of the spec's state shape but never set: the role comes from the token (see useSessionUser). */
  role: StaffType | null;
  userInfoLoading: boolean;
}

/** What the login and change-password calls answer, success or failure. */
export interface AuthResponseBody {
  status?: unknown;
  message?: string;
  jwtToken?: string;
  data?: StaffUser;
  error?: { message?: string };
  /** status 2 (issue 34): the password was right; the second step's challenge and which step it is. */
  challenge?: string;
  next?: 'code' | 'enrol';
  /** For 'code': the member's factors ('totp', 'passkey'); recovery codes always. */
  methods?: ('totp' | 'passkey')[];
  /** A sign-in finished by enrolling: the recovery codes, shown once. */
  recoveryCodes?: string[];
  /** The failure's reason code (TOO_MANY_ATTEMPTS, INVALID_CODE, CHALLENGE_EXPIRED …). */
  code?: string;
}

function toAuthResponseBody(body: unknown): AuthResponseBody {
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  const error = record.error;
  return {
    status: envelopeStatusOf(body),
    message: messageOf(body),
    jwtToken: typeof record.jwtToken === 'string' ? record.jwtToken : undefined,
    data: typeof record.data === 'object' && record.data !== null ? (record.data as StaffUser) : undefined,
    error: typeof error === 'object' && error !== null ? { message: messageOf(error) } : undefined,
    challenge: typeof record.challenge === 'string' ? record.challenge : undefined,
    next: record.next === 'code' || record.next === 'enrol' ? record.next : undefined,
    methods: Array.isArray(record.methods) ? (record.methods as ('totp' | 'passkey')[]) : undefined,
    recoveryCodes: Array.isArray(record.recoveryCodes) ? (record.recoveryCodes as string[]) : undefined,
    code: typeof record.code === 'string' ? record.code : undefined,
  };
}

const NETWORK_FAILURE: AuthResponseBody = {
  status: 0,
  message: 'Unable to reach the server. Please try again.',
};

function keepToken(accessToken: string, dispatch: Dispatch): void {
  // A new user must never see the previous user's cached lists.
  dispatch(api.util.resetApiState());
  saveStoredUser({ accessToken });
}

/**
 * Sends one step of a sign-in and, when it ends in a session, keeps the token; except a sign-in finished by setting
 * up an app, whose recovery codes are shown first (`acceptSession` keeps it once the member has them).
 */
async function signInStep(url: string, body: unknown, dispatch: Dispatch): Promise<AuthResponseBody> {
  const outcome = await sendRequest({ url, method: 'POST', body, staff: false });
  if (outcome.httpStatus === 0) return NETWORK_FAILURE;
  const answer = toAuthResponseBody(outcome.body);
  if (answer.status === 1 && answer.jwtToken && !answer.recoveryCodes) keepToken(answer.jwtToken, dispatch);
  return answer;
}

export const login = createAsyncThunk<AuthResponseBody, LoginBody>('auth/login', (credentials, { dispatch }) =>
  signInStep('admin/admin-login', credentials, dispatch),
);

/** A step of a sign-in other than the password (issue 34), and the call that takes it. */
export type LoginStep =
  | { kind: 'code'; body: LoginCodeBody }
  | { kind: 'enrol'; body: LoginEnrolConfirmBody }
  | { kind: 'passkey'; body: LoginPasskeyBody }
  | { kind: 'passkey-alone'; body: PasskeySignInBody }
  | { kind: 'sso'; body: SsoCallbackBody };

const STEP_URL: Record<LoginStep['kind'], string> = {
  code: 'admin/login-code',
  enrol: 'admin/login-enrol/confirm',
  passkey: 'admin/login-passkey',
  'passkey-alone': 'admin/passkey-sign-in',
  sso: 'admin/sso/callback',
};

/**
 * A step of a sign-in beyond the password: a code or recovery code, the first code of an app being set up, a
 * passkey (after the password, or alone), or the answer a single sign-on provider sent back.
 */
export const loginStep = createAsyncThunk<AuthResponseBody, LoginStep>(
  'auth/loginStep',
  ({ kind, body }, { dispatch }) => signInStep(STEP_URL[kind], body, dispatch),
);

export const changePassword = createAsyncThunk<AuthResponseBody, ChangePasswordBody>(
  'auth/changePassword',
  async (payload) => {
    const outcome = await sendRequest({ url: 'admin/change-password', method: 'POST', body: payload });
    if (outcome.httpStatus === 0) return NETWORK_FAILURE;
    const body = toAuthResponseBody(outcome.body);
    // Spec §4: success removes the stored user, forcing a new login; isAuth itself is left alone.
    if (body.status === 1) removeStoredUser();
    return body;
  },
);

export function createInitialAuthState(): AuthState {
  return {
    loading: false,
    error: null,
    data: null,
    isAuth: hasStoredUser(),
    role: null,
    userInfoLoading: false,
  };
}

const authSlice = createSlice({
  name: 'auth',
  initialState: createInitialAuthState,
  reducers: {
    signedIn(state, action: PayloadAction<StaffUser>) {
      state.isAuth = true;
      state.data = action.payload;
    },
    loggedOut(state) {
      state.loading = false;
      state.error = null;
      state.data = null;
      state.isAuth = false;
    },
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(isPending(login, loginStep), (state) => {
        state.loading = true;
        state.error = null;
      })
      .addMatcher(isRejected(login, loginStep), (state, action) => {
        state.loading = false;
        const payload: unknown = action.payload;
        state.error = toAuthResponseBody(payload).error?.message ?? action.error.message ?? null;
      })
      .addMatcher(isFulfilled(login, loginStep), (state, action) => {
        state.loading = false;
        if (action.payload.data && !action.payload.recoveryCodes) {
          state.isAuth = true;
          state.data = action.payload.data;
        }
        if (action.payload.status !== 1 && action.payload.status !== 2) {
          state.error = action.payload.error?.message ?? action.payload.message ?? null;
        }
      });
  },
});

export const authReducer = authSlice.reducer;

/** A sign-in finished by setting up an app, once its recovery codes were shown: the session starts now. */
export const acceptSession = (token: string, user: StaffUser) => (dispatch: Dispatch) => {
  keepToken(token, dispatch);
  dispatch(authSlice.actions.signedIn(user));
};

/**
 * Logout of spec §2/§4: revokes the token on the server, clears the stored user and resets the auth state. The
 * caller then goes to '/'. The revocation is not awaited: leaving must not wait on the network, and `sendRequest`
 * reads the token before its first await, so the call leaves with the token before the stored user is removed.
 */
export const logout = () => (dispatch: Dispatch) => {
  void sendRequest({ url: 'admin/logout', method: 'POST', endsSessionOn401: false });
  removeStoredUser();
  dispatch(authSlice.actions.loggedOut());
  dispatch(api.util.resetApiState());
};
