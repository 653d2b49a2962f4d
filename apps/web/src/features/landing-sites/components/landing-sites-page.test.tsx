// Landing Sites (Admin, issue 20): a site's branding, legal texts and working keys; a new key shown once (and
// kept out of the store); rotation with a grace period; a new version of the legal texts; no page for others.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_KEY_GRACE_MINUTES, type LandingSiteAdmin, type StaffType } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes, renderWithApp } from '../../../test/render';
import { signIn } from '../../../test/session';
import { GRACE_CHOICES } from '../landing-site-rules';
import { LandingSitesPage } from './landing-sites-page';

beforeAll(preloadRoutes);
const WHOLE_CONSOLE = { timeout: 20_000 };
const LIST = '/api/admin/landing-sites';
const NEW_KEY = 'etak_00aa11bb22cc33dd_Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC1zZWNyZXQtMDA';

const site = (overrides: Partial<LandingSiteAdmin> = {}): LandingSiteAdmin => ({
  key: 'default',
  display_name: 'Canada eTA Online',
  logo_url: '/brand/default-logo.svg',
  portal_url: 'https://track.canada-eta-online.example',
  mail_sender: 'Canada eTA Online <noreply@canada-eta-online.example>',
  footer_contact: 'support@canada-eta-online.example',
  support_phone: '+1 800 555 0100',
  menu_links: [{ label: 'Home', url: '/' }],
  version: 1,
  legal: {
    version: 2,
    disclaimer: 'We are a private agency.\nWe are not the Government of Canada.',
    fee_text: 'Service fee: 89.00 USD.',
    created_at: '2026-11-20T10:00:00.000Z',
    created_by: 'Asha Rao',
  },
  legalHistory: [
    { version: 2, created_at: '2026-11-20T10:00:00.000Z', created_by: 'Asha Rao' },
    { version: 1, created_at: '2026-01-05T08:00:00.000Z' },
  ],
  intakeKeys: [
    { id: '0123456789abcdef', created_at: '2026-11-20T11:00:00.000Z', created_by: 'Asha Rao', orders: 0 },
    {
      id: 'fedcba9876543210',
      created_at: '2026-06-01T09:00:00.000Z',
      created_by: 'Ben Ode',
      last_used_at: '2026-11-20T10:59:00.000Z',
      orders: 1234,
      retires_at: '2026-11-21T11:00:00.000Z',
    },
  ],
  ...overrides,
});

const EXPRESS = site({
  key: 'eta-express',
  display_name: 'eTA Express Canada',
  portal_url: undefined,
  support_phone: undefined,
  legal: {
    version: 1,
    disclaimer: 'A private service.',
    fee_text: 'Service fee: 99.00 USD.',
    created_at: '2026-01-05T08:00:00.000Z',
  },
  legalHistory: [{ version: 1, created_at: '2026-01-05T08:00:00.000Z' }],
  intakeKeys: [],
});

const MAPLE_LOGO = '/api/front/landing-sites/maple-visa/logo?v=0123456789abcdef';
const DEFAULT_LOGO = '/api/front/landing-sites/default/logo?v=fedcba9876543210';
const MAPLE = site({
  key: 'maple-visa',
  display_name: 'Maple Visa Help',
  logo_url: '',
  portal_url: 'https://track.maple-visa.example',
  mail_sender: 'Maple Visa Help <noreply@maple-visa.example>',
  footer_contact: 'help@maple-visa.example',
  support_phone: undefined,
  legal: {
    version: 1,
    disclaimer: 'A private service.',
    fee_text: 'Service fee: 69.00 USD.',
    created_at: '2026-11-20T12:00:00.000Z',
  },
  legalHistory: [{ version: 1, created_at: '2026-11-20T12:00:00.000Z' }],
  intakeKeys: [],
});
/** A chosen logo (what it holds is the server's to judge). */
const LOGO_FILE = new File(['x'.repeat(900)], 'maple.png', { type: 'image/png' });

