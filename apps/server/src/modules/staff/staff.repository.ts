// All SQL about staff accounts and their sessions.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, Staff } from '../../db/schema.js';
import type { StaffType } from '@eta/contracts';

type Db = Kysely<DB> | Transaction<DB>;

export const findStaffByEmail = (db: Db, email: string) =>
  db
    .selectFrom('staff')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();

export const findStaffById = (db: Db, id: number) =>
  db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * The staff row behind a session with the ids of its open sessions (not ended, not expired): one query. A token
 * counts only while its session is open (staff_sessions, migration 030); a member has at most MAX_OPEN_SESSIONS.
 */
export const findSessionStaff = (db: Db, id: number): Promise<(Staff & { open: string[] }) | undefined> =>
  db
    .selectFrom('staff')
    .selectAll('staff')
    .select(
      sql<string[]>`coalesce((SELECT array_agg(s.id) FROM staff_sessions s
        WHERE s.staff_id = staff.id AND s.ended_at IS NULL AND s.expires_at > now()), '{}')`.as('open'),
    )
    .where('staff.id', '=', id)
    .executeTakeFirst();

/** Active staff whose name matches (trimmed, any case): "Assign to" names a person. */
export const findActiveStaffByName = (db: Db, name: string) =>
  db
    .selectFrom('staff')
    .select(['id', 'name'])
    .where('active', '=', true)
    .where((eb) => eb(eb.fn('lower', [eb.fn('trim', ['name'])]), '=', name.trim().toLowerCase()))
    .execute();

export const countAdmins = async (db: Db): Promise<number> => {
  const row = await db
    .selectFrom('staff')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '=', 'Admin')
    .where('active', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const insertStaff = (db: Db, s: { name: string; email: string; passwordHash: string; type: StaffType }) =>
  db
    .insertInto('staff')
    .values({ name: s.name, email: s.email.trim(), password_hash: s.passwordHash, type: s.type })
    .returning(['id', 'name', 'email', 'type'])
    .executeTakeFirstOrThrow();

export const updatePassword = (db: Db, id: number, passwordHash: string) =>
  db
    .updateTable('staff')
    .set({ password_hash: passwordHash, password_changed_at: new Date() })
    .where('id', '=', id)
    .returning(['password_changed_at'])
    .executeTakeFirstOrThrow();
