// Sign-in of spec §4 "Auth": success toasts the server's message and goes on; failure toasts the message.
// A failure shows one toast however often Sign In is clicked: a second failure while it is up replaces its text
// (seven clicks while locked out stacked seven copies, issue 22). Once sign-in succeeds, that toast and the
// expired-session toast go: an old "wrong password" beside "Login successful" would contradict it.
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast, type Id } from 'react-toastify';
import type { LoginBody, StaffUser } from '@eta/contracts';
import { acceptSession, login, loginStep, type AuthResponseBody } from '../../../lib/auth/auth-slice';
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

/** Where a sign-in stands: the password; the second step (issue 34); or set up, with the recovery codes to keep. */
export type SignInStep =
  | { kind: 'password' }
  | { kind: 'code' | 'enrol'; challenge: string }
  | { kind: 'recovery-codes'; recoveryCodes: string[]; token: string; user: StaffUser };

export function useSignIn(redirectTo: string) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isSigningIn = useAppSelector((state) => state.auth.loading);
  const [step, setStep] = useState<SignInStep>({ kind: 'password' });

  const signedIn = useCallback(
    (message: string | undefined) => {
      dismissSignInErrors();
      toast.success(message ?? 'Signed in.');
      void navigate(redirectTo, { replace: true });
    },
    [navigate, redirectTo],
  );

  /** What every step's answer means: a session, the next step, or a failure in the server's words. */
  const follow = useCallback(
    (body: AuthResponseBody) => {
      if (body.status === 1 && body.recoveryCodes && body.jwtToken && body.data) {
        dismissSignInErrors();
        setStep({ kind: 'recovery-codes', recoveryCodes: body.recoveryCodes, token: body.jwtToken, user: body.data });
        return;
      }
      if (body.status === 1) {
        signedIn(body.message);
        return;
      }
      if (body.status === 2 && body.challenge && body.next) {
        dismissSignInErrors();
        setStep({ kind: body.next, challenge: body.challenge });
        return;
      }
      // The step between password and code has ended: back to the password.
      if (body.code === 'CHALLENGE_EXPIRED') setStep({ kind: 'password' });
      const message = body.message ?? body.error?.message;
      if (message) showFailure(message);
    },
    [signedIn],
  );

  const signIn = useCallback(
    async (credentials: LoginBody) => {
      const result = await dispatch(login(credentials));
      if (login.rejected.match(result)) {
        showFailure(result.error.message ?? 'Sign-in failed.');
        return;
      }
      follow(result.payload);
    },
    [dispatch, follow],
  );

  /** The second step: a code from the app, a recovery code, or (setting up) the app's first code. */
  const submitCode = useCallback(
    async (proof: { code?: string; recoveryCode?: string }) => {
      if (step.kind !== 'code' && step.kind !== 'enrol') return;
      const result = await dispatch(
        step.kind === 'code'
          ? loginStep({ kind: 'code', body: { challenge: step.challenge, ...proof } })
          : loginStep({ kind: 'enrol', body: { challenge: step.challenge, code: proof.code ?? '' } }),
      );
      if (loginStep.rejected.match(result)) {
        showFailure(result.error.message ?? 'Sign-in failed.');
        return;
      }
      follow(result.payload);
    },
    [dispatch, follow, step],
  );

  /** The recovery codes are kept: the session starts. */
  const finish = useCallback(() => {
    if (step.kind !== 'recovery-codes') return;
    dispatch(acceptSession(step.token, step.user));
    signedIn('Your authenticator app is set up. Signed in.');
  }, [dispatch, signedIn, step]);

  const restart = useCallback(() => setStep({ kind: 'password' }), []);

  return { signIn, submitCode, finish, restart, step, isSigningIn };
}