const changed = (message: string, version: number, logoUrl: string) =>
  ok({ key: 'x', version, logo_url: logoUrl }, message);
const created = (message: string, version: number) => ({ ...changed(message, version, ''), status: 201 });
const conflict = (field: string, message: string) => ({
  status: 409,
  body: { status: 0, code: 'CONFLICT', message, data: { field } },
});

/** Puts `text` in a field as a paste would (typing each key of every field makes the test slow, not truer). */
async function fill(field: HTMLElement, text: string) {
  await userEvent.clear(field);
  await userEvent.click(field);
  await userEvent.paste(text);
}

/** jsdom has no object URLs: a chosen file's preview gets a stand-in address. */
function stubPreviews() {
  const createObjectURL = vi.fn((_file: Blob) => 'blob:http://localhost/logo');
  vi.stubGlobal(
    'URL',
    class extends URL {
      static override createObjectURL = createObjectURL;
      static override revokeObjectURL = vi.fn();
    },
  );
  return { createObjectURL };
}

/** The server: the list as `sites()` says at each call, plus the test's own answers. */
function server(sites: () => LandingSiteAdmin[], handler: StubHandler = () => undefined): StubHandler {
  return (call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    const own = handler(call);
    if (own) return own;
    if (call.method === 'GET' && call.path === LIST) return ok(sites());
    return undefined;
  };
}

function renderPage(sites: () => LandingSiteAdmin[], handler?: StubHandler, as: StaffType = 'Admin') {
  signIn('Asha Rao', as);
  const api = stubApi(server(sites, handler));
  const router = renderRoutes('/admin/landing-sites');
  return { api, router };
}

