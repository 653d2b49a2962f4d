// Change Gateway (spec §2, §5): the select, 'Please select gateway.', and the switch with the server's message.
// Issue 21: Admins also see each gateway's health and the webhooks the desk could not match; Managers do not.
// Issue 33: a gateway without keys is marked, as the active one too, and activating one asks first.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Gateway, GatewayHealth, UnmatchedEvent } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);

describe('Change Gateway', { timeout: 20_000 }, () => {
  it("names the active gateway, refuses an empty choice with the spec's message, and switches", async () => {
    signIn('Rajesh Menon', 'Manager');
    let active = 1;
    const gateways = (): Gateway[] =>
      ['Stripe', 'PayPal', 'Authorize.Net'].map((name, i) => ({
        id: i + 1,
        gateway_name: name,
        is_active: active === i + 1 ? '1' : '0',
        configured: true,
      }));
    const api = stubApi((call) => {
      if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
      if (call.path === '/api/admin/payment-gateways') return ok(gateways());
      if (call.path === '/api/admin/payment-gateway-setting') {
        active = (call.body as { gatewayId: number }).gatewayId;
        return ok(gateways()[active - 1], 'PayPal is now the active gateway.');
      }
      return undefined;
    });
    renderRoutes('/admin/gateway-setting');
    expect(await screen.findByText('Stripe', { selector: 'strong' })).toBeTruthy();
    // A visit announces nothing (issue 22): no toast and no alert until the person saves.
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(document.querySelector('.Toastify__toast')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Active Gateway' }));
    expect(await screen.findByText('Please select gateway.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/payment-gateway-setting')).toEqual([]);

    await userEvent.click(screen.getByRole('combobox', { name: 'Gateway' }));
    const list = await screen.findByRole('listbox');
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Stripe (active)', 'PayPal', 'Authorize.Net']);
    await userEvent.click(within(list).getByRole('option', { name: 'PayPal' }));
    await userEvent.click(screen.getByRole('button', { name: 'Active Gateway' }));
    expect(await screen.findByText('PayPal is now the active gateway.')).toBeTruthy();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'PayPal is now the active gateway.',
    ]);
    expect(api.callsTo('POST', '/api/admin/payment-gateway-setting').map((c) => c.body)).toEqual([{ gatewayId: 2 }]);
    expect(await screen.findByText('PayPal', { selector: 'strong' })).toBeTruthy();
  });
});

