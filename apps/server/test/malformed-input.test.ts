// No malformed request gets a 5xx: every route of the permission table is sent broken bodies and queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../src/modules/auth/permissions.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await buildTestApp({ loginLimitPerIp: 10_000 });
  token = (await t.signIn('Admin')).token;
});
afterAll(() => t.close());

const routes = Object.keys(PERMISSIONS)
  .filter((k) => !k.endsWith('*'))
  .map((k) => k.split(' ') as ['GET' | 'POST' | 'PUT', string])
  .map(([method, url]) => [method, url.replace(':orderName', 'newOrder').replace(':key', 'default')] as const);

const bodies: [string, string, string][] = [
  ['broken JSON', 'application/json', '{"orderId": ['],
  ['JSON array', 'application/json', '[1,2,3]'],
  ['JSON null', 'application/json', 'null'],
  ['plain text', 'text/plain', 'hello'],
  [
    'wrong types',
    'application/json',
    '{"orderId":{"a":1},"email":[],"password":{},"start":"x","end":null,"searchVal":5,"folderName":"; drop table orders"}',
  ],
  ['oversized', 'application/json', `{"x":"${'a'.repeat(1_100_000)}"}`],
];

describe('malformed requests', () => {
  it.each(routes.filter(([m]) => m !== 'GET'))('%s %s answers 4xx to broken bodies', async (method, url) => {
    for (const [label, contentType, payload] of bodies) {
      const res = await t.app.inject({
        method,
        url,
        payload,
        headers: { authorization: token, 'content-type': contentType },
      });
      expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, label).toBeLessThan(500);
      expect(res.json(), label).toMatchObject({ status: 0, message: expect.any(String) });
    }
  });

  it.each(routes.filter(([m]) => m === 'GET'))('%s %s answers 4xx or 200 to odd query strings', async (method, url) => {
    for (const query of [
      '?page=-1',
      '?limit=1e9',
      '?page[]=1&page[]=2',
      '?month=13',
      '?userName=' + 'x'.repeat(5000),
      '?%E0%A4%A',
    ]) {
      const res = await t.app.inject({ method, url: url + query, headers: { authorization: token } });
      expect(res.statusCode, query).toBeLessThan(500);
    }
  });

  it('a garbage Authorization header is a 401, never a 5xx', async () => {
    for (const authorization of [
      'Bearer ',
      'x'.repeat(10_000),
      'a.b.c',
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
    ]) {
      const res = await t.app.inject({ url: '/api/admin/get-folder-count', headers: { authorization } });
      expect(res.statusCode, authorization.slice(0, 20)).toBe(401);
    }
  });
});
