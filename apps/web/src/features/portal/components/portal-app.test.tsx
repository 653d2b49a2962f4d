import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRACK_PROOF_HEADER } from '@eta/contracts/domain';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { PortalApp } from './portal-app';

const ORDER = 'ETA-200020076';
const BRANDING = {
  key: 'eta-express',
  display_name: 'eTA Express Canada',
  logo_url: null,
  menu_links: [
    { label: 'Home', url: '/track-order' },
    { label: 'FAQ', url: '/faq' },
    { label: 'Official', url: 'https://www.canada.ca/eta' },
    { label: 'Staff', url: '/admin' },
  ],
  footer_contact: 'help@eta-express.example',
  support_phone: '+1 800 555 0111',
  translate_widget_url: null,
};
const TRACKED = {
  orderId: ORDER,
  proof: 'proof-token',
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  landingSite: 'eta-express',
};
const HISTORY = (downloads: object[] = [], file1: string | null = `eTA-${ORDER}.pdf`, processStatus = 'Completed') => ({
  body: {
    status: 1,
    message: 'OK',
    data: downloads,
    mainResult: {
      order_id: ORDER,
      customer_name: 'Jean Tremblay',
      process_status: processStatus,
      landing_site: 'eta-express',
    },
    path: { file1 },
  },
});
const DOWNLOAD_ROW = {
  order_id: ORDER,
  create_ts: '2026-07-04T16:05:09.000Z',
  ip: '8.8.8.8',
  device: 'Apple iPhone',
  device_type: 'mobile',
  browser: 'Mobile Safari 17',
  os: 'iOS 17.4',
  location: 'United States',
};

function open(path: string, handler: StubHandler) {
  window.history.pushState(null, '', path);
  const api = stubApi((call) => (call.path.startsWith('/api/front/landing-sites/') ? ok(BRANDING) : handler(call)));
  render(<PortalApp />);
  return api;
}

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => vi.useRealTimers());

