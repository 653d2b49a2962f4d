// Manage Team (spec §2, §3, §5, §7): add, edit, delete (deactivate) staff accounts. Rules: e-mails are unique
// whatever their case; passwords are stored only as argon2id hashes and never returned; nobody deletes
// themself; the last active Admin is never deleted or demoted; who may act on whom is the contracts' rank rule
// (`mayManageMember`, `mayGiveType`): a Manager creates, edits and deletes only Team, Telecaller and Night Staff
// members, and only an Admin gives the Manager or Admin type. Every change is audited in its own transaction,
// and the auth service forgets the cached row so a new role, password or deactivation counts on the member's
// next request.
import type { Kysely } from 'kysely';
import {
  MIN_PASSWORD_LENGTH,
  mayGiveType,
  mayManageMember,
  STAFF_TYPES,
  TEAM_MESSAGES,
  TEAM_PASSWORD_MASK,
  type StaffType,
  type TeamListPage,
  type TeamMember,
} from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import type { AuthService, Session } from '../auth/auth.service.js';
import { endSessions } from '../auth/sign-in.repository.js';
import { hashPassword } from '../auth/passwords.js';
import {
  deactivateMember,
  findEmailOwner,
  findMember,
  insertMember,
  isUniqueViolation,
  listMembers,
  lockActiveAdmins,
  lockMember,
  updateMember,
  type MemberRow,
} from './team.repository.js';

/** A plain address: something@domain.tld, no spaces, no display name. */
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

export interface MemberFields {
  name?: string | undefined;
  email?: string | undefined;
  password?: string | undefined;
  type?: string | undefined;
}

interface ValidMember {
  name: string;
  email: string;
  /** Empty on an edit that keeps the current password. */
  password: string;
  type: StaffType;
}

