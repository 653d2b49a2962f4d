// Sign-in of spec §4 "Auth": success toasts the server's message and goes on; failure toasts the message.
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { LoginBody } from '@eta/contracts';
import { login } from '../../../lib/auth/auth-slice';
import { useAppDispatch, useAppSelector } from '../../../lib/store';

export function useSignIn(redirectTo: string) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isSigningIn = useAppSelector((state) => state.auth.loading);

  const signIn = useCallback(
    async (credentials: LoginBody) => {
      const result = await dispatch(login(credentials));
      if (login.rejected.match(result)) {
        toast.error(result.error.message ?? 'Sign-in failed.');
        return;
      }
      const body = result.payload;
      if (body.status === 1) {
        toast.success(body.message ?? 'Signed in.');
        void navigate(redirectTo, { replace: true });
        return;
      }
      const message = body.message ?? body.error?.message;
      if (message) toast.error(message);
    },
    [dispatch, navigate, redirectTo],
  );

  return { signIn, isSigningIn };
}
