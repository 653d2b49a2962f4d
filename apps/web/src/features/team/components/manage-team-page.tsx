// Manage Team (spec §2, §3, §5, §8): the member form (add, or edit at /admin/manage-team/{id}) and the team
// table (#, Name, Email, Password, Type, Action) with search and pagination. Passwords are never shown: the
// column is a fixed mask and an edit with an empty password keeps the current one. Edit and Delete are off on
// rows the caller may not manage, and only the types they may give are offered (the contracts' rank rule, which
// the server enforces). A change of one's own type is confirmed first and ends the session after it: the
// console then shows what the new type may see once the person signs in again.
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useForm } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { StaffType, TeamMember } from '@eta/contracts';
import { mayGiveType, mayManageMember, STAFF_TYPES, TEAM_MESSAGES } from '@eta/contracts/domain';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { MemberSignIn } from './member-sign-in';
import { useRecentProof } from '../../../lib/auth/use-recent-proof';
import { FormTextField } from '../../../components/form-text-field';
import { ListPagination } from '../../../components/list-pagination';
import { PageHeader } from '../../../components/page-header';
import { TableMessageRow } from '../../../components/table-message-row';
import type { ApiError } from '../../../lib/api';
import type { SessionUser } from '../../../lib/auth/session';
import { useLogout } from '../../../lib/auth/use-logout';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback';
import {
  useAddTeamMemberMutation,
  useDeleteTeamMemberMutation,
  useTeamListQuery,
  useTeamMemberQuery,
  useUpdateTeamMemberMutation,
} from '../api/team-api';

export const TEAM_PATH = '/admin/manage-team';
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
const PAGE_SIZES = [10, 25, 50, 100];

interface MemberValues {
  name: string;
  email: string;
  password: string;
  type: StaffType | '';
}
const EMPTY: MemberValues = { name: '', email: '', password: '', type: '' };

const apiError = (error: unknown): ApiError | null =>
  typeof error === 'object' && error !== null && 'message' in error ? (error as ApiError) : null;

/** The question asked before a person changes their own type. */
export const ownTypeQuestion = (from: StaffType, to: StaffType) =>
  `You are changing your own type from ${from} to ${to}. You will be signed out, and after signing in again ` +
  `you will see only what a ${to} may see. Are you sure?`;

function MemberForm({ editing, caller }: { editing: TeamMember | null; caller: SessionUser }) {
  const navigate = useNavigate();
  const logout = useLogout();
  const [addMember, adding] = useAddTeamMemberMutation();
  const [updateMember, updating] = useUpdateTeamMemberMutation();
  const [pendingOwnType, setPendingOwnType] = useState<MemberValues | null>(null);
  const { withProof, proofDialog } = useRecentProof();
  const busy = adding.isLoading || updating.isLoading;
  const { control, handleSubmit, reset, setError } = useForm<MemberValues>({ defaultValues: EMPTY });
  const types = STAFF_TYPES.filter((type) => mayGiveType(caller.type, type) || editing?.type === type);
  const isSelf = editing !== null && caller.id !== undefined && editing.id === caller.id;
  const isLocked = editing !== null && !mayManageMember(caller.type, editing.type);

  useEffect(() => {
    reset(editing ? { name: editing.name, email: editing.email, password: '', type: editing.type } : EMPTY);
  }, [editing, reset]);

  const save = async (values: MemberValues) => {
    const body = {
      name: values.name.trim(),
      email: values.email.trim(),
      password: values.password,
      type: values.type,
    };
    try {
      // A new type or password asks the Admin for a recent proof first (issue 34); cancelled, nothing changes.
      const message = editing
        ? await withProof(() => updateMember({ ...body, tmId: editing.id }).unwrap())
        : await addMember(body).unwrap();
      if (message === undefined) return;
      if (isSelf && values.type !== editing?.type) {
        // The session's token still names the old type: end it, so the console never shows pages the new
        // type may not open (they would answer 403).
        toast.info(`${message} Your type is now ${values.type}. Please sign in again.`, { toastId: 'own-type' });
        logout();
        return;
      }
      toast.success(message);
      reset(EMPTY);
      if (editing) void navigate(TEAM_PATH);
    } catch (error) {
      const failure = apiError(error);
      if (!failure || failure.status === 401) return;
      if (failure.code === 'EMAIL_TAKEN') setError('email', { message: failure.message });
      toast.error(failure.message);
    }
  };

  const submit = async (values: MemberValues) => {
    if (isSelf && values.type !== '' && values.type !== editing?.type) {
      setPendingOwnType(values);
      return;
    }
    await save(values);
  };

  return (
    <Paper sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {editing ? `Edit ${editing.name}` : 'Add Team Member'}
      </Typography>
      {isLocked ? (
        <Typography color="error" sx={{ mb: 2 }}>
          Only an Admin may edit {/^[AEIOU]/.test(editing.type) ? 'an' : 'a'} {editing.type}.
        </Typography>
      ) : null}
      <Box
        component="form"
        noValidate
        aria-label={editing ? 'Edit team member' : 'Add team member'}
        onSubmit={(event) => void handleSubmit(submit)(event)}
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}
      >
        <FormTextField
          control={control}
          name="name"
          label="Name"
          autoComplete="off"
          disabled={busy}
          rules={{ validate: (v) => String(v).trim() !== '' || TEAM_MESSAGES.name }}
        />
        <FormTextField
          control={control}
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          disabled={busy}
          rules={{
            validate: (v) => {
              const email = String(v).trim();
              if (email === '') return TEAM_MESSAGES.email;
              return EMAIL.test(email) || TEAM_MESSAGES.invalidEmail;
            },
          }}
        />
        <FormTextField
          control={control}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          disabled={busy}
          helperText={editing ? 'Leave empty to keep the current password.' : undefined}
          rules={{
            validate: (v) => {
              const password = String(v);
              if (password === '') return editing ? true : TEAM_MESSAGES.password;
              return password.length >= 6 || 'Password must be at least 6 characters.';
            },
          }}
        />
        <FormTextField
          control={control}
          name="type"
          label="Type"
          select
          disabled={busy}
          rules={{ validate: (v) => v !== '' || TEAM_MESSAGES.type }}
        >
          {types.map((type) => (
            <MenuItem key={type} value={type}>
              {type}
            </MenuItem>
          ))}
        </FormTextField>
        <Stack direction="row" gap={1} sx={{ gridColumn: '1 / -1' }}>
          <Button type="submit" variant="contained" disabled={busy || isLocked}>
            {editing ? 'Update Team Member' : 'Add Team Member'}
          </Button>
          {editing ? (
            <Button component={RouterLink} to={TEAM_PATH} disabled={busy}>
              Cancel
            </Button>
          ) : null}
        </Stack>
      </Box>
      <ConfirmDialog
        open={pendingOwnType !== null}
        text={editing && pendingOwnType?.type ? ownTypeQuestion(editing.type, pendingOwnType.type) : undefined}
        busy={busy}
        onCancel={() => setPendingOwnType(null)}
        onConfirm={() => {
          const values = pendingOwnType;
          setPendingOwnType(null);
          if (values) void save(values);
        }}
      />
      {proofDialog}
    </Paper>
  );
}