describe('A gateway without keys', { timeout: 20_000 }, () => {
  const MEANING =
    'is not configured on this server: until its keys are set, payments made through it are not verified, and refunds and dispute evidence cannot go through it.';
  const SETTING = '/api/admin/payment-gateway-setting';

  /**
   * Stripe active and configured or not; PayPal never configured (though the first list may say it is, as one read
   * before its keys were removed would); a switch answers as the server does.
   */
  function renderSwitch(stripeConfigured: boolean, { listsPayPalConfigured = false } = {}) {
    signIn('Rajesh Menon', 'Manager');
    let active = 1;
    let lists = 0;
    const gateways = (): Gateway[] =>
      ['Stripe', 'PayPal', 'Authorize.Net'].map((name, i) => ({
        id: i + 1,
        gateway_name: name,
        is_active: active === i + 1 ? '1' : '0',
        configured: name === 'Stripe' ? stripeConfigured : name === 'Authorize.Net',
      }));
    const api = stubApi((call) => {
      if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
      if (call.path === '/api/admin/payment-gateways') {
        lists += 1;
        const list = gateways();
        return ok(lists === 1 && listsPayPalConfigured ? list.map((g) => ({ ...g, configured: true })) : list);
      }
      if (call.path === SETTING) {
        const body = call.body as { gatewayId: number; activateNotConfigured?: boolean };
        const target = gateways()[body.gatewayId - 1]!;
        if (!target.configured && !body.activateNotConfigured) {
          return {
            status: 409,
            body: { status: 0, code: 'GATEWAY_NOT_CONFIGURED', message: `${target.gateway_name} ${MEANING}` },
          };
        }
        active = body.gatewayId;
        const warning = target.configured ? '' : ` ${target.gateway_name} ${MEANING}`;
        return ok(gateways()[active - 1], `${target.gateway_name} is now the active gateway.${warning}`);
      }
      return undefined;
    });
    renderRoutes('/admin/gateway-setting');
    return api;
  }

  const choose = async (option: string) => {
    await userEvent.click(screen.getByRole('combobox', { name: 'Gateway' }));
    await userEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
    await userEvent.click(screen.getByRole('button', { name: 'Active Gateway' }));
  };

  it('marks an active gateway this server has no keys for, in a warning colour, and names such gateways in the list', async () => {
    renderSwitch(false);
    expect(await screen.findByText('Stripe', { selector: 'strong' }, { timeout: 5000 })).toBeTruthy();
    const chip = screen.getByText('Active — not configured');
    expect(chip.closest('.MuiChip-root')!.className).toContain('MuiChip-colorWarning');
    expect(screen.getByRole('note').textContent).toBe(`Stripe ${MEANING}`);
    // Part of the page: a visit announces nothing.
    expect(screen.queryAllByRole('alert')).toEqual([]);

    await userEvent.click(screen.getByRole('combobox', { name: 'Gateway' }));
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Stripe (active, not configured)', 'PayPal (not configured)', 'Authorize.Net']);
  });

  it('asks before activating one, changes nothing on No, and on Yes switches and says what it means', async () => {
    const api = renderSwitch(true);
    expect(await screen.findByText('Stripe', { selector: 'strong' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText('Active — not configured')).toBeNull();
    expect(screen.queryByRole('note')).toBeNull();

    await choose('PayPal (not configured)');
    const question = await screen.findByRole('dialog');
    expect(question.textContent).toContain(`PayPal ${MEANING} Make PayPal the active gateway anyway?`);
    await userEvent.click(within(question).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', SETTING)).toEqual([]);
    expect(screen.getByText('Stripe', { selector: 'strong' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Active Gateway' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(api.callsTo('POST', SETTING).map((c) => c.body)).toEqual([{ gatewayId: 2, activateNotConfigured: true }]);
    expect(await screen.findByText(`PayPal is now the active gateway. PayPal ${MEANING}`)).toBeTruthy();
    expect(await screen.findByText('PayPal', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByText('Active — not configured')).toBeTruthy();
    // (Found once the dialog has closed and the page is no longer hidden behind it.)
    expect((await screen.findByRole('note')).textContent).toBe(`PayPal ${MEANING}`);

    // A configured gateway switches without a question.
    await choose('Authorize.Net');
    expect(await screen.findByText('Authorize.Net is now the active gateway.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('POST', SETTING).at(-1)!.body).toEqual({ gatewayId: 3 });
  });

  it('asks the same question when the server refuses a gateway whose keys went away since the page read the list', async () => {
    const api = renderSwitch(true, { listsPayPalConfigured: true });
    expect(await screen.findByText('Stripe', { selector: 'strong' }, { timeout: 5000 })).toBeTruthy();
    await choose('PayPal');
    const question = await screen.findByRole('dialog');
    expect(question.textContent).toContain(`PayPal ${MEANING} Make PayPal the active gateway anyway?`);
    // The refusal is the question, not an error toast; nothing changed yet.
    expect(document.querySelector('.Toastify__toast')).toBeNull();
    expect(screen.getByText('Stripe', { selector: 'strong' })).toBeTruthy();
    await userEvent.click(within(question).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('PayPal', { selector: 'strong' })).toBeTruthy();
    expect(api.callsTo('POST', SETTING).map((c) => c.body)).toEqual([
      { gatewayId: 2 },
      { gatewayId: 2, activateNotConfigured: true },
    ]);
  });
});

const HEALTH = '/api/admin/payment-gateways/health';
const UNMATCHED = '/api/admin/gateway-events/unmatched';

const GATEWAYS: Gateway[] = ['Stripe', 'PayPal', 'Authorize.Net'].map((name, i) => ({
  id: i + 1,
  gateway_name: name,
  is_active: i === 0 ? '1' : '0',
  configured: name !== 'Authorize.Net',
}));

const HEALTHY: GatewayHealth[] = [
  {
    gateway_name: 'Stripe',
    configured: true,
    verifiesPayments: true,
    refunds: true,
    disputes: true,
    webhookUrl: 'https://desk.example.com/api/webhooks/stripe',
    lastWebhookAt: '2026-11-20T10:00:02.000Z',
    lastWebhookVerified: true,
    lastError: 'A webhook was refused: No signatures found matching the expected signature for payload.',
    lastErrorAt: '2026-11-19T08:30:00.000Z',
    note: null,
  },
  {
    gateway_name: 'Authorize.Net',
    configured: false,
    verifiesPayments: true,
    refunds: true,
    disputes: false,
    webhookUrl: null,
    lastWebhookAt: null,
    lastWebhookVerified: null,
    lastError: null,
    lastErrorAt: null,
    note: 'Set AUTHORIZE_NET_LOGIN_ID and AUTHORIZE_NET_TRANSACTION_KEY. Authorize.Net has no dispute API: answer its chargebacks in its own dashboard.',
  },
];

const unmatched = (id: number): UnmatchedEvent => ({
  id,
  gateway_name: 'Stripe',
  event_id: `evt_unmatched${String(id).padStart(3, '0')}`,
  type: 'charge.dispute.created',
  received_at: '2026-11-20T09:00:00.000Z',
  note: `No order has payment pi_unknown${id} or ch_unknown${id}.`,
});

function renderGatewayPage(role: 'Admin' | 'Manager', handler: StubHandler = () => undefined) {
  signIn('Grace Whitfield', role);
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    const reply = handler(call);
    if (reply) return reply;
    if (call.path === '/api/admin/payment-gateways') return ok(GATEWAYS);
    if (call.path === HEALTH) return ok(HEALTHY);
    if (call.path === UNMATCHED) return ok({ rows: [], total: 0 });
    return undefined;
  });
  renderRoutes('/admin/gateway-setting');
  return api;
}

/** The value next to a label in a gateway's card. */
function rowValue(card: HTMLElement, label: string): string | null {
  const term = within(card)
    .queryAllByRole('term')
    .find((dt) => dt.textContent === label);
  return term ? (term.nextElementSibling?.textContent ?? '') : null;
}

describe('Gateway health', { timeout: 20_000 }, () => {
  it('shows an Admin each gateway: configured, what it does, its webhook URL to copy, last webhook and error', async () => {
    renderGatewayPage('Admin');
    const stripe = await screen.findByRole('region', { name: 'Stripe' }, { timeout: 5000 });
    expect(within(stripe).getByText('Configured')).toBeTruthy();
    expect(within(stripe).getByText('Active')).toBeTruthy();
    expect(within(stripe).getByLabelText('Verifies payments: yes')).toBeTruthy();
    expect(within(stripe).getByLabelText('Dispute evidence: yes')).toBeTruthy();
    expect(rowValue(stripe, 'Webhook URL')).toContain('https://desk.example.com/api/webhooks/stripe');
    expect(rowValue(stripe, 'Last webhook')).toBe('20/11/2026 10:00:02 UTCSignature verified');
    expect(rowValue(stripe, 'Last error')).toBe(
      '19/11/2026 08:30:00 UTC: A webhook was refused: No signatures found matching the expected signature for payload.',
    );

    const user = userEvent.setup();
    await user.click(within(stripe).getByRole('button', { name: 'Copy the Stripe webhook URL' }));
    expect(await navigator.clipboard.readText()).toBe('https://desk.example.com/api/webhooks/stripe');
    expect(within(stripe).getByRole('button', { name: 'Copied the Stripe webhook URL' })).toBeTruthy();

    const authorizeNet = screen.getByRole('region', { name: 'Authorize.Net' });
    expect(within(authorizeNet).getByText('Not configured')).toBeTruthy();
    expect(within(authorizeNet).getByLabelText('Dispute evidence: no')).toBeTruthy();
    expect(rowValue(authorizeNet, 'Webhook URL')).toBe('This gateway sends no webhooks to the desk.');
    expect(rowValue(authorizeNet, 'Last webhook')).toBe('None received yet');
    expect(rowValue(authorizeNet, 'Last error')).toBe('None');
    expect(within(authorizeNet).getByText(/has no dispute API/)).toBeTruthy();
  });

  it('marks a webhook whose signature did not hold', async () => {
    renderGatewayPage('Admin', (call) =>
      call.path === HEALTH
        ? ok([{ ...HEALTHY[0]!, lastWebhookVerified: false, lastError: null, lastErrorAt: null }])
        : undefined,
    );
    const stripe = await screen.findByRole('region', { name: 'Stripe' }, { timeout: 5000 });
    const chip = within(stripe).getByText('Signature did not hold');
    expect(chip.closest('.MuiChip-root')!.className).toContain('MuiChip-colorError');
  });

  it('pages the webhooks the desk could not match, newest first', async () => {
    const api = renderGatewayPage('Admin', (call) => {
      if (call.path !== UNMATCHED) return undefined;
      const page = Number(call.query.get('page'));
      const limit = Number(call.query.get('limit'));
      const all = Array.from({ length: 23 }, (_, i) => unmatched(23 - i));
      return ok({ rows: all.slice((page - 1) * limit, page * limit), total: all.length });
    });
    const table = await screen.findByRole('table', { name: 'Webhooks the desk could not match' }, { timeout: 5000 });
    await within(table).findByText('evt_unmatched023');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Received (UTC)', 'Gateway', 'Event id', 'Type', 'Why it did not match']);
    const first = within(table).getByText('evt_unmatched023').closest('tr')!;
    expect([...first.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
      '20/11/2026 09:00:00',
      'Stripe',
      'evt_unmatched023',
      'charge.dispute.created',
      'No order has payment pi_unknown23 or ch_unknown23.',
    ]);
    expect(within(table).getAllByRole('row')).toHaveLength(21);

    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await within(table).findByText('evt_unmatched003');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(Object.fromEntries(api.callsTo('GET', UNMATCHED).at(-1)!.query)).toEqual({ page: '2', limit: '20' });
  });

  it('says there are no unmatched webhooks when there are none', async () => {
    renderGatewayPage('Admin');
    const table = await screen.findByRole('table', { name: 'Webhooks the desk could not match' }, { timeout: 5000 });
    expect(await within(table).findByText('None: every webhook received so far matched an order.')).toBeTruthy();
  });

  it("tells the Admin when the health cannot be loaded, in the server's words", async () => {
    renderGatewayPage('Admin', (call) =>
      call.path === HEALTH
        ? { status: 500, body: { status: 0, code: 'INTERNAL', message: 'Something went wrong on our side.' } }
        : undefined,
    );
    const alert = await screen.findByText(/The gateways' health could not be loaded\./, {}, { timeout: 5000 });
    expect(alert.textContent).toContain('Something went wrong on our side.');
  });

  it('shows a Manager only the gateway switch, without asking for the health', async () => {
    const api = renderGatewayPage('Manager');
    expect(await screen.findByText('Stripe', { selector: 'strong' }, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/payment-gateways')).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'Gateway health' })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Webhooks the desk could not match' })).toBeNull();
    expect(api.callsTo('GET', HEALTH)).toEqual([]);
    expect(api.callsTo('GET', UNMATCHED)).toEqual([]);
  });
});
