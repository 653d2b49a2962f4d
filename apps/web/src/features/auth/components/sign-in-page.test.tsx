import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerNavigate } from '../../../lib/navigation';
import { ok, stubApi, type RecordedCall } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall, isListCall, listPage } from '../../../test/orders';
import { preloadRoutes, renderRoutes, renderWithApp } from '../../../test/render';
import { makeToken, signIn } from '../../../test/session';
import { endToastAnimations } from '../../../test/toasts';
import { SignInPage } from './sign-in-page';

/** What the page sent besides reading which other ways to sign in it offers. */
const sentBeyondOptions = (calls: RecordedCall[]) =>
  calls.filter((call) => call.path !== '/api/admin/sign-in-options').map((call) => `${call.method} ${call.path}`);

function renderSignIn() {
  return renderWithApp(<SignInPage redirectTo="/admin/my-order" />, { route: '/' });
}

describe('Sign-in page', () => {
  it('asks for both fields and sends nothing when they are empty', async () => {
    const api = stubApi(() => undefined);
    renderSignIn();

    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Email Address is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(sentBeyondOptions(api.calls)).toEqual([]);
  });

  it('rejects a malformed e-mail address without calling the server', async () => {
    const api = stubApi(() => undefined);
    renderSignIn();

    await userEvent.type(screen.getByLabelText('Email ID'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(screen.queryByText('Password is required')).toBeNull();
    expect(sentBeyondOptions(api.calls)).toEqual([]);
  });

  it('posts the credentials, stores the token and returns to the page that asked for sign-in', async () => {
    const token = makeToken('Asha Rao', 'Manager');
    const api = stubApi((call) =>
      call.path === '/api/admin/admin-login'
        ? {
            body: {
              status: 1,
              message: 'Login successful',
              jwtToken: token,
              data: { id: 1, name: 'Asha Rao', email: 'asha@example.com', type: 'Manager' },
            },
          }
        : undefined,
    );
    renderSignIn();

    await userEvent.type(screen.getByLabelText('Email ID'), 'asha@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin/my-order'));
    const [login] = api.callsTo('POST', '/api/admin/admin-login');
    expect(login?.body).toEqual({ email: 'asha@example.com', password: 'correct horse' });
    expect(login?.headers.Authorization).toBeUndefined();
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual({ accessToken: token });
    expect(await screen.findByText('Login successful')).toBeTruthy();
  });

  it("shows the server's message when the credentials are wrong and stays on the page", async () => {
    stubApi(() => ({ status: 401, body: { status: 0, message: 'Invalid email or password' } }));
    const { store } = renderSignIn();

    await userEvent.type(screen.getByLabelText('Email ID'), 'asha@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(store.getState().auth).toMatchObject({ isAuth: false, loading: false, error: 'Invalid email or password' });
  });
});

describe('Sign-in toasts', () => {
  it('takes the failed attempt’s error away once the next attempt succeeds', async () => {
    let attempts = 0;
    stubApi((call) => {
      if (call.path !== '/api/admin/admin-login') return undefined;
      attempts += 1;
      if (attempts === 1) return { status: 401, body: { status: 0, message: 'Invalid email or password' } };
      return {
        body: {
          status: 1,
          message: 'Login successful',
          jwtToken: makeToken('Asha Rao', 'Manager'),
          data: { id: 1, name: 'Asha Rao', email: 'asha@example.com', type: 'Manager' },
        },
      };
    });
    renderSignIn();

    await userEvent.type(screen.getByLabelText('Email ID'), 'asha@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Login successful')).toBeTruthy();
    await waitFor(() => {
      endToastAnimations();
      expect(screen.queryByText('Invalid email or password')).toBeNull();
    });
    expect(screen.getByText('Login successful')).toBeTruthy();
  });
});

const LOGIN = '/api/admin/admin-login';
const LOCKED =
  'This account is temporarily locked after many failed sign-in attempts. Please wait 15 minutes and try again.';
const loginSuccess = () => ({
  body: {
    status: 1,
    message: 'Login successful',
    jwtToken: makeToken('Asha Rao', 'Manager'),
    data: { id: 1, name: 'Asha Rao', email: 'asha@example.com', type: 'Manager' },
  },
});
const errorToasts = () => [...document.querySelectorAll('.Toastify__toast--error')].map((t) => t.textContent);

describe('Sign-in toasts, issue 22', { timeout: 20_000 }, () => {
  beforeAll(preloadRoutes);

  it('shows one error toast however often Sign In is clicked, with the latest answer', async () => {
    let attempts = 0;
    const api = stubApi((call) => {
      if (call.path !== LOGIN) return undefined;
      attempts += 1;
      if (attempts === 1) return { status: 401, body: { status: 0, message: 'Invalid email or password' } };
      return { status: 429, body: { status: 0, message: LOCKED } };
    });
    renderSignIn();
    await userEvent.type(screen.getByLabelText('Email ID'), 'asha@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');

    for (let click = 1; click <= 7; click += 1) {
      await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
      await waitFor(() => expect(api.callsTo('POST', LOGIN)).toHaveLength(click));
      await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' }).hasAttribute('disabled')).toBe(false));
    }

    await waitFor(() => expect(errorToasts()).toEqual([LOCKED]));
  });

  it('takes the expired-session toast away once the person has signed in again', async () => {
    signIn('Asha Rao', 'Manager');
    let expired = true;
    stubApi((call) => {
      if (call.path === LOGIN) {
        expired = false;
        return loginSuccess();
      }
      if (isFolderCountCall(call)) {
        return expired
          ? { status: 401, body: { status: 401, message: 'Your session has expired.' } }
          : ok(FOLDER_COUNTS);
      }
      if (isListCall(call, 'myOrder')) return listPage([]);
      return undefined;
    });
    const router = renderRoutes('/admin/my-order');
    registerNavigate((to) => void router.navigate(to));

    expect(await screen.findByText('Your session has expired.')).toBeTruthy();
    // The session ends on the page that found it out; the console then goes to '/' and signs in there.
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await userEvent.type(screen.getByLabelText('Email ID'), 'asha@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Login successful')).toBeTruthy();
    await waitFor(() => {
      endToastAnimations();
      expect(screen.queryByText('Your session has expired.')).toBeNull();
    });
    expect(router.state.location.pathname).toBe('/admin');
  });
});

