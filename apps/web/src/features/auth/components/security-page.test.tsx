import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MySecurity, StaffSession } from '@eta/contracts';
import { ok, stubApi } from '../../../test/api-stub';
import { renderWithApp } from '../../../test/render';
import { signIn } from '../../../test/session';
import { SecurityPage } from './security-page';

const session = (id: string, over: Partial<StaffSession> = {}): StaffSession => ({
  id,
  browser: 'Chrome 130',
  os: 'Windows 10',
  device: 'Computer',
  ip: '203.0.113.7',
  location: 'Canada',
  signedInAt: '2026-11-27T09:00:00.000Z',
  lastSeenAt: '2026-11-27T10:00:00.000Z',
  expiresAt: '2026-11-27T21:00:00.000Z',
  endedAt: null,
  endedBy: null,
  secondFactor: null,
  current: false,
  ...over,
});

const security = (over: Partial<MySecurity> = {}): MySecurity => ({
  mfaRequired: false,
  ssoRequired: false,
  totpEnabled: false,
  totpEnrolledAt: null,
  recoveryCodesLeft: 0,
  passkeys: [],
  passwordlessPasskeys: false,
  ...over,
});

describe('Sign-in & Security page', () => {
  it('lists the sessions with browser, address and country; End ends another one; this one has no End', async () => {
    signIn('Asha Rao', 'Team');
    const api = stubApi((call) => {
      if (call.path === '/api/admin/my-security') {
        return ok(security());
      }
      if (call.path === '/api/admin/my-sessions') {
        return ok([
          session('this', { current: true, os: 'Linux' }),
          session('phone', { browser: 'Mobile Safari 18', os: 'iOS 18' }),
        ]);
      }
      if (call.path === '/api/admin/sessions/phone/end') return ok(undefined, 'The session was ended.');
      return undefined;
    });
    renderWithApp(<SecurityPage />, { route: '/admin/security' });

    const list = await screen.findByRole('list', { name: 'Sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]!.textContent).toContain('Chrome 130 on Linux');
    expect(items[0]!.textContent).toContain('This session');
    expect(within(items[0]!).queryByRole('button', { name: 'End' })).toBeNull();
    expect(items[1]!.textContent).toContain('Mobile Safari 18 on iOS 18');
    expect(items[1]!.textContent).toContain('203.0.113.7 · Canada');
    await userEvent.click(within(items[1]!).getByRole('button', { name: 'End' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/admin/sessions/phone/end')).toHaveLength(1));
    expect(await screen.findByText('The session was ended.')).toBeTruthy();
  });

  it('asks for the current password when the server wants a recent proof, then sets up the app', async () => {
    signIn('Asha Rao', 'Team');
    let proved = false;
    const api = stubApi((call) => {
      if (call.path === '/api/admin/my-security') {
        return ok(security());
      }
      if (call.path === '/api/admin/my-sessions') return ok([session('this', { current: true })]);
      if (call.path === '/api/admin/confirm-identity') {
        proved = (call.body as { password?: string }).password === 'my-password';
        return proved
          ? ok(undefined, 'Thank you')
          : {
              status: 403,
              body: { status: 0, code: 'PROOF_REJECTED', message: 'That password or code is not right.' },
            };
      }
      if (call.path === '/api/admin/my-security/totp') {
        return proved
          ? ok({ secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x', qrSvg: '<svg></svg>' })
          : { status: 403, body: { status: 0, code: 'RECENT_PROOF_REQUIRED', message: 'Confirm it is you.' } };
      }
      return undefined;
    });
    renderWithApp(<SecurityPage />, { route: '/admin/security' });

    await userEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('That password or code is not right.')).toBeTruthy();
    await userEvent.clear(within(dialog).getByLabelText('Current password'));
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'my-password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByTestId('totp-secret')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/my-security/totp')).toHaveLength(2);
    // The refusal was the page's to handle: no error toast for it.
    expect(screen.queryByText('Confirm it is you.')).toBeNull();
  });

  it('lists the passkeys with their last use; Remove asks for a proof and removes one', async () => {
    signIn('Asha Rao', 'Team');
    let removed = false;
    const api = stubApi((call) => {
      if (call.path === '/api/admin/my-security') {
        return ok(
          security({
            recoveryCodesLeft: 10,
            passkeys: removed
              ? []
              : [
                  {
                    id: 'cred-1',
                    name: 'Work laptop',
                    createdAt: '2026-11-20T09:00:00.000Z',
                    lastUsedAt: '2026-11-27T08:00:00.000Z',
                  },
                ],
          }),
        );
      }
      if (call.path === '/api/admin/my-sessions') return ok([session('this', { current: true })]);
      if (call.path === '/api/admin/my-security/passkeys/cred-1/remove') {
        removed = true;
        return ok(undefined, 'The passkey was removed.');
      }
      return undefined;
    });
    renderWithApp(<SecurityPage />, { route: '/admin/security' });

    const list = await screen.findByRole('list', { name: 'Passkeys' });
    expect(list.textContent).toContain('Work laptop');
    expect(list.textContent).toContain('last used');
    expect(screen.getByText(/Signing in asks for a passkey/)).toBeTruthy();
    // jsdom has no WebAuthn: the page says so instead of offering a button that cannot work.
    expect(screen.getByText('This browser cannot make passkeys.')).toBeTruthy();
    await userEvent.click(within(list).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/admin/my-security/passkeys/cred-1/remove')).toHaveLength(1));
    expect(await screen.findByText('No passkeys yet.')).toBeTruthy();
  });
});
