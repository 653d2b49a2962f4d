import { render, screen } from '@testing-library/react';
import type { BaseQueryApi } from '@reduxjs/toolkit/query/react';
import { ToastContainer } from 'react-toastify';
import { describe, expect, it } from 'vitest';
import { TOAST_OPTIONS } from '../config/toast';
import { stubApi } from '../test/api-stub';
import { signIn } from '../test/session';
import { apiBaseQuery } from './api';

/** A page's calls made together through the one API layer, each failing as `reply` says. */
async function loadPageWith(reply: { status: number; body: unknown }) {
  signIn('Asha Rao', 'Team');
  stubApi(() => reply);
  render(<ToastContainer {...TOAST_OPTIONS} />);
  const api = { signal: new AbortController().signal } as BaseQueryApi;
  return Promise.all(
    ['admin/get-folder-count', 'admin/get-orders-list/newOrder', 'admin/get-orders-list/myOrders'].map((url) =>
      apiBaseQuery({ url }, api, {}),
    ),
  );
}

describe('A database that restarts (issue 32)', () => {
  it('shows the server’s words once however many calls of the page meet it', async () => {
    const message = 'The database is unavailable; retrying. Please try again in a few seconds.';
    const results = await loadPageWith({ status: 503, body: { status: 0, code: 'DATABASE_UNAVAILABLE', message } });

    expect(results.map((r) => r.error)).toEqual(Array(3).fill({ status: 503, message, code: 'DATABASE_UNAVAILABLE' }));
    const toasts = await screen.findAllByRole('alert');
    expect(toasts.map((toast) => toast.textContent)).toEqual([message]);
  });

  it('still shows each of other failures', async () => {
    await loadPageWith({ status: 409, body: { status: 0, code: 'CONFLICT', message: 'Changed meanwhile' } });

    expect((await screen.findAllByRole('alert')).map((toast) => toast.textContent)).toEqual(
      Array(3).fill('Changed meanwhile'),
    );
  });
});
