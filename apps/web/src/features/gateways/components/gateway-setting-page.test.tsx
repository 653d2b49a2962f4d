// Change Gateway (spec §2, §5): the select, 'Please select gateway.', and the switch with the server's message.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '@eta/contracts';
import { ok, stubApi } from '../../../test/api-stub';
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
    expect(api.callsTo('POST', '/api/admin/payment-gateway-setting').map((c) => c.body)).toEqual([{ gatewayId: 2 }]);
    expect(await screen.findByText('PayPal', { selector: 'strong' })).toBeTruthy();
  });
});
