// Walks the whole permission table: every route it names exists, every staff type is let through exactly
// where the table says, and a route missing from the table cannot even be registered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_TYPES, type StaffType } from '@eta/contracts';
import Fastify from 'fastify';
import { PERMISSIONS } from '../src/modules/auth/permissions.js';
import authPlugin from '../src/plugins/auth.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
const tokens = {} as Record<StaffType, string>;
const SAMPLE_PARAMS: Record<string, string> = { orderName: 'newOrder', key: 'default' };

beforeAll(async () => {
  t = await buildTestApp();
  for (const type of STAFF_TYPES) tokens[type] = (await t.signIn(type)).token;
});
afterAll(() => t.close());

const entries = Object.entries(PERMISSIONS).filter(([key]) => !key.endsWith('*'));
const concreteUrl = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => SAMPLE_PARAMS[name] ?? 'x');

describe('permission table', () => {
  it.each(entries)('%s is a registered route', (key) => {
    const [method, url] = key.split(' ') as [string, string];
    expect(t.app.hasRoute({ method: method as 'GET', url })).toBe(true);
  });

  it.each(entries.filter(([, p]) => p !== 'public'))(
    '%s lets in exactly the listed staff types',
    async (key, permission) => {
      const [method, url] = key.split(' ') as [string, string];
      for (const type of STAFF_TYPES) {
        const res = await t.app.inject({
          method: method as 'GET',
          url: concreteUrl(url),
          headers: { authorization: tokens[type] },
          payload: method === 'GET' ? undefined : {},
        });
        if ((permission as readonly string[]).includes(type))
          expect([401, 403], `${type} ${res.body}`).not.toContain(res.statusCode);
        else expect(res.statusCode, type).toBe(403);
      }
      const anonymous = await t.app.inject({ method: method as 'GET', url: concreteUrl(url) });
      expect(anonymous.statusCode).toBe(401);
    },
  );

  it('Night Staff may not change the password (spec §6 hides it from them)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: tokens['Night Staff'] },
      payload: { newPassword: 'abcdefg' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('refuses to start with a route that has no entry in the table', async () => {
    const bare = Fastify({ logger: false });
    await bare.register(authPlugin);
    expect(() => bare.get('/api/admin/secret-new-thing', async () => ({}))).toThrow(
      /GET \/api\/admin\/secret-new-thing has no entry in PERMISSIONS/,
    );
    await bare.close();
  });
});
