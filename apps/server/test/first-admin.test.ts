// The first Admin on a new database: from the configuration, or with a generated password, exactly once.
import { describe, expect, it } from 'vitest';
import { ensureFirstAdmin } from '../src/modules/auth/bootstrap-admin.js';
import { verifyPassword } from '../src/modules/auth/passwords.js';
import { createTestDatabase } from './helpers/test-database.js';

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
