// Data Retention (Admin, issue 24): the policy per landing site (edited, checked before sending), the last runs with
// their progress, a dry run's report (per site, which orders, which are skipped and why), Run now after a
// confirmation, and no page for other roles.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RetentionOverview, RetentionRun, StaffType } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);
const WHOLE_CONSOLE = { timeout: 20_000 };
const OVERVIEW = '/api/admin/retention';

const run = (overrides: Partial<RetentionRun> = {}): RetentionRun => ({
  id: 7,
  dryRun: false,
  trigger: 'daily',
  startedAt: '2026-11-20T03:00:00.000Z',
  cutoffAt: '2026-11-20T03:00:00.000Z',
  heartbeatAt: '2026-11-20T03:05:00.000Z',
  finishedAt: '2026-11-20T03:05:00.000Z',
  state: 'finished',
  lastOrderKey: 1200,
  erased: 12,
  skipped: 2,
  filesDeleted: 20,
  fileFailures: 0,
  resumed: 1,
  ...overrides,
});

const DRY = run({
  id: 8,
  dryRun: true,
  trigger: 'manual',
  startedBy: 'Asha Rao',
  erased: 0,
  skipped: 0,
  filesDeleted: 0,
  resumed: 0,
  report: {
    bySite: [
      { site: 'default', erased: 2, skipped: 1 },
      { site: 'eta-express', erased: 1, skipped: 0 },
    ],
    orders: [
      { orderId: 'ETA-200000001', site: 'default', dueFrom: '2023-06-01' },
      { orderId: 'ETA-200000002', site: 'default', dueFrom: '2023-07-12' },
      { orderId: 'ETA-200000009', site: 'eta-express', dueFrom: '2023-01-30' },
    ],
    skips: [{ orderId: 'ETA-200000005', site: 'default', code: 'DISPUTE_OPEN', reason: 'a dispute is open' }],
    truncated: false,
  },
});

const overview = (runs: RetentionRun[], months = 24): RetentionOverview => ({
  policies: [
    { key: 'default', displayName: 'Canada eTA Online', months },
    { key: 'eta-express', displayName: 'eTA Express Canada', months: 36 },
  ],
  runs,
});

function renderPage(state: () => RetentionOverview, handler: StubHandler = () => undefined, as: StaffType = 'Admin') {
  signIn('Asha Rao', as);
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    const own = handler(call);
    if (own) return own;
    if (call.method === 'GET' && call.path === OVERVIEW) return ok(state());
    return undefined;
  });
  renderRoutes('/admin/retention');
  return api;
}

const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('Data Retention', WHOLE_CONSOLE, () => {
  it('shows each site’s policy and the last runs; saves a new policy after checking it', async () => {
    const user = userEvent.setup();
    let months = 24;
    const api = renderPage(
      () => overview([run()], months),
      (call) => {
        if (call.method !== 'PUT' || call.path !== '/api/admin/retention/policies/default') return undefined;
        months = (call.body as { months: number }).months;
        return ok(
          { key: 'default', displayName: 'Canada eTA Online', months },
          `Canada eTA Online keeps personal data ${months} months.`,
        );
      },
    );
    const runs = await screen.findByRole('table', { name: 'Retention runs' });
    expect(document.title).toBe('Data Retention | Canada eTA — Electronic Travel Authorization');
    expect(cellTexts(within(runs).getAllByRole('row')[1]!)).toEqual([
      '20/11/2026 03:00:00 UTC',
      'Erasure · daily job',
      'Finished (resumed 1×)',
      '12',
      '2',
      '20',
      'View',
    ]);

    const form = within(screen.getByRole('form', { name: 'Retention of Canada eTA Online' }));
    const field = form.getByLabelText('Months');
    expect((field as HTMLInputElement).value).toBe('24');
    await user.clear(field);
    await user.type(field, '0');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('Months must be a whole number from 1 to 240.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/retention/policies/default')).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '36');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Canada eTA Online keeps personal data 36 months.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/retention/policies/default').map((c) => c.body)).toEqual([{ months: 36 }]);
  });

  it('a dry run opens its report: per site, which orders and which are skipped and why', async () => {
    const user = userEvent.setup();
    let runs: RetentionRun[] = [];
    const api = renderPage(
      () => overview(runs),
      (call) => {
        if (call.method !== 'POST' || call.path !== '/api/admin/retention/runs') return undefined;
        runs = [DRY];
        return ok(DRY, 'Dry run started.');
      },
    );
    expect(await screen.findByText('No retention run yet.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Dry run 8: report' }));
    expect(api.callsTo('POST', '/api/admin/retention/runs').map((c) => c.body)).toEqual([{ dryRun: true }]);
    const bySite = dialog.getByRole('table', { name: 'Per landing site' });
    expect(within(bySite).getAllByRole('row').slice(1).map(cellTexts)).toEqual([
      ['default', '2', '1'],
      ['eta-express', '1', '0'],
    ]);
    const skipped = dialog.getByRole('table', { name: 'Skipped orders' });
    expect(within(skipped).getAllByRole('row').slice(1).map(cellTexts)).toEqual([
      ['ETA-200000005', 'default', 'Open dispute: a dispute is open'],
    ]);
    const due = dialog.getByRole('table', { name: 'Orders that would be erased' });
    expect(within(due).getAllByRole('row')).toHaveLength(4);
  });

  it('Run now asks first, and is refused in the server’s words while a run is erasing', async () => {
    const user = userEvent.setup();
    const api = renderPage(
      () => overview([]),
      (call) =>
        call.method === 'POST' && call.path === '/api/admin/retention/runs'
          ? {
              status: 409,
              body: {
                status: 0,
                code: 'RETENTION_RUNNING',
                message: 'A retention run is already erasing; wait for it to finish.',
              },
            }
          : undefined,
    );
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    expect(await screen.findByText(/This cannot be undone/)).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/retention/runs')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('A retention run is already erasing; wait for it to finish.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/retention/runs').map((c) => c.body)).toEqual([{ dryRun: false }]);
  });

  it('shows a running run with its progress', async () => {
    renderPage(() => overview([run({ state: 'running', finishedAt: undefined, resumed: 0 })]));
    expect(await screen.findByRole('progressbar', { name: 'Run 7 in progress' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run now' }).hasAttribute('disabled')).toBe(true);
  });

  it('is not there for a Manager', async () => {
    const api = renderPage(() => overview([]), undefined, 'Manager');
    expect(await screen.findByText('You do not have access to this page.')).toBeTruthy();
    await waitFor(() => expect(api.callsTo('GET', OVERVIEW)).toHaveLength(0));
  });
});