describe('Two-step sign-in, issue 34', () => {
  const manager = { id: 1, name: 'Asha Rao', email: 'asha@example.com', type: 'Manager' };
  const typePassword = async () => {
    await userEvent.type(screen.getByLabelText('Email ID'), 'asha@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  };

  it('asks for the code after a right password, refuses a wrong one in words, and signs in with a recovery code', async () => {
    const token = makeToken('Asha Rao', 'Manager');
    const api = stubApi((call) => {
      if (call.path === LOGIN) {
        return { body: { status: 2, message: 'Enter the code.', challenge: 'c'.repeat(43), next: 'code' } };
      }
      if (call.path === '/api/admin/login-code') {
        const body = call.body as { code?: string; recoveryCode?: string };
        return body.recoveryCode === 'abcd-efgh-ijkl-mnop'
          ? { body: { status: 1, message: 'Login successful.', jwtToken: token, data: manager } }
          : { status: 401, body: { status: 0, code: 'INVALID_CODE', message: 'That code is not right.' } };
      }
      return undefined;
    });
    renderSignIn();
    await typePassword();

    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeTruthy();
    expect(window.localStorage.getItem('user')).toBeNull();
    await userEvent.type(screen.getByLabelText('6-digit code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not right.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/login-code')[0]?.body).toEqual({
      challenge: 'c'.repeat(43),
      code: '123456',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcd-efgh-ijkl-mnop');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin/my-order'));
    expect(window.localStorage.getItem('user')).toContain(token);
  });

  it('sets up an app when the policy asks: QR code and key, first code, then the recovery codes before the console', async () => {
    const token = makeToken('Asha Rao', 'Manager');
    const codes = Array.from({ length: 10 }, (_, i) => `code-${i}-aaaa-bbbb`);
    stubApi((call) => {
      if (call.path === LOGIN) {
        return { body: { status: 2, message: 'Set up an app.', challenge: 'e'.repeat(43), next: 'enrol' } };
      }
      if (call.path === '/api/admin/login-enrol') {
        return ok({ secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', uri: 'otpauth://totp/x', qrSvg: '<svg></svg>' });
      }
      if (call.path === '/api/admin/login-enrol/confirm') {
        return {
          body: { status: 1, message: 'Login successful.', jwtToken: token, data: manager, recoveryCodes: codes },
        };
      }
      return undefined;
    });
    renderSignIn();
    await typePassword();

    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    await userEvent.type(screen.getByLabelText('6-digit code'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and sign in' }));

    expect(await screen.findByRole('heading', { name: 'Your recovery codes' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Recovery codes' }).textContent).toContain('code-9-aaaa-bbbb');
    // Not signed in until the codes are saved.
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/');
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them: continue' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin/my-order'));
    expect(window.localStorage.getItem('user')).toContain(token);
  });

  it('offers a passkey and a recovery code to a member whose only factor is a passkey; no app code is asked', async () => {
    stubApi((call) => {
      if (call.path === LOGIN) {
        return {
          body: { status: 2, message: 'Use a passkey.', challenge: 'p'.repeat(43), next: 'code', methods: ['passkey'] },
        };
      }
      return undefined;
    });
    renderSignIn();
    await typePassword();

    expect(await screen.findByRole('button', { name: 'Use your passkey' })).toBeTruthy();
    expect(screen.getByLabelText('Recovery code')).toBeTruthy();
    expect(screen.queryByLabelText('6-digit code')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Use the authenticator app' })).toBeNull();
  });
});

describe('Other ways to sign in, issue 34', () => {
  it("offers single sign-on by its provider's name when the desk has it, and nothing more when it has not", async () => {
    stubApi((call) =>
      call.path === '/api/admin/sign-in-options' ? ok({ sso: { name: 'Google' }, passkeys: false }) : undefined,
    );
    renderSignIn();
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeTruthy();
    // jsdom has no WebAuthn, and this desk allows no passkey alone anyway.
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });

  it('shows the password form alone when the desk offers nothing else', async () => {
    const api = stubApi((call) =>
      call.path === '/api/admin/sign-in-options' ? ok({ sso: null, passkeys: false }) : undefined,
    );
    renderSignIn();
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/sign-in-options')).toHaveLength(1));
    expect(screen.queryByText('or')).toBeNull();
    expect(screen.queryByRole('button', { name: /Sign in with/ })).toBeNull();
  });
});
