// Sign-in of spec §4 "Auth": success toasts the server's message and goes on; failure toasts the message.
// A failure shows one toast however often Sign In is clicked: a second failure while it is up replaces its text
// (seven clicks while locked out stacked seven copies, issue 22). Once sign-in succeeds, that toast and the
// expired-session toast go: an old "wrong password" beside "Login successful" would contradict it.
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { toast, type Id } from 'react-toastify';
import type { LoginBody } from '@eta/contracts';
import { login } from '../../../lib/auth/auth-slice';
import { SESSION_EXPIRED_TOAST_ID } from '../../../lib/http';
import { useAppDispatch, useAppSelector } from '../../../lib/store';

/** The sign-in failure toast on screen, if any. Kept outside the page, which may be mounted again between tries. */
let failureToast: Id | null = null;

function showFailure(message: string): void {
  if (failureToast !== null && toast.isActive(failureToast)) {
    toast.update(failureToast, { render: message });
    return;
  }
  failureToast = toast.error(message);
}

function dismissSignInErrors(): void {
  if (failureToast !== null) toast.dismiss(failureToast);
  failureToast = null;
  toast.dismiss(SESSION_EXPIRED_TOAST_ID);
}

export function useSignIn(redirectTo: string) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isSigningIn = useAppSelector((state) => state.auth.loading);

  const signIn = useCallback(
    async (credentials: LoginBody) => {
      const result = await dispatch(login(credentials));
      if (login.rejected.match(result)) {
        showFailure(result.error.message ?? 'Sign-in failed.');
        return;
      }
      const body = result.payload;
      if (body.status === 1) {
        dismissSignInErrors();
        toast.success(body.message ?? 'Signed in.');
        void navigate(redirectTo, { replace: true });
        return;
      }
      const message = body.message ?? body.error?.message;
      if (message) showFailure(message);
    },
    [dispatch, navigate, redirectTo],
  );

  return { signIn, isSigningIn };
}
