import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { CachedStatement } from './statement-cache.js';

interface Tables {
  orders: { id: number; email: string; process_status: string };
}

/** A Kysely that runs nothing (DummyDriver) and records each statement it is given. */
function recordingDb() {
  const ran: CompiledQuery[] = [];
  const db = new Kysely<Tables>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => void ran.push(event.query),
  });
  return { db, ran };
}

describe('CachedStatement: a statement built once per shape, run with each call’s values', () => {
  const byEmail = (db: Kysely<Tables>, status: string) => (v: { email: string; limit: number }) =>
    db
      .selectFrom('orders')
      .select('id')
      .where('email', '=', v.email)
      .where('process_status', '=', sql.lit(status))
      .limit(v.limit);

  it('builds a shape once and runs each call with its own values', async () => {
    const { db, ran } = recordingDb();
    const statement = new CachedStatement<{ id: number }>({ verify: false });
    let builds = 0;
    const run = (status: string, email: string) =>
      statement.run(db, status, { email, limit: 5 }, (v) => {
        builds += 1;
        return byEmail(db, status)(v);
      });
    await run('New', 'a@example.com');
    await run('New', 'b@example.com');
    expect(builds).toBe(1);
    expect(ran[1]!.sql).toBe(ran[0]!.sql);
    expect(ran.map((q) => q.parameters)).toEqual([
      ['a@example.com', 5],
      ['b@example.com', 5],
    ]);
    // Another shape is built for itself.
    await run('Pending', 'c@example.com');
    expect(builds).toBe(2);
    expect(ran[2]!.sql).toContain(`'Pending'`);
    expect(ran[2]!.parameters).toEqual(['c@example.com', 5]);
  });

  it('keeps at most its limit of shapes and builds the others at each call', async () => {
    const { db, ran } = recordingDb();
    const statement = new CachedStatement<{ id: number }>({ verify: false, limit: 1 });
    let builds = 0;
    for (const status of ['New', 'Pending', 'Pending']) {
      await statement.run(db, status, { email: 'x@example.com', limit: 1 }, (v) => {
        builds += 1;
        return byEmail(db, status)(v);
      });
    }
    expect(builds).toBe(3);
    expect(ran[2]!.sql).toContain(`'Pending'`);
  });

  it('fails, when verifying, a call whose build read a value from elsewhere than its values', async () => {
    const { db } = recordingDb();
    const statement = new CachedStatement<{ id: number }>({ verify: true });
    const leaky = (email: string) =>
      statement.run(db, 'same shape', { email }, () => db.selectFrom('orders').select('id').where('email', '=', email));
    await leaky('a@example.com');
    await expect(leaky('b@example.com')).rejects.toThrow(/Statement shape "same shape" differs/);
  });

  it('fails, when verifying, a shape key that leaves out what the SQL depends on', async () => {
    const { db } = recordingDb();
    const statement = new CachedStatement<{ id: number }>({ verify: true });
    const run = (status: string) =>
      statement.run(db, 'no status in the key', { email: 'a@example.com', limit: 1 }, byEmail(db, status));
    await run('New');
    await expect(run('Pending')).rejects.toThrow(/differs/);
  });
});
