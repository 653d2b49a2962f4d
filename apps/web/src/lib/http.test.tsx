import { render, screen } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { TOAST_OPTIONS } from '../config/toast';
import { stubApi, type StubReply } from '../test/api-stub';
import { signIn } from '../test/session';
import { sendRequest } from './http';
import { registerNavigate } from './navigation';

/** Two staff calls fail together, as they do when a token expires while a page loads its list and its counts. */
async function loadPageWith(reply: StubReply) {
  signIn('Asha Rao', 'Team');
  stubApi(() => reply);
  const navigate = vi.fn();
  registerNavigate(navigate);
  render(<ToastContainer {...TOAST_OPTIONS} />);
  await Promise.all([
    sendRequest({ url: 'admin/get-folder-count' }),
    sendRequest({ url: 'admin/get-orders-list/newOrder' }),
  ]);
  return { navigate };
}

describe('Expired session (spec §8)', () => {
  it('ends the session on an HTTP 401 whose body is not a 401 envelope: stored user removed, entry, one toast', async () => {
    const { navigate } = await loadPageWith({
      status: 401,
      body: { status: 0, code: 'SESSION_EXPIRED', message: 'Your session has ended.' },
    });

    expect(window.localStorage.getItem('user')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
    const toasts = await screen.findAllByRole('alert');
    expect(toasts.map((toast) => toast.textContent)).toEqual(['Your session has ended.']);
  });

  it('ends the session on an envelope status 401 sent with HTTP 200: stored user removed, entry, one toast', async () => {
    const { navigate } = await loadPageWith({ status: 200, body: { status: 401, message: 'Token no longer valid' } });

    expect(window.localStorage.getItem('user')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
    const toasts = await screen.findAllByRole('alert');
    expect(toasts.map((toast) => toast.textContent)).toEqual(['Token no longer valid']);
  });

  it('keeps the session on other failures', async () => {
    const { navigate } = await loadPageWith({ status: 403, body: { status: 0, message: 'Not allowed' } });

    expect(window.localStorage.getItem('user')).not.toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });
});