const siteSection = (name: string) => screen.findByRole('region', { name });
const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('Landing Sites', WHOLE_CONSOLE, () => {
  it('lists each site with its branding, current legal texts, their history and the keys that still work', async () => {
    const { api } = renderPage(
      () => [site(), EXPRESS],
      (call) =>
        call.path === '/api/admin/landing-sites/default/legal/1'
          ? ok({
              version: 1,
              disclaimer: 'The first disclaimer.',
              fee_text: 'Service fee: 79.00 USD.',
              created_at: '2026-01-05T08:00:00.000Z',
            })
          : undefined,
    );
    const card = within(await siteSection('Canada eTA Online'));
    expect(document.title).toBe('Landing Sites | Canada eTA — Electronic Travel Authorization');
    expect(card.getByText('default', { selector: 'code' })).toBeTruthy();
    expect(card.getByText('https://track.canada-eta-online.example')).toBeTruthy();
    expect(card.getByText('Canada eTA Online <noreply@canada-eta-online.example>')).toBeTruthy();
    expect(card.getByText('support@canada-eta-online.example')).toBeTruthy();
    expect(card.getByText('+1 800 555 0100')).toBeTruthy();

    const legal = within(card.getByRole('region', { name: 'Legal texts of Canada eTA Online' }));
    expect(legal.getByText('Version 2, saved by Asha Rao on 20/11/2026 10:00:00 UTC')).toBeTruthy();
    // Written as the Admin wrote it: the line break is kept.
    expect(legal.getByText(/^We are a private agency\./).textContent).toBe(
      'We are a private agency.\nWe are not the Government of Canada.',
    );
    expect(legal.getByText('Service fee: 89.00 USD.')).toBeTruthy();
    const history = legal.getByRole('table', { name: 'Legal text versions of Canada eTA Online' });
    expect(within(history).getAllByRole('row').slice(1).map(cellTexts)).toEqual([
      ['View', '2 (current)', '20/11/2026 10:00:00', 'Asha Rao'],
      ['View', '1', '05/01/2026 08:00:00', ''],
    ]);

    const keys = card.getByRole('table', { name: 'Intake keys of Canada eTA Online' });
    expect(within(keys).getAllByRole('row').slice(1).map(cellTexts)).toEqual([
      ['0123456789abcdef', 'Current', 'Never', '0', '20/11/2026 11:00:00', 'Asha Rao'],
      [
        'fedcba9876543210',
        'Retires 21/11/2026 11:00:00',
        '20/11/2026 10:59:00',
        '1,234',
        '01/06/2026 09:00:00',
        'Ben Ode',
      ],
    ]);
    expect(card.getByRole('button', { name: 'Rotate key' })).toBeTruthy();
    expect(card.queryByRole('button', { name: 'Create key' })).toBeNull();

    // A site without a working key says what that means, and offers to make one.
    const express = within(await siteSection('eTA Express Canada'));
    expect(express.getByText("No intake key yet: this site's forms cannot send orders.")).toBeTruthy();
    expect(express.getByRole('link', { name: '/api/docs' }).getAttribute('href')).toBe('/api/docs');
    expect(express.getByText(/docs\/INTAKE\.md/)).toBeTruthy();
    expect(express.getByRole('button', { name: 'Create key' })).toBeTruthy();
    expect(express.getByText('Not set: mails link to this server')).toBeTruthy();
    expect(express.getByText("Version 1, the site's first texts (05/01/2026 08:00:00 UTC)")).toBeTruthy();

    // An old version opens with its texts.
    await userEvent.click(within(history).getByRole('button', { name: 'View version 1' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Canada eTA Online: legal texts version 1' }));
    expect(await dialog.findByText('The first disclaimer.')).toBeTruthy();
    expect(dialog.getByText('Service fee: 79.00 USD.')).toBeTruthy();
    expect(api.callsTo('GET', '/api/admin/landing-sites/default/legal/1')).toHaveLength(1);
    await userEvent.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('creates the first key, shows it once with Copy, reloads the list and keeps the key out of the store', async () => {
    const user = userEvent.setup();
    signIn('Asha Rao', 'Admin');
    let keys: LandingSiteAdmin['intakeKeys'] = [];
    const api = stubApi(
      server(
        () => [site({ intakeKeys: keys })],
        (call) => {
          if (call.method !== 'POST' || call.path !== '/api/admin/landing-sites/default/intake-key') return undefined;
          keys = [
            { id: '00aa11bb22cc33dd', created_at: '2026-11-20T12:00:00.000Z', created_by: 'Asha Rao', orders: 0 },
          ];
          return ok(
            { intakeKey: NEW_KEY, id: '00aa11bb22cc33dd', retiring: [] },
            'Copy the new key now: it is shown only this once.',
          );
        },
      ),
    );
    const { store } = renderWithApp(<LandingSitesPage />);
    const card = within(await siteSection('Canada eTA Online'));

    await user.click(card.getByRole('button', { name: 'Create key' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New intake key for Canada eTA Online' }));
    expect(dialog.getByTestId('intake-key').textContent).toBe(NEW_KEY);
    expect(dialog.getByText(/it will not be shown again/)).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/landing-sites/default/intake-key').map((c) => c.body)).toEqual([
      { graceMinutes: 0 },
    ]);
    // The list reloads behind the dialog.
    await waitFor(() => expect(api.callsTo('GET', LIST)).toHaveLength(2));

    await user.click(dialog.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(NEW_KEY);
    expect(dialog.getByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(JSON.stringify(store.getState())).not.toContain(NEW_KEY);

    // Neither Escape nor a click beside the dialog throws the key away; Close does, for good.
    await user.keyboard('{Escape}');
    await user.click(document.querySelector<HTMLElement>('.MuiBackdrop-root')!);
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText(NEW_KEY)).toBeNull();
    expect(JSON.stringify(store.getState())).not.toContain(NEW_KEY);
    // The new key is the site's current one.
    const table = card.getByRole('table', { name: 'Intake keys of Canada eTA Online' });
    expect(within(table).getAllByRole('row').slice(1).map(cellTexts)).toEqual([
      ['00aa11bb22cc33dd', 'Current', 'Never', '0', '20/11/2026 12:00:00', 'Asha Rao'],
    ]);
    expect(card.getByRole('button', { name: 'Rotate key' })).toBeTruthy();
  });

  it('rotates only after confirmation, with the chosen grace period for the old key', async () => {
    const { api } = renderPage(
      () => [site({ intakeKeys: [site().intakeKeys[0]!] })],
      (call) =>
        call.method === 'POST' && call.path === '/api/admin/landing-sites/default/intake-key'
          ? ok({
              intakeKey: NEW_KEY,
              id: '00aa11bb22cc33dd',
              retiring: [{ id: '0123456789abcdef', retires_at: '2026-11-20T13:00:00.000Z' }],
            })
          : undefined,
    );
    const card = within(await siteSection('Canada eTA Online'));
    await userEvent.click(card.getByRole('button', { name: 'Rotate key' }));
    let confirm = within(await screen.findByRole('dialog', { name: 'Rotate the intake key?' }));
    expect(confirm.getByRole('combobox', { name: 'The old key' }).textContent).toBe('Keeps working for 24 hours');
    await userEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/admin/landing-sites/default/intake-key')).toEqual([]);

    await userEvent.click(card.getByRole('button', { name: 'Rotate key' }));
    confirm = within(await screen.findByRole('dialog', { name: 'Rotate the intake key?' }));
    await userEvent.click(confirm.getByRole('combobox', { name: 'The old key' }));
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'It stops at once',
      'Keeps working for 1 hour',
      'Keeps working for 24 hours',
      'Keeps working for 7 days',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'Keeps working for 1 hour' }));
    await userEvent.click(confirm.getByRole('button', { name: 'Rotate key' }));

    const shown = within(await screen.findByRole('dialog', { name: 'New intake key for Canada eTA Online' }));
    expect(shown.getByTestId('intake-key').textContent).toBe(NEW_KEY);
    expect(
      shown.getByText('The previous key (0123456789abcdef) keeps working until 20/11/2026 13:00:00 UTC.'),
    ).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/landing-sites/default/intake-key').map((c) => c.body)).toEqual([
      { graceMinutes: 60 },
    ]);
  });

  it("saves the legal texts as a new version: the contract's messages first, then the body, the toast and a reload", async () => {
    let legal = site().legal;
    const { api } = renderPage(
      () => [site({ legal, legalHistory: [legal, ...site().legalHistory.filter((v) => v.version !== legal.version)] })],
      (call) => {
        if (call.method !== 'POST' || call.path !== '/api/admin/landing-sites/default/legal') return undefined;
        const body = call.body as { disclaimer: string; fee_text: string };
        legal = { version: 3, ...body, created_at: '2026-11-20T12:30:00.000Z', created_by: 'Asha Rao' };
        return ok({ version: 3 }, 'Saved as version 3.');
      },
    );
    const card = within(await siteSection('Canada eTA Online'));
    await userEvent.click(card.getByRole('button', { name: 'Edit legal texts' }));
    const form = within(await screen.findByRole('form', { name: 'Edit legal texts' }));
    expect(form.getByText(/Saving changed texts makes version 3\./)).toBeTruthy();
    const disclaimer = form.getByRole('textbox', { name: 'Disclaimer' });
    const feeText = form.getByRole('textbox', { name: 'Fee text' });
    expect((disclaimer as HTMLTextAreaElement).value).toBe(site().legal.disclaimer);

    await userEvent.clear(disclaimer);
    await userEvent.type(disclaimer, '   ');
    await userEvent.clear(feeText);
    await userEvent.click(form.getByRole('button', { name: 'Save as new version' }));
    expect(await form.findByText('Please enter the disclaimer text.')).toBeTruthy();
    expect(form.getByText('Please enter the fee text.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/landing-sites/default/legal')).toEqual([]);

    await userEvent.clear(disclaimer);
    await userEvent.type(disclaimer, 'A private agency.{Enter}Not the government.');
    await userEvent.type(feeText, 'Service fee: 95.00 USD.');
    await userEvent.click(form.getByRole('button', { name: 'Save as new version' }));

    expect(await screen.findByText('Saved as version 3.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/landing-sites/default/legal').map((c) => c.body)).toEqual([
      { disclaimer: 'A private agency.\nNot the government.', fee_text: 'Service fee: 95.00 USD.' },
    ]);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit legal texts' })).toBeNull());
    expect(await card.findByText('Version 3, saved by Asha Rao on 20/11/2026 12:30:00 UTC')).toBeTruthy();
    expect(card.getByText('Service fee: 95.00 USD.')).toBeTruthy();
    expect(api.callsTo('GET', LIST)).toHaveLength(2);
  });

  it('refuses a text longer than the server takes', async () => {
    const { api } = renderPage(() => [site()]);
    const card = within(await siteSection('Canada eTA Online'));
    await userEvent.click(card.getByRole('button', { name: 'Edit legal texts' }));
    const form = within(await screen.findByRole('form', { name: 'Edit legal texts' }));
    const feeText = form.getByRole('textbox', { name: 'Fee text' });
    // Typing 20,001 characters key by key would take minutes in jsdom; a paste is what a person would do.
    await userEvent.click(feeText);
    await userEvent.paste('x'.repeat(20_001 - site().legal.fee_text.length));
    expect(form.getByText('20,001 / 20,000')).toBeTruthy();
    await userEvent.click(form.getByRole('button', { name: 'Save as new version' }));
    expect(await form.findByText('The text may be at most 20000 characters.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/landing-sites/default/legal')).toEqual([]);
  });

  it.each<StaffType>(['Manager', 'Team'])('keeps a %s out, even by URL, without asking for the sites', async (role) => {
    const { api } = renderPage(() => [site()], undefined, role);
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Landing Sites' })).toBeTruthy();
    await waitFor(() => expect(api.calls.filter(isFolderCountCall)).toHaveLength(1));
    expect(api.calls.filter((call) => call.path.includes('landing-sites'))).toEqual([]);
    expect(
      within(screen.getByRole('navigation', { name: 'Main menu' })).queryByRole('link', { name: 'Landing Sites' }),
    ).toBeNull();
  });

  it("Add landing site says what each field needs in the server's own words, and sends nothing", async () => {
    const { api } = renderPage(() => [site()]);
    await siteSection('Canada eTA Online');
    await userEvent.click(screen.getByRole('button', { name: 'Add landing site' }));
    const form = within(await screen.findByRole('form', { name: 'Add landing site' }));
    const field = (name: string) => form.getByRole('textbox', { name: new RegExp(`^${name}`) });

    await userEvent.click(form.getByRole('button', { name: 'Add site' }));
    for (const message of [
      "Please enter the site's key.",
      "Please enter the site's name.",
      'Please enter the mail sender.',
      'Please enter the contact e-mail address.',
      'Please enter the disclaimer text.',
      'Please enter the fee text.',
    ]) {
      expect(await form.findByText(message)).toBeTruthy();
    }

    await fill(field('Key'), 'Maple Visa');
    await fill(field('Mail sender'), 'maple visa');
    await fill(field('Footer contact e-mail'), 'help at maple');
    await fill(field('Support phone'), 'call us');
    await fill(field('Portal URL'), 'http://track.maple-visa.example');
    await userEvent.click(form.getByRole('button', { name: 'Add site' }));
    expect(await form.findByText(/^The key is 1 to 40 lowercase letters, digits and hyphens/)).toBeTruthy();
    expect(form.getByText(/^Enter the sender as an address \(noreply@example\.com\)/)).toBeTruthy();
    expect(form.getByText('Please enter a valid e-mail address (e.g. support@example.com).')).toBeTruthy();
    expect(form.getByText(/^A telephone number has 6 to 20 digits/)).toBeTruthy();
    expect(form.getByText(/^The portal URL starts with https:\/\/ \(http:\/\/ only for localhost\)/)).toBeTruthy();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('adds a site with its logo previewed: a key taken is said at its field; then both toasts and a reload', async () => {
    const previews = stubPreviews();
    let sites = [site()];
    const { api } = renderPage(
      () => sites,
      (call) => {
        if (call.method === 'POST' && call.path === LIST) {
          const body = call.body as { key: string };
          if (body.key === 'default') {
            return conflict(
              'key',
              'There is already a landing site with the key "default". Please choose another key.',
            );
          }
          sites = [...sites, MAPLE];
          return created('Landing site Maple Visa Help added. Make its intake key so its forms can send orders.', 1);
        }
        if (call.method === 'POST' && call.path === '/api/admin/landing-sites/maple-visa/logo') {
          sites = [site(), { ...MAPLE, version: 2, logo_url: MAPLE_LOGO }];
          return changed('The new logo was saved: mails and the portal show it from now on.', 2, MAPLE_LOGO);
        }
        return undefined;
      },
    );
    await siteSection('Canada eTA Online');
    await userEvent.click(screen.getByRole('button', { name: 'Add landing site' }));
    const form = within(await screen.findByRole('form', { name: 'Add landing site' }));
    const field = (name: string) => form.getByRole('textbox', { name: new RegExp(`^${name}`) });

    await fill(field('Name'), 'Maple Visa Help');
    await fill(field('Footer contact e-mail'), 'help@maple-visa.example');
    await fill(field('Disclaimer'), 'A private service, not the Government of Canada.');
    await fill(field('Fee text'), 'Service fee: 69.00 USD.');

    // A logo is previewed as soon as it is chosen.
    await userEvent.upload(form.getByLabelText('Logo file'), LOGO_FILE);
    expect(form.getByTestId('chosen-logo').textContent).toBe('maple.png (1 KB)');
    expect(form.getByRole('img', { name: 'The chosen logo' }).getAttribute('src')).toBe('blob:http://localhost/logo');
    expect(previews.createObjectURL).toHaveBeenCalledWith(LOGO_FILE);

    // A key another site has: the server's words at the key.
    await fill(field('Key'), 'default');
    await fill(field('Mail sender'), 'Maple Visa Help <noreply@maple-visa.example>');
    await fill(field('Portal URL'), 'https://track.maple-visa.example');
    await userEvent.click(form.getByRole('button', { name: 'Add site' }));
    expect(
      await form.findByText('There is already a landing site with the key "default". Please choose another key.'),
    ).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/landing-sites/default/logo')).toEqual([]);

    await fill(field('Key'), 'maple-visa');
    await userEvent.click(form.getByRole('button', { name: 'Add site' }));

    expect(
      await screen.findByText('Landing site Maple Visa Help added. Make its intake key so its forms can send orders.'),
    ).toBeTruthy();
    expect(await screen.findByText('The new logo was saved: mails and the portal show it from now on.')).toBeTruthy();
    expect(api.callsTo('POST', LIST).map((c) => c.body)).toEqual([
      expect.objectContaining({ key: 'default' }),
      {
        key: 'maple-visa',
        display_name: 'Maple Visa Help',
        mail_sender: 'Maple Visa Help <noreply@maple-visa.example>',
        footer_contact: 'help@maple-visa.example',
        support_phone: '',
        portal_url: 'https://track.maple-visa.example',
        disclaimer: 'A private service, not the Government of Canada.',
        fee_text: 'Service fee: 69.00 USD.',
      },
    ]);
    const [logo] = api.callsTo('POST', '/api/admin/landing-sites/maple-visa/logo');
    expect(logo!.form!.get('version')).toBe('1');
    expect((logo!.form!.get('logo') as File).name).toBe('maple.png');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Add landing site' })).toBeNull());
    const card = within(await siteSection('Maple Visa Help'));
    expect(card.getByText(MAPLE_LOGO)).toBeTruthy();
  });

  it("edits a site's branding with its logo previewed; a refusal keeps the dialog, a stale page is told", async () => {
    stubPreviews();
    let current = site();
    let stale = false;
    const { api } = renderPage(
      () => [current],
      (call) => {
        if (call.method === 'PUT' && call.path === '/api/admin/landing-sites/default/branding') {
          if (stale) {
            return {
              status: 409,
              body: {
                status: 0,
                code: 'STALE_VERSION',
                message:
                  'Landing site "default" was changed by Ben Ode at 20/11/2026 12:00:00 UTC after you opened it. Nothing was overwritten: reload the page, check its branding and try again.',
              },
            };
          }
          const body = call.body as Partial<LandingSiteAdmin>;
          current = { ...current, ...body, version: 2 };
          return changed('The branding of Canada eTA Online was saved.', 2, current.logo_url);
        }
        if (call.method === 'POST' && call.path === '/api/admin/landing-sites/default/logo') {
          current = { ...current, version: 3, logo_url: DEFAULT_LOGO };
          return changed('The new logo was saved: mails and the portal show it from now on.', 3, DEFAULT_LOGO);
        }
        return undefined;
      },
    );
    const card = within(await siteSection('Canada eTA Online'));
    await userEvent.click(card.getByRole('button', { name: 'Edit branding' }));
    let form = within(await screen.findByRole('form', { name: 'Edit branding' }));
    const field = (name: string) => form.getByRole('textbox', { name: new RegExp(`^${name}`) });
    expect((field('Mail sender') as HTMLInputElement).value).toBe(
      'Canada eTA Online <noreply@canada-eta-online.example>',
    );
    expect((field('Portal URL') as HTMLInputElement).value).toBe('https://track.canada-eta-online.example');
    expect(form.getByRole('img', { name: 'The logo in use' }).getAttribute('src')).toBe('/brand/default-logo.svg');

    await fill(field('Footer contact e-mail'), 'support at canada');
    await userEvent.upload(form.getByLabelText('Logo file'), LOGO_FILE);
    expect(form.getByRole('img', { name: 'The chosen logo' })).toBeTruthy();
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Please enter a valid e-mail address (e.g. support@example.com).')).toBeTruthy();
    expect(api.calls.filter((c) => c.method !== 'GET')).toEqual([]);

    await fill(field('Footer contact e-mail'), 'care@canada-eta-online.example');
    await userEvent.clear(field('Support phone'));
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The branding of Canada eTA Online was saved.')).toBeTruthy();
    expect(await screen.findByText('The new logo was saved: mails and the portal show it from now on.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/landing-sites/default/branding').map((c) => c.body)).toEqual([
      {
        version: 1,
        display_name: 'Canada eTA Online',
        mail_sender: 'Canada eTA Online <noreply@canada-eta-online.example>',
        footer_contact: 'care@canada-eta-online.example',
        support_phone: '',
        portal_url: 'https://track.canada-eta-online.example',
      },
    ]);
    // The logo goes with the version the branding's save answered.
    const [logo] = api.callsTo('POST', '/api/admin/landing-sites/default/logo');
    expect(logo!.form!.get('version')).toBe('2');
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit branding' })).toBeNull());
    expect(await card.findByText('care@canada-eta-online.example')).toBeTruthy();
    expect(card.getByText(DEFAULT_LOGO)).toBeTruthy();

    // Someone else saved meanwhile: the server's words, and what was typed stays.
    stale = true;
    await userEvent.click(card.getByRole('button', { name: 'Edit branding' }));
    form = within(await screen.findByRole('form', { name: 'Edit branding' }));
    await fill(field('Name'), 'Canada eTA Online Help');
    await userEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/^Landing site "default" was changed by Ben Ode/)).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Edit branding' })).toBeTruthy();
    expect((field('Name') as HTMLInputElement).value).toBe('Canada eTA Online Help');
  });

  it('offers only grace periods the server accepts', () => {
    expect(Math.max(...GRACE_CHOICES.map((choice) => choice.minutes))).toBeLessThanOrEqual(MAX_KEY_GRACE_MINUTES);
    expect(GRACE_CHOICES.map((choice) => choice.minutes)).toEqual([0, 60, 1440, 10080]);
  });
});