/** Checks every field at once and names each one that is wrong, in the spec's words (§5). */
export function validateMember(body: MemberFields, isNew: boolean): ValidMember {
  const name = (body.name ?? '').trim();
  const email = (body.email ?? '').trim();
  const password = body.password ?? '';
  const type = STAFF_TYPES.find((t) => t === body.type);
  const fields: Record<string, string> = {};
  if (!name) fields.name = TEAM_MESSAGES.name;
  if (!email) fields.email = TEAM_MESSAGES.email;
  else if (!EMAIL.test(email)) fields.email = TEAM_MESSAGES.invalidEmail;
  if (isNew && password.length === 0) fields.password = TEAM_MESSAGES.password;
  else if (password.length > 0 && password.length < MIN_PASSWORD_LENGTH) {
    fields.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (!type) fields.type = TEAM_MESSAGES.type;
  const first = Object.values(fields)[0];
  if (first) throw new AppError('VALIDATION_FAILED', first, { fields });
  return { name, email, password, type: type! };
}

export const toTeamMember = (m: MemberRow): TeamMember => ({
  id: m.id,
  name: m.name,
  email: m.email,
  password: TEAM_PASSWORD_MASK,
  type: m.type,
  memberRole: m.type,
  created_at: m.created_at.toISOString(),
});

export const MEMBER_NOT_FOUND = 'Team member not found.';
const EMAIL_TAKEN = 'A team member with this email already exists.';
const EMAIL_OF_DELETED = 'This email belongs to a deleted team member; please use another email.';
const LAST_ADMIN = 'The last active Admin cannot be deleted or given another type.';

export class TeamService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly auth: AuthService,
  ) {}

  async list(q: { page: number; limit: number; search: string }): Promise<TeamListPage> {
    const { rows, total } = await listMembers(this.db, {
      search: q.search.trim(),
      offset: (q.page - 1) * q.limit,
      limit: q.limit,
    });
    return { rows: rows.map(toTeamMember), total, page: q.page, limit: q.limit };
  }

  async info(id: number): Promise<TeamMember> {
    const member = await findMember(this.db, id);
    if (!member?.active) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
    return toTeamMember(member);
  }

  /** The five types of spec §5, and whether the caller may give each (a Manager: Team, Telecaller, Night Staff). */
  types(caller: Staff): { type: StaffType; assignable: boolean }[] {
    return STAFF_TYPES.map((type) => ({ type, assignable: mayGiveType(caller.type, type) }));
  }

  async add(caller: Staff, actor: Actor, body: MemberFields): Promise<TeamMember> {
    const m = validateMember(body, true);
    if (!mayGiveType(caller.type, m.type)) throw rankRefusal('create', m.type);
    const passwordHash = await hashPassword(m.password);
    return this.db
      .transaction()
      .execute(async (trx) => {
        await this.assertEmailFree(trx, m.email);
        const row = await insertMember(trx, { name: m.name, email: m.email, type: m.type, passwordHash });
        await writeAudit(trx, actor, [
          {
            action: 'team.add',
            target: `staff:${row.id}`,
            after: { name: row.name, email: row.email, type: row.type },
          },
        ]);
        return toTeamMember(row);
      })
      .catch(rethrowEmailTaken);
  }

  /**
   * A new role or password takes an account over (issue 34): it asks the caller for a recent proof, and a new
   * password ends the member's sessions.
   */
  async update(session: Session, actor: Actor, id: number, body: MemberFields): Promise<TeamMember> {
    const caller = session.staff;
    const m = validateMember(body, false);
    const passwordHash = m.password ? await hashPassword(m.password) : null;
    const updated = await this.db
      .transaction()
      .execute(async (trx) => {
        const admins = await lockActiveAdmins(trx);
        const current = await lockMember(trx, id);
        if (!current?.active) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
        if (!mayManageMember(caller.type, current.type)) throw rankRefusal('edit', current.type);
        if (!mayGiveType(caller.type, m.type)) throw rankRefusal('make someone', m.type);
        if (passwordHash !== null || m.type !== current.type) await this.auth.assertRecentProof(session, trx);
        if (current.type === 'Admin' && m.type !== 'Admin' && admins.length <= 1) {
          throw new AppError('LAST_ADMIN', LAST_ADMIN);
        }
        await this.assertEmailFree(trx, m.email, id);
        const row = await updateMember(trx, id, { name: m.name, email: m.email, type: m.type, passwordHash });
        if (passwordHash !== null) await endSessions(trx, id, `password changed by ${caller.name}`);
        await writeAudit(trx, actor, [
          {
            action: 'team.update',
            target: `staff:${id}`,
            before: { name: current.name, email: current.email, type: current.type },
            after: { name: row.name, email: row.email, type: row.type, passwordChanged: passwordHash !== null },
          },
        ]);
        return row;
      })
      .catch(rethrowEmailTaken);
    await this.auth.forgetStaff(id);
    return toTeamMember(updated);
  }

  /** Deactivates the account: its sessions end at once, its name stays on everything it did. */
  async remove(caller: Staff, actor: Actor, id: number): Promise<void> {
    if (id === caller.id) throw new AppError('SELF_DELETE', 'You cannot delete your own account.');
    await this.db.transaction().execute(async (trx) => {
      const admins = await lockActiveAdmins(trx);
      const current = await lockMember(trx, id);
      if (!current?.active) throw new AppError('NOT_FOUND', MEMBER_NOT_FOUND);
      if (!mayManageMember(caller.type, current.type)) throw rankRefusal('delete', current.type);
      if (current.type === 'Admin' && admins.length <= 1) throw new AppError('LAST_ADMIN', LAST_ADMIN);
      await deactivateMember(trx, id);
      await writeAudit(trx, actor, [
        {
          action: 'team.delete',
          target: `staff:${id}`,
          before: { name: current.name, email: current.email, type: current.type, active: true },
          after: { active: false },
        },
      ]);
    });
    await this.auth.forgetStaff(id);
  }

  private async assertEmailFree(db: Kysely<DB>, email: string, exceptId?: number): Promise<void> {
    const owner = await findEmailOwner(db, email, exceptId);
    if (!owner) return;
    const message = owner.active ? EMAIL_TAKEN : EMAIL_OF_DELETED;
    throw new AppError('EMAIL_TAKEN', message, { fields: { email: message } });
  }
}

const article = (type: StaffType) => (/^[AEIOU]/.test(type) ? 'an' : 'a');

/**
 * A refusal by rank: 'Only an Admin may edit a Manager.' Only an Admin outranks a Manager, and only Admins and
 * Managers reach Manage Team, so the one who may is always an Admin.
 */
const rankRefusal = (verb: string, type: StaffType) =>
  new AppError('FORBIDDEN', `Only an Admin may ${verb} ${article(type)} ${type}.`);

function rethrowEmailTaken(err: unknown): never {
  if (isUniqueViolation(err)) throw new AppError('EMAIL_TAKEN', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
  throw err;
}
