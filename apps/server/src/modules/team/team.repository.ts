// All SQL of Manage Team: the member list, the rows a change locks, and the changes themselves. Staff rows
// are never deleted (remarks, audit rows, documents and reports point at them); deleting deactivates.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { StaffType } from '@eta/contracts';
import type { DB } from '../../db/schema.js';

type Db = Kysely<DB> | Transaction<DB>;

export interface MemberRow {
  id: number;
  name: string;
  email: string;
  type: StaffType;
  active: boolean;
  created_at: Date;
}

const MEMBER_COLUMNS = ['id', 'name', 'email', 'type', 'active', 'created_at'] as const;

/** Active members whose name or e-mail contains `search` (any case), by name; the staff table is small. */
export async function listMembers(
  db: Db,
  q: { search: string; offset: number; limit: number },
): Promise<{ rows: MemberRow[]; total: number }> {
  const base = db
    .selectFrom('staff')
    .where('active', '=', true)
    .$if(q.search !== '', (qb) =>
      qb.where(sql<boolean>`strpos(lower(name || ' ' || email), ${q.search.toLowerCase()}) > 0`),
    );
  const [rows, count] = await Promise.all([
    base.select(MEMBER_COLUMNS).orderBy('name').orderBy('id').offset(q.offset).limit(q.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export const findMember = (db: Db, id: number): Promise<MemberRow | undefined> =>
  db.selectFrom('staff').select(MEMBER_COLUMNS).where('id', '=', id).executeTakeFirst();

/** The account using this e-mail (any case, active or not), other than `exceptId`. */
export const findEmailOwner = (db: Db, email: string, exceptId?: number) =>
  db
    .selectFrom('staff')
    .select(['id', 'active'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .$if(exceptId !== undefined, (qb) => qb.where('id', '<>', exceptId!))
    .executeTakeFirst();

/**
 * Locks every active Admin row, in id order, for the rest of the transaction: two changes that could each
 * remove an Admin wait for each other, and the second sees the first's result (READ COMMITTED re-reads a
 * locked row), so the last active Admin is never removed.
 */
export async function lockActiveAdmins(trx: Transaction<DB>): Promise<number[]> {
  const rows = await trx
    .selectFrom('staff')
    .select('id')
    .where('type', '=', 'Admin')
    .where('active', '=', true)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

export const lockMember = (trx: Transaction<DB>, id: number): Promise<MemberRow | undefined> =>
  trx.selectFrom('staff').select(MEMBER_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();

export const insertMember = (
  trx: Transaction<DB>,
  m: { name: string; email: string; type: StaffType; passwordHash: string },
): Promise<MemberRow> =>
  trx
    .insertInto('staff')
    .values({ name: m.name, email: m.email, type: m.type, password_hash: m.passwordHash })
    .returning(MEMBER_COLUMNS)
    .executeTakeFirstOrThrow();

/** A new password also moves password_changed_at, which ends every session issued under the old one. */
export const updateMember = (
  trx: Transaction<DB>,
  id: number,
  m: { name: string; email: string; type: StaffType; passwordHash: string | null },
): Promise<MemberRow> =>
  trx
    .updateTable('staff')
    .set({
      name: m.name,
      email: m.email,
      type: m.type,
      ...(m.passwordHash ? { password_hash: m.passwordHash, password_changed_at: new Date() } : {}),
    })
    .where('id', '=', id)
    .returning(MEMBER_COLUMNS)
    .executeTakeFirstOrThrow();

export async function deactivateMember(trx: Transaction<DB>, id: number): Promise<void> {
  await trx.updateTable('staff').set({ active: false }).where('id', '=', id).execute();
}

/** PostgreSQL's unique_violation: two requests raced for one e-mail past the check. */
export const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
