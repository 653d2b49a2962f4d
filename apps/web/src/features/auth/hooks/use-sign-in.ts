// Sign-in of spec §4 "Auth": success toasts the server's message and goes on; failure toasts the message. The
// failures' toasts go once sign-in succeeds: an old "wrong password" beside "Welcome back" would contradict it.
import { useCallback, useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast, type Id } from 'react-toastify';
import type { LoginBody } from '@eta/contracts';
import { login } from '../../../lib/auth/auth-slice';
import { useAppDispatch, useAppSelector } from '../../../lib/store';

export function useSignIn(redirectTo: string) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isSigningIn = useAppSelector((state) => state.auth.loading);
  const failureToasts = useRef<Id[]>([]);

  const signIn = useCallback(
    async (credentials: LoginBody) => {
      const showFailure = (message: string) => failureToasts.current.push(toast.error(message));
      const result = await dispatch(login(credentials));
      if (login.rejected.match(result)) {
        showFailure(result.error.message ?? 'Sign-in failed.');
        return;
      }
      const body = result.payload;
      if (body.status === 1) {
        failureToasts.current.forEach((id) => toast.dismiss(id));
        failureToasts.current = [];
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
