// Sign-in of spec §4 "Auth": success toasts the server's message and goes on; failure toasts the message.
// A failure shows one toast however often Sign In is clicked: a second failure while it is up replaces its text
// (seven clicks while locked out stacked seven copies, issue 22). Once sign-in succeeds, that toast and the
// expired-session toast go: an old "wrong password" beside "Login successful" would contradict it.
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast, type Id } from 'react-toastify';
import type { LoginBody, StaffUser } from '@eta/contracts';
import { acceptSession, login, loginStep, type AuthResponseBody, type LoginStep } from '../../../lib/auth/auth-slice';
import { signInPasskey } from '../../../lib/auth/passkeys';
import { startSingleSignOn } from '../../../lib/auth/single-sign-on';
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
  | { kind: 'code'; challenge: string; methods: ('totp' | 'passkey')[] }
  | { kind: 'enrol'; challenge: string }
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
        setStep(
          body.next === 'code'
            ? { kind: 'code', challenge: body.challenge, methods: body.methods ?? ['totp'] }
            : { kind: 'enrol', challenge: body.challenge },
        );
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

  const takeStep = useCallback(
    async (next: LoginStep) => {
      const result = await dispatch(loginStep(next));
      if (loginStep.rejected.match(result)) {
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
      if (step.kind === 'code') await takeStep({ kind: 'code', body: { challenge: step.challenge, ...proof } });
      if (step.kind === 'enrol') {
        await takeStep({ kind: 'enrol', body: { challenge: step.challenge, code: proof.code ?? '' } });
      }
    },
    [step, takeStep],
  );

  /** The second step with one of the member's passkeys. */
  const submitPasskey = useCallback(async () => {
    if (step.kind !== 'code') return;
    const outcome = await signInPasskey('admin/login-passkey/options', { challenge: step.challenge });
    if ('failure' in outcome) return showFailure(outcome.failure);
    await takeStep({ kind: 'passkey', body: { challenge: step.challenge, response: outcome.answer as never } });
  }, [step, takeStep]);

  /** A sign-in with a passkey alone (where the Admin allows it): the device checks its owner. */
  const signInWithPasskey = useCallback(async () => {
    const outcome = await signInPasskey('admin/passkey-sign-in/options');
    if ('failure' in outcome) return showFailure(outcome.failure);
    await takeStep({ kind: 'passkey-alone', body: { response: outcome.answer as never } });
  }, [takeStep]);

  /** Single sign-on: off to the provider, which sends the browser back to /login/sso. */
  const signInWithSso = useCallback(async () => {
    const failure = await startSingleSignOn();
    if (failure) showFailure(failure);
  }, []);

  /** The recovery codes are kept: the session starts. */
  const finish = useCallback(() => {
    if (step.kind !== 'recovery-codes') return;
    dispatch(acceptSession(step.token, step.user));
    signedIn('Your authenticator app is set up. Signed in.');
  }, [dispatch, signedIn, step]);

  const restart = useCallback(() => setStep({ kind: 'password' }), []);

  return {
    signIn,
    submitCode,
    submitPasskey,
    signInWithPasskey,
    signInWithSso,
    takeStep,
    finish,
    restart,
    step,
    isSigningIn,
  };
}
