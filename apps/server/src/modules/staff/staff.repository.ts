import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
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
