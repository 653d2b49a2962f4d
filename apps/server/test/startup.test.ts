// First start and second start on the embedded database: schema, first Admin, demo data, and nothing lost.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/lib/config.js';
import { prepareDatabase } from '../src/startup.js';
import { ensureFirstAdmin } from '../src/modules/auth/bootstrap-admin.js';
import { verifyPassword } from '../src/modules/auth/passwords.js';
import { seedDemoDataIfEmpty } from '../src/modules/seed/demo-data.js';
import { createTestDatabase, testBackend } from './helpers/test-database.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe.runIf(testBackend() === 'pglite')('embedded database across restarts', () => {
  it('creates schema, Admin and demo data once, and a second start keeps everything', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-startup-'));
    dirs.push(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir });

    const first = await prepareDatabase(config);
    const admin = await ensureFirstAdmin(first.db, { email: 'owner@example.com', password: 'owner-pass' });
    expect(admin).toEqual({ email: 'owner@example.com' });
    const seeded = await seedDemoDataIfEmpty(first.db, { orders: 50 });
    expect(seeded?.orders).toBe(50);
    await first.db.updateTable('orders').set({ merchant_name: 'kept across restarts' }).where('id', '=', 1).execute();
    await first.close();

    const second = await prepareDatabase(config);
    try {
      expect(await ensureFirstAdmin(second.db, {})).toBeNull();
      expect(await seedDemoDataIfEmpty(second.db, { orders: 50 })).toBeNull();
      const { n } = await second.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(n)).toBe(50);
      const kept = await second.db.selectFrom('orders').select('merchant_name').where('id', '=', 1).executeTakeFirstOrThrow();
      expect(kept.merchant_name).toBe('kept across restarts');
    } finally {
      await second.close();
    }
  });
});

describe('first Admin', () => {
  it('uses ADMIN_EMAIL/ADMIN_PASSWORD, stores only an argon2id hash', async () => {
    const h = await createTestDatabase();
    try {
      await ensureFirstAdmin(h.db, { email: 'chief@example.com', password: 'chief-pass' });
      const row = await h.db.selectFrom('staff').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ email: 'chief@example.com', type: 'Admin' });
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(row.password_hash, 'chief-pass')).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('generates a password when none is configured, and only once', async () => {
    const h = await createTestDatabase();
    try {
      const created = await ensureFirstAdmin(h.db, {});
      expect(created?.generatedPassword).toMatch(/^[\w-]{16}$/);
      const row = await h.db.selectFrom('staff').selectAll().executeTakeFirstOrThrow();
      expect(await verifyPassword(row.password_hash, created!.generatedPassword!)).toBe(true);
      expect(await ensureFirstAdmin(h.db, {})).toBeNull();
    } finally {
      await h.close();
    }
  });
});