describe('Track order', () => {
  it("is branded by the landing site, prefills the order id and asks for what is missing in the spec's words", async () => {
    const api = open(`/track-order/${ORDER}?site=eta-express`, () => undefined);

    expect(
      await screen.findByRole('heading', { name: 'Download your Electronic Travel Authorization (eTA)' }),
    ).toBeTruthy();
    expect(await screen.findByText('eTA Express Canada')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Order ID').value).toBe(ORDER);
    const menu = screen.getByRole('navigation', { name: 'Site menu' });
    expect(within(menu).getByRole('link', { name: 'FAQ' }).getAttribute('href')).toBe('/faq?site=eta-express');
    expect(within(menu).getByRole('link', { name: 'Official' }).getAttribute('target')).toBe('_blank');
    // A link into the staff console is never shown to customers.
    expect(within(menu).queryByRole('link', { name: 'Staff' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toBe(
      'mailto:help@eta-express.example',
    );
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()} eTA Express Canada`))).toBeTruthy();

    await userEvent.clear(screen.getByLabelText('Order ID'));
    await userEvent.click(screen.getByRole('button', { name: 'TRACK ORDER' }));
    expect(await screen.findByText('Please enter your orderId')).toBeTruthy();
    expect(screen.getByText('Please enter your email')).toBeTruthy();
    expect(api.callsTo('POST', '/api/front/track-order')).toHaveLength(0);
  });

  it('opens the download page with the proof and downloads one second after the server agrees', async () => {
    let downloads: object[] = [];
    const api = open(`/track-order/${ORDER}`, (call) => {
      if (call.path === '/api/front/track-order') return ok(TRACKED, 'Your order has been found.');
      if (call.path === '/api/front/get-download-history') return HISTORY(downloads);
      if (call.path === '/api/front/download-passport-doc-pdf') {
        downloads = [DOWNLOAD_ROW];
        return ok({ url: '/api/front/download?ticket=t1' });
      }
      return undefined;
    });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} ${this.download}`);
    });

    await userEvent.type(await screen.findByLabelText('Email ID'), '  Jean@Example.com ');
    await userEvent.click(screen.getByRole('button', { name: 'TRACK ORDER' }));

    expect(await screen.findByText('Your order has been found.')).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe(`/get-new-order-details/${ORDER}`));
    // The order's own landing site brands the page it opens.
    expect(window.location.search).toBe('?site=eta-express');
    expect(api.callsTo('POST', '/api/front/track-order')[0]?.body).toEqual({
      orderId: ORDER,
      email: 'Jean@Example.com',
    });
    await screen.findByText(/is ready to download/);
    expect(api.callsTo('POST', '/api/front/get-download-history')[0]?.headers[TRACK_PROOF_HEADER]).toBe('proof-token');
    expect(screen.getByText('Your eTA has not been downloaded yet.')).toBeTruthy();
    expect(
      within(screen.getByRole('table', { name: 'Downloaded History' }))
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual([
      '#',
      'Order ID',
      'Date & Time (EST)',
      'Device IP Address',
      'Device',
      'Device Type',
      'Browser',
      'OS',
      'Device Location',
    ]);
    // Every page's title names the landing site.
    await waitFor(() => expect(document.title).toBe('Download your eTA | eTA Express Canada'));

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await userEvent.click(screen.getByRole('button', { name: 'Download Now' }));
    expect(await screen.findByText('Your download will start in a moment.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/front/download-passport-doc-pdf')[0]?.body).toMatchObject({
      orderId: ORDER,
      customername: 'Jean Tremblay',
      file1: `eTA-${ORDER}.pdf`,
    });
    expect(clicked).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(clicked).toEqual([`/api/front/download?ticket=t1 eTA-${ORDER}.pdf`]);
    await act(() => vi.advanceTimersByTimeAsync(1600));
    expect(await screen.findByText('Apple iPhone')).toBeTruthy();
    expect(screen.getByText('8.8.8.8')).toBeTruthy();
    expect(screen.getByText('United States')).toBeTruthy();
  });

  it('keeps Download Now disabled and says the order is being processed until the document exists', async () => {
    sessionStorage.setItem(`eta-track-proof:${ORDER}`, JSON.stringify(TRACKED));
    open(`/get-new-order-details/${ORDER}`, (call) =>
      call.path === '/api/front/get-download-history' ? HISTORY([], null, 'Pending') : undefined,
    );
    expect(await screen.findByText(/still being processed/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download Now' }).hasAttribute('disabled')).toBe(true);
  });

  it('tells the customer of a Completed order without its document that it is approved and being prepared (issue 22)', async () => {
    sessionStorage.setItem(`eta-track-proof:${ORDER}`, JSON.stringify(TRACKED));
    open(`/get-new-order-details/${ORDER}`, (call) =>
      call.path === '/api/front/get-download-history' ? HISTORY([], null, 'Completed') : undefined,
    );
    expect(
      await screen.findByText(/Your application has been approved\. Your eTA document is being prepared/),
    ).toBeTruthy();
    expect(screen.queryByText(/still being processed/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Download Now' }).hasAttribute('disabled')).toBe(true);
  });

  it('sends a customer without a proof back to tracking, and says why', async () => {
    const api = open(`/get-new-order-details/${ORDER}`, () => undefined);
    await waitFor(() => expect(window.location.pathname).toBe(`/track-order/${ORDER}`));
    expect(await screen.findByText(/Please track your order with its Order ID and e-mail address/)).toBeTruthy();
    expect(screen.queryByText(/has been found/)).toBeNull();
    expect(api.callsTo('POST', '/api/front/get-download-history')).toHaveLength(0);
  });

  it('shows why tracking failed in words a customer understands', async () => {
    let reply = { status: 404, body: { status: 0, code: 'ORDER_NOT_FOUND', message: 'server words' } } as const;
    open(`/track-order/${ORDER}`, (call) => {
      if (call.path !== '/api/front/track-order') return undefined;
      return reply.status === 404 ? reply : { ...reply, headers: { 'Retry-After': '840' } };
    });
    await userEvent.type(await screen.findByLabelText('Email ID'), 'wrong@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'TRACK ORDER' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('We could not find an order with this Order ID and e-mail address'),
    );
    reply = { status: 429, body: { status: 0, code: 'TOO_MANY_ATTEMPTS', message: 'server words' } } as never;
    await userEvent.click(screen.getByRole('button', { name: 'TRACK ORDER' }));
    expect(await screen.findByText(/Please wait 14 minutes and try again/)).toBeTruthy();
    expect(window.location.pathname).toBe(`/track-order/${ORDER}`);
  });

  it('shows its toast below the header, never over the logo, the language switch or the menu', async () => {
    open(`/track-order/${ORDER}`, (call) =>
      call.path === '/api/front/track-order'
        ? { status: 404, body: { status: 0, code: 'ORDER_NOT_FOUND', message: 'server words' } }
        : undefined,
    );
    await userEvent.type(await screen.findByLabelText('Email ID'), 'wrong@example.com');
    // jsdom lays nothing out: the header says where it ends, as a browser would (two rows of it, 151 px).
    const header = screen.getByRole('banner');
    vi.spyOn(header, 'getBoundingClientRect').mockReturnValue({ top: 0, bottom: 151, height: 151 } as DOMRect);
    await userEvent.click(screen.getByRole('button', { name: 'TRACK ORDER' }));

    const toasts = (await screen.findByRole('alert')).parentElement!;
    // Top-right from 600 px on, starting 12 px below the header (portal.css; on a phone they sit at the bottom).
    expect(toasts.style.getPropertyValue('--portal-toasts-top')).toBe('163px');
  });
});

describe('the translation bar', () => {
  const widgetScripts = () => document.head.querySelectorAll('script[data-translate-widget]');
  afterEach(() => widgetScripts().forEach((script) => script.remove()));

  it('is not there, and loads nothing, unless the widget is configured', async () => {
    open(`/track-order/${ORDER}`, () => undefined);
    await screen.findByText('eTA Express Canada');
    expect(widgetScripts()).toHaveLength(0);
    expect(document.getElementById('google_translate_element')).toBeNull();
  });

  it("loads the configured widget's script once, and the page works beside it", async () => {
    const url = 'https://translate.google.com/translate_a/element.js?cb=googleTranslateElementInit';
    // Another site than the other tests' (the page keeps each site's branding once loaded).
    window.history.pushState(null, '', `/track-order/${ORDER}?site=translated`);
    stubApi((call) =>
      call.path.startsWith('/api/front/landing-sites/') ? ok({ ...BRANDING, translate_widget_url: url }) : undefined,
    );
    render(<PortalApp />);
    await waitFor(() => expect(document.getElementById('google_translate_element')).not.toBeNull());
    await waitFor(() => expect([...widgetScripts()].map((script) => script.getAttribute('src'))).toEqual([url]));
    expect(screen.getByRole('button', { name: 'TRACK ORDER' })).toBeTruthy();
  });
});

describe('languages', () => {
  it("starts in the browser's language and switches between French and English", async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-CA', 'en']);
    open(`/track-order/${ORDER}`, () => undefined);
    expect(await screen.findByRole('heading', { name: /Téléchargez votre autorisation de voyage/ })).toBeTruthy();
    expect(document.documentElement.lang).toBe('fr-CA');
    await userEvent.click(screen.getByRole('button', { name: 'SUIVRE LA COMMANDE' }));
    expect(await screen.findByText('Veuillez saisir votre adresse courriel')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Show in English' }));
    expect(
      await screen.findByRole('heading', { name: 'Download your Electronic Travel Authorization (eTA)' }),
    ).toBeTruthy();
    expect(localStorage.getItem('eta-portal-language')).toBe('en');
  });
});

describe('other pages', () => {
  it('has the FAQ and Contact pages the menus lead to', async () => {
    open('/contact?site=eta-express', () => undefined);
    expect(await screen.findByRole('heading', { name: 'Contact us' })).toBeTruthy();
    const main = screen.getByRole('main');
    expect(await within(main).findByRole('link', { name: '+1 800 555 0111' })).toHaveProperty(
      'href',
      'tel:+18005550111',
    );
    expect(within(main).getByRole('link', { name: 'help@eta-express.example' })).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'FAQ' }));
    expect(await screen.findByRole('heading', { name: 'Frequently asked questions' })).toBeTruthy();
    expect(window.location.search).toBe('?site=eta-express');
    await userEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(window.location.pathname).toBe('/track-order');
    expect(
      await screen.findByRole('heading', { name: 'Download your Electronic Travel Authorization (eTA)' }),
    ).toBeTruthy();
  });
});
