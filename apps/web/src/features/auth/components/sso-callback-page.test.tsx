import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/api-stub';
import { renderWithApp } from '../../../test/render';
import { makeToken } from '../../../test/session';
import { SsoCallbackPage } from './sso-callback-page';

const STATE = 's'.repeat(43);

afterEach(() => sessionStorage.clear());

/** The page as the provider's redirect opens it: the answer in the address bar's query. */
function arrive(query: string) {
  window.history.replaceState(null, '', `/login/sso${query}`);
  return renderWithApp(<SsoCallbackPage />, { route: `/login/sso${query}` });
}

describe('Single sign-on, back from the provider (issue 34)', () => {
  it("sends the provider's answer with this tab's state and opens the console", async () => {
    sessionStorage.setItem('eta-desk-sso-state', STATE);
    const token = makeToken('Asha Rao', 'Team');
    const api = stubApi((call) =>
      call.path === '/api/admin/sso/callback'
        ? {
            body: {
              status: 1,
              message: 'Login successful.',
              jwtToken: token,
              data: { id: 3, name: 'Asha Rao', email: 'asha@example.com', type: 'Team' },
            },
          }
        : undefined,
    );
    arrive(`?code=abc&state=${STATE}&iss=https%3A%2F%2Faccounts.google.com`);

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin'));
    expect(api.callsTo('POST', '/api/admin/sso/callback')[0]?.body).toEqual({
      callback: `?code=abc&state=${STATE}&iss=https%3A%2F%2Faccounts.google.com`,
      state: STATE,
    });
    expect(window.localStorage.getItem('user')).toContain(token);
    // The code left the address bar, and the state was good for this one answer.
    expect(window.location.search).toBe('');
    expect(sessionStorage.getItem('eta-desk-sso-state')).toBeNull();
  });

  it('says why the server refused, with the way back to sign in', async () => {
    sessionStorage.setItem('eta-desk-sso-state', STATE);
    stubApi(() => ({
      status: 403,
      body: { status: 0, code: 'SIGN_IN_REFUSED', message: 'Google has not verified the e-mail a@b.example.' },
    }));
    arrive(`?code=abc&state=${STATE}`);
    expect(await screen.findByText('Google has not verified the e-mail a@b.example.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back to sign in' })).toBeTruthy();
  });

  it('refuses an answer this tab did not ask for, without sending it', async () => {
    const api = stubApi(() => undefined);
    arrive(`?code=abc&state=${STATE}`);
    expect(await screen.findByText(/did not start in this browser tab/)).toBeTruthy();
    expect(api.calls).toEqual([]);
  });
});
