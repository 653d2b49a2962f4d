import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, stubApi } from '../../../test/api-stub';
import { renderWithApp } from '../../../test/render';
import { signIn } from '../../../test/session';
import { ChangePasswordPage } from './change-password-page';

describe('Change password', () => {
  it('requires a new password of at least 6 characters before calling the server', async () => {
    signIn('Asha Rao', 'Team');
    const api = stubApi(() => undefined);
    renderWithApp(<ChangePasswordPage />, { route: '/admin/change-password' });

    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Please enter your New Password.')).toBeTruthy();

    expect(await screen.findByText('Please enter your current password.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Enter New Password'), '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('New Password must be at least 6 characters.')).toBeTruthy();
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('checks the current password first, changes the password with the staff token, then signs the user out', async () => {
    const token = signIn('Asha Rao', 'Team');
    const api = stubApi((call) =>
      call.path === '/api/admin/change-password'
        ? ok(undefined, 'Password updated successfully')
        : call.path === '/api/admin/confirm-identity'
          ? ok(undefined, 'Thank you')
          : undefined,
    );
    renderWithApp(<ChangePasswordPage />, { route: '/admin/change-password' });

    await userEvent.type(screen.getByLabelText('Current Password'), 'old-secret');
    await userEvent.type(screen.getByLabelText('Enter New Password'), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(api.callsTo('POST', '/api/admin/confirm-identity')[0]?.body).toEqual({ password: 'old-secret' });
    const [call] = api.callsTo('POST', '/api/admin/change-password');
    expect(call?.body).toEqual({ newPassword: 'new-secret' });
    expect(call?.headers.Authorization).toBe(token);
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(await screen.findByText('Password updated successfully')).toBeTruthy();
  });

  it('a wrong current password changes nothing and says so; the member stays signed in', async () => {
    signIn('Asha Rao', 'Team');
    const api = stubApi((call) =>
      call.path === '/api/admin/confirm-identity'
        ? {
            status: 403,
            body: { status: 0, code: 'PROOF_REJECTED', message: 'That password or code is not right.' },
          }
        : undefined,
    );
    renderWithApp(<ChangePasswordPage />, { route: '/admin/change-password' });

    await userEvent.type(screen.getByLabelText('Current Password'), 'not-it');
    await userEvent.type(screen.getByLabelText('Enter New Password'), 'new-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(await screen.findByText('That password or code is not right.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/change-password')).toEqual([]);
    expect(window.localStorage.getItem('user')).not.toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/admin/change-password');
  });
});
