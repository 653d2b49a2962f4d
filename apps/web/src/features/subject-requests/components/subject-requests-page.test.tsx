// Customer Requests (Admin, issue 24): find a customer's orders by e-mail, download the export as JSON and PDF, erase
// after a confirmation (legal holds kept, with the reason), the refusal while a dispute is open shown before anyone
// clicks, and no page for other roles.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { StaffType, SubjectSummary } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);
const WHOLE_CONSOLE = { timeout: 20_000 };
const SUMMARY = '/api/admin/subject-requests/summary';
const EMAIL = 'grace.hopper@customer.test';

const summary = (overrides: Partial<SubjectSummary> = {}): SubjectSummary => ({
  email: EMAIL,
  orders: [
    {
      orderId: 'ETA-300000001',
      createdAt: '2026-10-01T10:00:00.000Z',
      landingSite: 'default',
      status: 'Completed',
      mails: 2,
      downloads: 3,
      remarks: 1,
    },
    {
      orderId: 'ETA-300000002',
      createdAt: '2026-11-01T10:00:00.000Z',
      landingSite: 'default',
      status: 'New',
      legalHold: { heldAt: '2026-11-02T10:00:00.000Z', heldBy: 'Asha Rao', reason: 'Court order' },
      mails: 0,
      downloads: 0,
      remarks: 0,
    },
  ],
  ...overrides,
});

function renderPage(handler: StubHandler, as: StaffType = 'Admin') {
  signIn('Asha Rao', as);
  const api = stubApi((call) => (isFolderCountCall(call) ? ok(FOLDER_COUNTS) : handler(call)));
  renderRoutes('/admin/customer-requests');
  return api;
}

async function find(email = EMAIL) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Customer e-mail address'), email);
  await user.click(screen.getByRole('button', { name: 'Find' }));
  return user;
}

const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('Customer Requests', WHOLE_CONSOLE, () => {
  it('finds every order of the e-mail address and downloads the export as JSON and as PDF', async () => {
    // jsdom has no object URLs.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:http://localhost/export');
    class UrlWithObjects extends URL {
      static override createObjectURL = createObjectURL;
      static override revokeObjectURL = vi.fn();
    }
    vi.stubGlobal('URL', UrlWithObjects);
    // The browser would save the file; jsdom cannot navigate.
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const api = renderPage((call) => {
      if (call.method === 'POST' && call.path === SUMMARY) return ok(summary());
      if (call.path === '/api/admin/subject-requests/export.json') {
        return {
          body: null,
          raw: { content: '{"orders":[]}', contentType: 'application/vnd.eta-desk.subject-access+json' },
        };
      }
      if (call.path === '/api/admin/subject-requests/export.pdf') {
        return { body: null, raw: { content: '%PDF-1.7', contentType: 'application/pdf' } };
      }
      return undefined;
    });
    const user = await find();
    const table = await screen.findByRole('table', { name: 'Orders of this person' });
    expect(screen.getByRole('heading', { name: `${EMAIL}: 2 orders` })).toBeTruthy();
    expect(within(table).getAllByRole('row').slice(1).map(cellTexts)).toEqual([
      ['ETA-300000001', '01/10/2026 10:00:00 UTC', 'default', 'Completed', 'Held', '2', '3', '1'],
      ['ETA-300000002', '01/11/2026 10:00:00 UTC', 'default', 'New', 'Legal hold: Court order', '0', '0', '0'],
    ]);
    expect(api.callsTo('POST', SUMMARY).map((c) => c.body)).toEqual([{ email: EMAIL }]);

    await user.click(screen.getByRole('button', { name: 'Download JSON' }));
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(2));
    expect(createObjectURL.mock.calls[1]![0].type).toBe('application/pdf');
    const today = new Date().toISOString().slice(0, 10);
    expect(saved).toEqual([`subject-access-${today}.json`, `subject-access-${today}.pdf`]);
    expect(api.callsTo('POST', '/api/admin/subject-requests/export.json').map((c) => c.body)).toEqual([
      { email: EMAIL },
    ]);
    expect(api.callsTo('POST', '/api/admin/subject-requests/export.pdf')).toHaveLength(1);
  });

  it('checks the address before asking, and says when no order has it', async () => {
    const api = renderPage((call) =>
      call.method === 'POST' && call.path === SUMMARY ? ok({ email: 'nobody@test.local', orders: [] }) : undefined,
    );
    const user = await find('not-an-address');
    expect(await screen.findByText('Please enter a valid email address.')).toBeTruthy();
    expect(api.callsTo('POST', SUMMARY)).toHaveLength(0);
    await user.clear(screen.getByLabelText('Customer e-mail address'));
    await user.type(screen.getByLabelText('Customer e-mail address'), 'nobody@test.local');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByText('No order has this e-mail address.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Erase personal data' }).hasAttribute('disabled')).toBe(true);
  });

  it('erases after a confirmation and says which orders were kept and why', async () => {
    let erased = false;
    const api = renderPage((call) => {
      if (call.method === 'POST' && call.path === SUMMARY) {
        return ok(
          // The erased order's address went with its data: only the held order is still found.
          erased ? summary({ orders: [summary().orders[1]!] }) : summary(),
        );
      }
      if (call.method === 'POST' && call.path === '/api/admin/subject-requests/erase') {
        erased = true;
        return ok(
          {
            erased: ['ETA-300000001'],
            skipped: [
              { orderId: 'ETA-300000002', site: 'default', code: 'LEGAL_HOLD', reason: 'on legal hold: Court order' },
            ],
          },
          '1 order erased, 1 kept.',
        );
      }
      return undefined;
    });
    const user = await find();
    await user.click(await screen.findByRole('button', { name: 'Erase personal data' }));
    expect(await screen.findByText(/Erase the personal data of 2 orders of grace.hopper@customer.test\?/)).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/subject-requests/erase')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Yes' }));

    const outcome = await screen.findByRole('status');
    expect(outcome.textContent).toContain('1 order erased: ETA-300000001.');
    expect(outcome.textContent).toContain('ETA-300000002 kept: on legal hold: Court order');
    expect(api.callsTo('POST', '/api/admin/subject-requests/erase').map((c) => c.body)).toEqual([
      { email: EMAIL, confirm: true },
    ]);
    const table = screen.getByRole('table', { name: 'Orders of this person' });
    await waitFor(() => expect(within(table).queryByText('ETA-300000001')).toBeNull());
    expect(within(table).getByText('ETA-300000002')).toBeTruthy();
  });

  it('shows why an erasure would be refused while a dispute is open, and offers none', async () => {
    renderPage((call) =>
      call.method === 'POST' && call.path === SUMMARY
        ? ok(
            summary({
              erasureRefusal:
                'Erasure refused while a dispute is open: order ETA-300000001 (dispute dp_1 (needs_response)).',
            }),
          )
        : undefined,
    );
    await find();
    expect(await screen.findByText(/Erasure refused while a dispute is open/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Erase personal data' }).hasAttribute('disabled')).toBe(true);
  });

  it('is not there for a Manager', async () => {
    renderPage(() => undefined, 'Manager');
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
  });
});
