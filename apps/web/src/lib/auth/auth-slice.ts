// Auth state of spec §3/§4: login, logout and change-password. Failures of login and change-password do not
// throw: the thunks return the server's body and the caller decides what to show.
import { createAsyncThunk, createSlice, type Dispatch } from '@reduxjs/toolkit';
import type { ChangePasswordBody, LoginBody, StaffType, StaffUser } from '@eta/contracts';
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
  };
}

const NETWORK_FAILURE: AuthResponseBody = {
  status: 0,
  message: 'Unable to reach the server. Please try again.',
};

export const login = createAsyncThunk<AuthResponseBody, LoginBody>('auth/login', async (credentials, { dispatch }) => {
  const outcome = await sendRequest({
    url: 'admin/admin-login',
    method: 'POST',
    body: credentials,
    staff: false,
  });
  if (outcome.httpStatus === 0) return NETWORK_FAILURE;
  const body = toAuthResponseBody(outcome.body);
  if (body.status === 1 && body.jwtToken) {
    // A new user must never see the previous user's cached lists.
    dispatch(api.util.resetApiState());
    saveStoredUser({ accessToken: body.jwtToken });
  }
  return body;
});

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
    loggedOut(state) {
      state.loading = false;
      state.error = null;
      state.data = null;
      state.isAuth = false;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(login.pending, (state) => {
        state.loading = true;
        state.error = null;
      })
      .addCase(login.rejected, (state, action) => {
        state.loading = false;
        const payload: unknown = action.payload;
        state.error = toAuthResponseBody(payload).error?.message ?? action.error.message ?? null;
      })
      .addCase(login.fulfilled, (state, action) => {
        state.loading = false;
        if (action.payload.data) {
          state.isAuth = true;
          state.data = action.payload.data;
        }
        if (action.payload.status !== 1) {
          state.error = action.payload.error?.message ?? action.payload.message ?? null;
        }
      });
  },
});

export const authReducer = authSlice.reducer;

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
