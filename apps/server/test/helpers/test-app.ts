// Builds exactly the production app over a fresh test database, with helpers to sign staff in.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { OrderListPage, SearchOrderBody, StaffType } from '@eta/contracts';
import { buildApp, type BuildAppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/lib/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import type { Staff } from '../../src/db/schema.js';
import { hashPassword } from '../../src/modules/auth/passwords.js';
import { insertStaff } from '../../src/modules/staff/staff.repository.js';
import { createTestDatabase } from './test-database.js';

export const TEST_PASSWORD = 'correct-horse';
export const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
  /** Creates a staff member of this type and returns their id and a fresh token. */
  signIn(type: StaffType, name?: string): Promise<{ id: number; name: string; email: string; token: string }>;
  /** The console's search call (POST /api/admin/search-order) as `token`; the test fails unless it answers 200. */
  search(token: string, body: Omit<SearchOrderBody, 'folderName'> & { folderName: string }): Promise<OrderListPage>;
}

let passwordHash: Promise<string> | undefined;
let counter = 0;

export async function buildTestApp(
  overrides: Partial<Config> = {},
  parts: Pick<BuildAppOptions, 'workerLimits' | 'logger' | 'liveDesk' | 'eventBus'> & {
    /** A migrated database of the test's own (closed with the app); by default a fresh test database. */
    database?: DatabaseHandle;
  } = {},
): Promise<TestApp> {
  const { database = await createTestDatabase(), ...appParts } = parts;
  // Documents and secrets of a test live in its own directory, removed when it closes.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-test-'));
  // Staff sign in with a password alone unless a test sets the policy (staffMfaRoles) itself.
  const config: Config = { ...loadConfig({}), logLevel: 'silent', dataDir, staffMfaRoles: [], ...overrides };
  const app = await buildApp({ config, database, jwtSecret: JWT_SECRET, logger: false, ...appParts });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
    signIn: async (type, name) => {
      counter += 1;
      const staffName = name ?? `${type} ${counter}`;
      const email = `${type.toLowerCase().replace(/\s+/g, '-')}-${counter}@test.local`;
      const staff = await insertStaff(database.db, {
        name: staffName,
        email,
        passwordHash: await (passwordHash ??= hashPassword(TEST_PASSWORD)),
        type,
      });
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/admin-login',
        payload: { email, password: TEST_PASSWORD },
      });
      const body = res.json<{ jwtToken: string }>();
      if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
      return { id: staff.id, name: staffName, email, token: body.jwtToken };
    },
    search: async (token, body) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/search-order',
        headers: { authorization: token },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: OrderListPage }>().data;
    },
  };
}

/** An Admin signed in to `app`: the token and the member's row, as the services take it. */
export async function signedInAdmin(app: TestApp): Promise<{ token: string; staff: Staff }> {
  const { id, token } = await app.signIn('Admin');
  const staff = await app.database.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { token, staff };
}
