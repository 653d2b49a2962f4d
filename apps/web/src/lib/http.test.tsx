import { render, screen } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { TOAST_OPTIONS } from '../config/toast';
import { stubApi, type StubReply } from '../test/api-stub';
import { signIn } from '../test/session';
import { requestFile, sendRequest } from './http';
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

describe('A multipart upload and a file answer go through the same helper', () => {
  it('sends a FormData as it is, with the token and no JSON content type', async () => {
    const token = signIn('Asha Rao', 'Team');
    const api = stubApi(() => ({ body: { status: 1, message: 'Uploaded' } }));
    const form = new FormData();
    form.append('orderId', 'ETA-200020076');
    const outcome = await sendRequest({ url: 'admin/upload-visa-document', method: 'POST', body: form });

    expect(outcome).toEqual({ httpStatus: 200, body: { status: 1, message: 'Uploaded' }, aborted: false });
    const [call] = api.calls;
    expect(call?.form).toBe(form);
    expect(call?.headers).toEqual({ Accept: 'application/json', Authorization: token });
  });

  it('ends the session when an upload meets an expired token', async () => {
    signIn('Asha Rao', 'Team');
    stubApi(() => ({ status: 401, body: { status: 0, code: 'SESSION_EXPIRED', message: 'Your session has ended.' } }));
    const navigate = vi.fn();
    registerNavigate(navigate);
    render(<ToastContainer {...TOAST_OPTIONS} />);
    await sendRequest({ url: 'admin/upload-visa-document', method: 'POST', body: new FormData() });

    expect(window.localStorage.getItem('user')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
    expect((await screen.findAllByRole('alert')).map((toast) => toast.textContent)).toEqual([
      'Your session has ended.',
    ]);
  });

  it('gives a file answer as a file, and a failure as its JSON envelope', async () => {
    const token = signIn('Asha Rao', 'Team');
    let refuse = false;
    const api = stubApi(() =>
      refuse
        ? { status: 409, body: { status: 0, code: 'WRONG_STATUS', message: 'Not Completed' } }
        : { body: null, raw: { content: '%PDF-1.7', contentType: 'application/pdf' } },
    );
    const request = {
      url: 'admin/get-defence-pack-pdf',
      method: 'POST' as const,
      body: { orderId: 'ETA-200020076', defencePackType: 1 },
      accept: 'application/pdf',
    };
    const pdf = await requestFile(request);
    expect(pdf.httpStatus).toBe(200);
    expect(pdf.file?.type).toBe('application/pdf');
    expect(await pdf.file?.text()).toBe('%PDF-1.7');
    expect(api.calls[0]?.headers).toEqual({
      Accept: 'application/pdf, application/json',
      'Content-Type': 'application/json',
      Authorization: token,
    });
    expect(api.calls[0]?.body).toEqual({ orderId: 'ETA-200020076', defencePackType: 1 });

    refuse = true;
    expect(await requestFile(request)).toEqual({
      httpStatus: 409,
      body: { status: 0, code: 'WRONG_STATUS', message: 'Not Completed' },
      aborted: false,
      file: null,
    });
  });

  it('ends the session when a file call meets an expired token', async () => {
    signIn('Asha Rao', 'Team');
    stubApi(() => ({ status: 401, body: { status: 0, code: 'SESSION_EXPIRED', message: 'Your session has ended.' } }));
    const navigate = vi.fn();
    registerNavigate(navigate);
    render(<ToastContainer {...TOAST_OPTIONS} />);
    const outcome = await requestFile({ url: 'admin/get-defence-pack-pdf', method: 'POST', accept: 'application/pdf' });

    expect(outcome.file).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/');
  });
});
