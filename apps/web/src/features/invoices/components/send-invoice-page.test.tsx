// Send Invoice (spec §2, §5, §8) in the whole console, reached from the side menu's "Manage Invoices".
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SentInvoice } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';
import { encodeOrderId } from '../../../lib/order-id';

beforeAll(preloadRoutes);

const WHOLE_CONSOLE = { timeout: 20_000 };
const SEND = '/api/admin/send-invoice';

function renderPage(handler: StubHandler = () => undefined, path = '/admin/send-invoice') {
  signIn('Asha Rao', 'Telecaller');
  const api = stubApi((call) => (isFolderCountCall(call) ? ok(FOLDER_COUNTS) : handler(call)));
  const router = renderRoutes(path);
  return { api, router, sent: () => api.callsTo('POST', SEND).map((call) => call.body) };
}

const orderIdBox = () => screen.getByRole('textbox', { name: 'Order ID' });
const sendButton = () => screen.getByRole('button', { name: 'Send Invoice' });
const toastOf = (text: string) => screen.findByText(text).then((node) => node.closest('.Toastify__toast')!);

const invoice: SentInvoice = {
  orderId: 'ETA-200020076',
  invoiceNumber: 'INV-2026-000042',
  mailId: 31,
  to: 'maria@example.com',
  provider: 'Sendgrid',
  resent: false,
  delivery: { state: 'queued' },
};

describe('Send Invoice', WHOLE_CONSOLE, () => {
  it('is the page behind "Manage Invoices" in the side menu', async () => {
    const { router } = renderPage(undefined, '/admin');
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    await userEvent.click(within(menu).getByRole('link', { name: 'Manage Invoices' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/send-invoice'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Send Invoice' })).toBeTruthy();
    expect(screen.queryByText(/coming soon/i)).toBeNull();
  });

  it("refuses an empty or blank order id with 'Please enter your order id.' and a short one with 'Order Id must be at least 6 characters.', sending nothing", async () => {
    const { sent } = renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Send Invoice' });

    await userEvent.click(sendButton());
    expect(await screen.findByText('Please enter your order id.')).toBeTruthy();
    await userEvent.type(orderIdBox(), '   ');
    await userEvent.click(sendButton());
    expect(await screen.findByText('Please enter your order id.')).toBeTruthy();

    await userEvent.clear(orderIdBox());
    await userEvent.type(orderIdBox(), ' ETA-1 ');
    await userEvent.click(sendButton());
    expect(await screen.findByText('Order Id must be at least 6 characters.')).toBeTruthy();
    expect(sent()).toEqual([]);
  });

  it("sends the order id, shows the server's message as a success toast, and names the invoice with a link to its order", async () => {
    const message = 'Invoice INV-2026-000042 is being sent to maria@example.com.';
    const { sent, router } = renderPage((call) => (call.path === SEND ? ok(invoice, message) : undefined));
    await screen.findByRole('heading', { level: 1, name: 'Send Invoice' });
    await userEvent.type(orderIdBox(), ' ETA-200020076 ');
    await userEvent.click(sendButton());

    expect((await toastOf(message)).className).toContain('Toastify__toast--success');
    expect(sent()).toEqual([{ orderId: 'ETA-200020076' }]);
    const note = screen.getByText('INV-2026-000042').closest('[role="alert"]')!;
    expect(note.textContent).toContain('Invoice INV-2026-000042 is being sent to maria@example.com through Sendgrid.');
    expect((orderIdBox() as HTMLInputElement).value).toBe('');

    await userEvent.click(within(note as HTMLElement).getByRole('link', { name: 'Open order ETA-200020076' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/admin/view-order/${encodeOrderId('ETA-200020076')}`),
    );
  });

  it('says the invoice mail was not sent, as a warning, when the answer says so (issue 22)', async () => {
    const message =
      'Invoice INV-2026-000042 is ready, but no mail provider is configured: the mail to maria@example.com is kept in Email History as not sent.';
    renderPage((call) =>
      call.path === SEND
        ? ok({ ...invoice, provider: 'AWS', delivery: { state: 'not_sent', reason: 'no_provider' } }, message)
        : undefined,
    );
    await screen.findByRole('heading', { level: 1, name: 'Send Invoice' });
    await userEvent.type(orderIdBox(), 'ETA-200020076');
    await userEvent.click(sendButton());

    const toast = await toastOf(message);
    expect(toast.className).toContain('Toastify__toast--warning');
    expect(toast.className).not.toContain('Toastify__toast--success');
    const note = screen.getByText('INV-2026-000042').closest('[role="alert"]')!;
    expect(note.textContent).toContain(
      'Invoice INV-2026-000042 is ready, but its mail to maria@example.com was not sent: no mail provider is configured on this server.',
    );
    expect(note.textContent).not.toMatch(/is being sent|through AWS/);
    expect(note.className).toContain('MuiAlert-standardWarning');
  });

  it("shows a refusal as an error toast in the server's words", async () => {
    const message = 'Order ETA-999999999 was not found.';
    renderPage((call) =>
      call.path === SEND ? { status: 404, body: { status: 0, code: 'ORDER_NOT_FOUND', message } } : undefined,
    );
    await screen.findByRole('heading', { level: 1, name: 'Send Invoice' });
    await userEvent.type(orderIdBox(), 'ETA-999999999');
    await userEvent.click(sendButton());

    const toast = await toastOf(message);
    expect(toast.className).toContain('Toastify__toast--error');
    // One toast, in the server's words only.
    expect(screen.queryByText('Something went wrong while sending the invoice.')).toBeNull();
    expect(screen.queryByText('INV-2026-000042')).toBeNull();
    expect((orderIdBox() as HTMLInputElement).value).toBe('ETA-999999999');
  });

  it("says 'Something went wrong while sending the invoice.' when the call fails without an answer", async () => {
    renderPage((call) => {
      if (call.path === SEND) throw new TypeError('Failed to fetch');
      return undefined;
    });
    await screen.findByRole('heading', { level: 1, name: 'Send Invoice' });
    await userEvent.type(orderIdBox(), 'ETA-200020076');
    await userEvent.click(sendButton());
    expect((await toastOf('Something went wrong while sending the invoice.')).className).toContain(
      'Toastify__toast--error',
    );
  });

  it("says 'Something went wrong while sending the invoice.' for a server fault", async () => {
    renderPage((call) =>
      call.path === SEND
        ? { status: 500, body: { status: 0, code: 'INTERNAL', message: 'Something went wrong on our side.' } }
        : undefined,
    );
    await screen.findByRole('heading', { level: 1, name: 'Send Invoice' });
    await userEvent.type(orderIdBox(), 'ETA-200020076');
    await userEvent.click(sendButton());
    expect(await toastOf('Something went wrong while sending the invoice.')).toBeTruthy();
    expect(screen.queryByText('Something went wrong on our side.')).toBeNull();
  });
});
