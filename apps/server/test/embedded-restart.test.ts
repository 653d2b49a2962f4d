// First start and second start on the embedded database (PGlite files in DATA_DIR): schema, first Admin,
// demo data, and nothing lost. Only for the embedded backend; the PostgreSQL project excludes this file.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/lib/config.js';
import { prepareDatabase } from '../src/startup.js';
import { ensureFirstAdmin } from '../src/modules/auth/bootstrap-admin.js';
import { seedDemoDataIfEmpty } from '../src/demo/demo-data.js';
import { openDocumentStore } from '../src/lib/storage/open-document-store.js';
import { appKeyring } from './helpers/personal-data.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('embedded database across restarts', () => {
  it('creates schema, Admin and demo data once, and a second start keeps everything', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'eta-startup-'));
    dirs.push(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir });

    const first = await prepareDatabase(config);
    const admin = await ensureFirstAdmin(first.db, { email: 'owner@example.com', password: 'owner-pass' });
    expect(admin).toEqual({ email: 'owner@example.com' });
    const seeded = await seedDemoDataIfEmpty(first.db, {
      orders: 50,
      store: await openDocumentStore(config),
      keyring: await appKeyring({ database: first, config }),
    });
    expect(seeded?.orders).toBe(50);
    await first.db.updateTable('orders').set({ merchant_name: 'kept across restarts' }).where('id', '=', 1).execute();
    await first.close();

    const second = await prepareDatabase(config);
    try {
      expect(await ensureFirstAdmin(second.db, {})).toBeNull();
      expect(
        await seedDemoDataIfEmpty(second.db, {
          orders: 50,
          store: await openDocumentStore(config),
          keyring: await appKeyring({ database: second, config }),
        }),
      ).toBeNull();
      const { n } = await second.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n)).toBe(50);
      const kept = await second.db
        .selectFrom('orders')
        .select('merchant_name')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      expect(kept.merchant_name).toBe('kept across restarts');
    } finally {
      await second.close();
    }
  });
});
