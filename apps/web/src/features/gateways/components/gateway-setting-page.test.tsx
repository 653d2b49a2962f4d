// Change Gateway (spec §2, §5): the select, 'Please select gateway.', and the switch with the server's message.
// Issue 21: Admins also see each gateway's health and the webhooks the desk could not match; Managers do not.
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

const HEALTH = '/api/admin/payment-gateways/health';
const UNMATCHED = '/api/admin/gateway-events/unmatched';

const GATEWAYS: Gateway[] = ['Stripe', 'PayPal', 'Authorize.Net'].map((name, i) => ({
  id: i + 1,
  gateway_name: name,
  is_active: i === 0 ? '1' : '0',
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