function TeamTable({ caller }: { caller: SessionUser }) {
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(10);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [pending, setPending] = useState<TeamMember | null>(null);
  const applySearch = useDebouncedCallback((value: string) => {
    setSearch(value.trim());
    setPage(0);
  }, 500);
  const list = useTeamListQuery({ page: page + 1, limit, search });
  const [deleteMember, deleting] = useDeleteTeamMemberMutation();
  const rows = list.data?.rows ?? [];
  const locked = (m: TeamMember) => !mayManageMember(caller.type, m.type);
  const isOwnRow = (m: TeamMember) => caller.id !== undefined && m.id === caller.id;

  const confirmDelete = async () => {
    if (!pending) return;
    try {
      toast.success(await deleteMember(pending.id).unwrap());
    } catch {
      // The API layer showed the server's message.
    }
    setPending(null);
  };

  return (
    <Paper sx={{ p: 2, mt: 3 }}>
      <Stack direction="row" justifyContent="space-between" alignItems="center" gap={2} flexWrap="wrap" sx={{ mb: 2 }}>
        <Typography variant="h6" component="h2">
          Team
        </Typography>
        <TextField
          size="small"
          label="Search"
          placeholder="Name or email"
          value={searchText}
          onChange={(event) => {
            setSearchText(event.target.value);
            applySearch(event.target.value);
          }}
        />
      </Stack>
      <TableContainer sx={{ containerType: 'inline-size', overflowX: 'auto' }}>
        <Table size="small" aria-label="Team members">
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>Name</TableCell>
              <TableCell>Email</TableCell>
              <TableCell>Password</TableCell>
              <TableCell>Type</TableCell>
              <TableCell>Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.isLoading ? (
              <TableMessageRow colSpan={6}>Loading…</TableMessageRow>
            ) : list.isError ? (
              <TableMessageRow colSpan={6}>The team could not be loaded.</TableMessageRow>
            ) : rows.length === 0 ? (
              <TableMessageRow colSpan={6}>
                {search ? 'No records found' : 'No data available in table'}
              </TableMessageRow>
            ) : (
              rows.map((m, i) => (
                <TableRow key={m.id} hover>
                  <TableCell>{page * limit + i + 1}</TableCell>
                  <TableCell>{m.name}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{m.email}</TableCell>
                  <TableCell aria-label="Password hidden">{m.password}</TableCell>
                  <TableCell>{m.memberRole}</TableCell>
                  <TableCell>
                    <Stack direction="row" gap={1}>
                      <Button
                        size="small"
                        variant="outlined"
                        component={RouterLink}
                        to={`${TEAM_PATH}/${m.id}`}
                        disabled={locked(m)}
                        aria-label={`Edit ${m.name}`}
                      >
                        Edit
                      </Button>
                      <Button
                        size="small"
                        color="error"
                        variant="outlined"
                        disabled={locked(m) || isOwnRow(m)}
                        onClick={() => setPending(m)}
                        aria-label={`Delete ${m.name}`}
                      >
                        Delete
                      </Button>
                    </Stack>
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <ListPagination
        count={list.data?.total ?? 0}
        page={page}
        limit={limit}
        sizes={PAGE_SIZES}
        onPageChange={setPage}
        onLimitChange={(next) => {
          setLimit(next);
          setPage(0);
        }}
      />
      <ConfirmDialog
        open={pending !== null}
        busy={deleting.isLoading}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Paper>
  );
}

export function ManageTeamPage({ caller, teamMemberId }: { caller: SessionUser; teamMemberId?: string }) {
  const id = teamMemberId && /^\d{1,9}$/.test(teamMemberId) ? Number(teamMemberId) : null;
  const member = useTeamMemberQuery(id ?? 0, { skip: id === null });
  const editing = id !== null ? (member.data ?? null) : null;
  return (
    <>
      <PageHeader title="Manage Team" />
      {teamMemberId !== undefined && id === null ? (
        <Typography color="error" sx={{ mb: 2 }}>
          Team member not found.
        </Typography>
      ) : null}
      <MemberForm editing={editing} caller={caller} />
      {editing && mayManageMember(caller.type, editing.type) ? <MemberSignIn member={editing} caller={caller} /> : null}
      <TeamTable caller={caller} />
    </>
  );
}
