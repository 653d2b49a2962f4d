// Manage Team (spec §2, §3, §5, §8) in the whole console: the form's messages, adding, editing with an empty
// password, the fixed password mask, search and pagination, and Delete with the spec's question and toast.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffType, TeamMember } from '@eta/contracts';
import { ok, stubApi, type StubHandler } from '../../../test/api-stub';
import { FOLDER_COUNTS, isFolderCountCall } from '../../../test/orders';
import { preloadRoutes, renderRoutes } from '../../../test/render';
import { signIn } from '../../../test/session';

beforeAll(preloadRoutes);
const WHOLE_CONSOLE = { timeout: 20_000 };
const LIST = '/api/admin/get-team-member-list';

const member = (id: number, name: string, type: StaffType): TeamMember => ({
  id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@team.test`,
  password: '••••••••',
  type,
  memberRole: type,
  created_at: '2026-01-01T00:00:00.000Z',
});
const TEAM = [
  member(1, 'Grace Whitfield', 'Admin'),
  member(2, 'Priya Sharma', 'Team'),
  member(3, 'Rajesh Menon', 'Manager'),
];

function renderPage(
  handler: StubHandler = () => undefined,
  { path = '/admin/manage-team', as = 'Admin' as StaffType } = {},
) {
  signIn('Asha Rao', as);
  const api = stubApi((call) => {
    if (isFolderCountCall(call)) return ok(FOLDER_COUNTS);
    const own = handler(call);
    if (own) return own;
    if (call.path.startsWith('/api/admin/team-member-sessions/')) return ok([]);
    if (call.path === LIST) {
      const search = (call.query.get('search') ?? '').toLowerCase();
      const rows = TEAM.filter((m) => `${m.name} ${m.email}`.toLowerCase().includes(search));
      return ok({
        rows,
        total: rows.length,
        page: Number(call.query.get('page')),
        limit: Number(call.query.get('limit')),
      });
    }
    return undefined;
  });
  const router = renderRoutes(path);
  return { api, router };
}

const table = () => screen.findByRole('table', { name: 'Team members' });
const form = () => screen.getByRole('form', { name: /team member/i });

describe('Manage Team', WHOLE_CONSOLE, () => {
  it('lists the team with #, Name, Email, a fixed password mask and the type', async () => {
    renderPage();
    const rows = within(await table()).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['#', 'Name', 'Email', 'Password', 'Type', 'Action']);
    await within(await table()).findByText('Priya Sharma');
    const priya = screen.getByText('Priya Sharma').closest('tr')!;
    expect([...priya.querySelectorAll('td')].slice(0, 5).map((c) => c.textContent)).toEqual([
      '2',
      'Priya Sharma',
      'priya@team.test',
      '••••••••',
      'Team',
    ]);
  });

  it("names each missing field in the spec's words and sends nothing", async () => {
    const { api } = renderPage();
    await table();
    await userEvent.click(screen.getByRole('button', { name: 'Add Team Member' }));
    for (const text of [
      'Please enter your name.',
      'Please enter your email.',
      'Please enter your password.',
      'Please select type.',
    ]) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Add Team Member' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/add-team-member')).toEqual([]);
  });

  it("adds a member and shows the server's message; a taken e-mail is named on the field", async () => {
    let taken = false;
    const { api } = renderPage((call) => {
      if (call.path !== '/api/admin/add-team-member') return undefined;
      if (taken)
        return {
          status: 409,
          body: { status: 0, code: 'EMAIL_TAKEN', message: 'A team member with this email already exists.' },
        };
      taken = true;
      return ok(member(9, 'Nadia Night', 'Night Staff'), 'Team member added successfully.');
    });
    await table();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Nadia Night');
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'nadia@night.test');
    await userEvent.type(screen.getByLabelText('Password'), 'night-pass');
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Night Staff' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add Team Member' }));
    expect(await screen.findByText('Team member added successfully.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/add-team-member').map((c) => c.body)).toEqual([
      { name: 'Nadia Night', email: 'nadia@night.test', password: 'night-pass', type: 'Night Staff' },
    ]);
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe(''));

    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), 'Nadia Again');
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'NADIA@night.test');
    await userEvent.type(screen.getByLabelText('Password'), 'night-pass');
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Team' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add Team Member' }));
    expect(await within(form()).findByText('A team member with this email already exists.')).toBeTruthy();
  });

  it('edits at /admin/manage-team/{id}: the form is filled, an empty password is sent to keep the current one', async () => {
    const { api, router } = renderPage(
      (call) => {
        if (call.path === '/api/admin/team-member-info/2') return ok(TEAM[1]);
        if (call.path === '/api/admin/update-team-member') return ok(TEAM[1], 'Team member updated successfully.');
        return undefined;
      },
      { path: '/admin/manage-team/2' },
    );
    expect(await screen.findByRole('heading', { name: 'Edit Priya Sharma' })).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Priya Sharma'),
    );
    expect(screen.getByText('Leave empty to keep the current password.')).toBeTruthy();
    const name = screen.getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Priya S. Sharma');
    await userEvent.click(screen.getByRole('button', { name: 'Update Team Member' }));
    expect(await screen.findByText('Team member updated successfully.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/update-team-member').map((c) => c.body)).toEqual([
      { tmId: 2, name: 'Priya S. Sharma', email: 'priya@team.test', password: '', type: 'Team' },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/manage-team'));
  });

  it("an Admin resets a member's second factor from the edit page, confirming with the current password first", async () => {
    let proved = false;
    const { api } = renderPage(
      (call) => {
        if (call.path === '/api/admin/team-member-info/2') return ok(TEAM[1]);
        if (call.path === '/api/admin/confirm-identity') {
          proved = true;
          return ok(undefined, 'Thank you');
        }
        if (call.path === '/api/admin/team-member-factors/2/reset') {
          return proved
            ? ok(undefined, 'Second factor reset; the member was signed out everywhere.')
            : { status: 403, body: { status: 0, code: 'RECENT_PROOF_REQUIRED', message: 'Confirm it is you.' } };
        }
        return undefined;
      },
      { path: '/admin/manage-team/2' },
    );
    expect(await screen.findByRole('heading', { name: 'Priya Sharma: sign-in' })).toBeTruthy();
    expect(await screen.findByText('No sessions yet.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'admin-password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Second factor reset; the member was signed out everywhere.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/team-member-factors/2/reset')).toHaveLength(2);
    expect(api.callsTo('POST', '/api/admin/confirm-identity')[0]?.body).toEqual({ password: 'admin-password' });
  });

  it("deletes after the spec's question with the spec's toast", async () => {
    const { api } = renderPage((call) =>
      call.path === '/api/admin/delete-team-member' ? ok(null, 'Team member deleted successfully.') : undefined,
    );
    await within(await table()).findByText('Priya Sharma');
    await userEvent.click(screen.getByRole('button', { name: 'Delete Priya Sharma' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Team member deleted successfully.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/delete-team-member').map((c) => c.body)).toEqual([{ teamMemberId: 2 }]);
  });

  it("searches (debounced) and says 'No records found' when nothing matches", async () => {
    const { api } = renderPage();
    await within(await table()).findByText('Priya Sharma');
    await userEvent.type(screen.getByRole('textbox', { name: 'Search' }), 'zzz');
    expect(await screen.findByText('No records found', undefined, { timeout: 3000 })).toBeTruthy();
    expect(api.callsTo('GET', LIST).at(-1)?.query.get('search')).toBe('zzz');
  });

  it('a Manager cannot pick the Admin or Manager type nor edit or delete an Admin or Manager row', async () => {
    renderPage(undefined, { as: 'Manager' });
    await within(await table()).findByText('Grace Whitfield');
    for (const name of ['Grace Whitfield', 'Rajesh Menon']) {
      expect((screen.getByRole('button', { name: `Delete ${name}` }) as HTMLButtonElement).disabled).toBe(true);
      expect(screen.getByRole('link', { name: `Edit ${name}` }).getAttribute('aria-disabled')).toBe('true');
    }
    expect((screen.getByRole('button', { name: 'Delete Priya Sharma' }) as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Team', 'Telecaller', 'Night Staff']);
  });

  it('a Manager who opens a Manager’s edit page by its URL is told why and cannot send it', async () => {
    const { api } = renderPage((call) => (call.path === '/api/admin/team-member-info/3' ? ok(TEAM[2]) : undefined), {
      path: '/admin/manage-team/3',
      as: 'Manager',
    });
    expect(await screen.findByText('Only an Admin may edit a Manager.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Update Team Member' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.callsTo('POST', '/api/admin/update-team-member')).toEqual([]);
  });
});

describe('Manage Team: one’s own row (issue 22)', WHOLE_CONSOLE, () => {
  // The signed-in test user's token names staff id 1: Grace Whitfield's row is their own.
  const own = (call: { path: string }) => {
    if (call.path === '/api/admin/team-member-info/1') return ok(TEAM[0]);
    if (call.path === '/api/admin/update-team-member')
      return ok({ ...TEAM[0], type: 'Team' }, 'Team member updated successfully.');
    if (call.path === '/api/admin/logout') return ok(null, 'You have been signed out.');
    return undefined;
  };

  it('offers no Delete on one’s own row', async () => {
    renderPage();
    await within(await table()).findByText('Grace Whitfield');
    expect((screen.getByRole('button', { name: 'Delete Grace Whitfield' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Delete Priya Sharma' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('asks before changing one’s own type, and sends nothing on No', async () => {
    const { api } = renderPage(own, { path: '/admin/manage-team/1' });
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Grace Whitfield'),
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Team' }));
    await userEvent.click(screen.getByRole('button', { name: 'Update Team Member' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(
      'You are changing your own type from Admin to Team. You will be signed out, and after signing in again you will see only what a Team may see. Are you sure?',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/admin/update-team-member')).toEqual([]);
  });

  it('after Yes, sends the change and ends the session, so no Admin page stays on screen', async () => {
    const { api, router } = renderPage(own, { path: '/admin/manage-team/1' });
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Grace Whitfield'),
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Team' }));
    await userEvent.click(screen.getByRole('button', { name: 'Update Team Member' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(/Your type is now Team\. Please sign in again\./)).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/update-team-member').map((c) => c.body)).toEqual([
      { tmId: 1, name: 'Grace Whitfield', email: 'grace@team.test', password: '', type: 'Team' },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(api.callsTo('POST', '/api/admin/logout')).toHaveLength(1);
    expect(screen.queryByRole('table', { name: 'Team members' })).toBeNull();
  });

  it('saves a change of one’s own name without a question and stays signed in', async () => {
    const { api } = renderPage(own, { path: '/admin/manage-team/1' });
    await waitFor(() =>
      expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Grace Whitfield'),
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), ' W.');
    await userEvent.click(screen.getByRole('button', { name: 'Update Team Member' }));
    expect(await screen.findByText('Team member updated successfully.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('POST', '/api/admin/update-team-member')).toHaveLength(1);
    expect(window.localStorage.getItem('user')).not.toBeNull();
  });
});
