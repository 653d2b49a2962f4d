import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { routes } from '../../../app/router';
import { createAppStore } from '../../../lib/store';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';

const BRANDING = {
  key: 'alt1',
  display_name: 'eTA Express',
  logo_url: null,
  menu_links: [{ label: 'Apply Now', url: 'https://example.com/apply' }],
  footer_contact: 'help@eta-express.example',
};

function renderPortal(path: string, handler: StubHandler) {
  const api = stubApi(handler);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders store={createAppStore()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { api, router };
}

describe('Track order', () => {
  it("shows the landing site's branding, prefills the order id and asks for the e-mail", async () => {
    const { api } = renderPortal('/track-order/ETA-200020076?site=alt1', (call) =>
      call.path === '/api/front/landing-sites/alt1' ? ok(BRANDING) : undefined,
    );

    expect(
      await screen.findByRole('heading', { name: 'Download your Electronic Travel Authorization (eTA)' }),
    ).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Order ID').value).toBe('ETA-200020076');
    expect(await screen.findByRole('link', { name: 'Apply Now' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toBe(
      'mailto:help@eta-express.example',
    );
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()} eTA Express`))).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Order ID'));
    await userEvent.click(screen.getByRole('button', { name: 'TRACK ORDER' }));
    expect(await screen.findByText('Please enter your orderId')).toBeTruthy();
    expect(screen.getByText('Please enter your email')).toBeTruthy();
    expect(api.callsTo('POST', '/api/front/track-order')).toHaveLength(0);
  });

  it('opens the download page when the order and e-mail match, even if the history cannot be loaded', async () => {
    const { api, router } = renderPortal('/track-order/ETA-200020076', (call) => {
      if (call.path === '/api/front/track-order') return ok(undefined, 'Order found');
      if (call.path === '/api/front/get-download-history')
        return { status: 500, body: { status: 0, message: 'Internal error' } };
      return undefined;
    });

    await userEvent.type(await screen.findByLabelText('Email ID'), 'maria@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'TRACK ORDER' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/get-new-order-details/ETA-200020076'));
    expect(api.callsTo('POST', '/api/front/track-order')[0]?.body).toEqual({
      orderId: 'ETA-200020076',
      email: 'maria@example.com',
    });
    expect(api.callsTo('POST', '/api/front/track-order')[0]?.headers.Authorization).toBeUndefined();
    expect(await screen.findByText('Order found')).toBeTruthy();
    expect(await screen.findByText('No data available in table')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Date & Time (EST)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download Now' }).hasAttribute('disabled')).toBe(true);
  });

  it("shows the server's message when the order and e-mail do not match", async () => {
    const { router } = renderPortal('/track-order/ETA-200020076', (call) =>
      call.path === '/api/front/track-order'
        ? { status: 404, body: { status: 0, message: 'No order matches this order ID and e-mail' } }
        : undefined,
    );

    await userEvent.type(await screen.findByLabelText('Email ID'), 'someone@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'TRACK ORDER' }));

    expect(await screen.findByText('No order matches this order ID and e-mail')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/track-order/ETA-200020076');
  });
});
