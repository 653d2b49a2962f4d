// Every registered route (the app's own list, so routes added later are walked too) is sent broken input,
// anonymous and as an Admin: wrong types, NUL bytes, 1 MB strings, deep nesting, 10,000-element arrays,
// unknown fields, empty and unparsable bodies, odd query strings and path parameters. Never a 5xx, always
// the {status, code, message} envelope, never slower than 2 s (a hang guard, not a speed target).
import { afterAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { LIVE_EVENTS_PATH } from '@eta/contracts';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

// Built while the file is collected, so that each route is a test of its own (its own time budget, its name in a
// failure); the walk grows with every route and field added.
const t: TestApp = await buildTestApp({ loginLimitPerIp: 100_000 });
const admin = await t.signIn('Admin');
afterAll(() => t.close());
// A fresh session per request: a logout or a password change among the routes must not end the session of the
// next request.
const mint = async () => {
  const staff = await t.database.db
    .selectFrom('staff')
    .selectAll()
    .where('id', '=', admin.id)
    .executeTakeFirstOrThrow();
  return t.app.services.auth.openSession(t.database.db, staff, { ip: '127.0.0.1', userAgent: 'fuzz' }, null);
};

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minLength?: number;
  minimum?: number;
}

/** A value the schema accepts, so that each mutation below breaks exactly one thing. */
function sample(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0]);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s)]));
    case 'array':
      return [sample(schema.items)];
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return 'x';
  }
}

const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const WRONG_TYPES: unknown[] = [12, -1, 1.5, true, null, [], ['x'], {}, { $gt: '' }, 'x', '\u0000'];

/** Bodies for a route: unparsable, empty, of the wrong shape, and its valid sample broken one field at a time. */
function bodiesFor(schema: JsonSchema | undefined): [string, string, string][] {
  const base = (sample(schema) ?? {}) as Record<string, unknown>;
  const json = (label: string, value: unknown): [string, string, string] => [
    label,
    'application/json',
    JSON.stringify(value),
  ];
  const bodies: [string, string, string][] = [
    ['broken JSON', 'application/json', '{"orderId": ['],
    ['empty JSON body', 'application/json', ''],
    ['JSON array', 'application/json', '[1,2,3]'],
    ['JSON null', 'application/json', 'null'],
    ['JSON string', 'application/json', '"x"'],
    ['plain text', 'text/plain', 'hello'],
    ['form', 'application/x-www-form-urlencoded', 'a=1&b=2'],
    ['deep nesting', 'application/json', deep(10_000)],
    ['over the body limit', 'application/json', `{"x":"${'a'.repeat(1_100_000)}"}`],
    json('empty object', {}),
    json('valid sample', base),
    json('unknown fields', { ...base, isAdmin: true, __proto__x: 1, constructor: { prototype: 1 } }),
  ];
  for (const [field, fieldSchema] of Object.entries(schema?.properties ?? {})) {
    for (const wrong of WRONG_TYPES)
      bodies.push(json(`${field}=${JSON.stringify(wrong)}`, { ...base, [field]: wrong }));
    bodies.push(json(`${field} 1 MB`, { ...base, [field]: 'a'.repeat(1_000_000) }));
    bodies.push(json(`${field} with NUL`, { ...base, [field]: `a\u0000b` }));
    bodies.push(json(`${field} deep`, { ...base, [field]: JSON.parse(deep(2_000)) }));
    if (fieldSchema.type === 'array') {
      bodies.push(
        json(`${field} 10,000 items`, { ...base, [field]: Array.from({ length: 10_000 }, (_, i) => `ETA-${i}`) }),
      );
      bodies.push(json(`${field} item with NUL`, { ...base, [field]: ['ETA-1\u0000'] }));
    }
  }
  return bodies;
}

const QUERIES = [
  '?page=-1',
  '?page=0x10',
  '?page=1e3',
  '?page=%20',
  '?limit=1e9',
  '?limit=99999999999999999999999',
  '?page[]=1&page[]=2',
  '?month=13',
  '?month=NaN',
  '?userName=' + 'x'.repeat(5000),
  '?userName=%00',
  '?%E0%A4%A',
  '?a=' + 'b'.repeat(60_000),
];

const concrete = (url: string) =>
  url
    .replace('*', 'missing.css')
    .replace(/:(\w+)/g, (_, name: string) => (name === 'orderName' ? 'newOrder' : 'default'));

async function send(options: InjectOptions, authorized: boolean) {
  const headers = { ...(options.headers ?? {}), ...(authorized ? { authorization: await mint() } : {}) };
  const started = performance.now();
  const res = await t.app.inject({ ...options, headers });
  // A minted session must get past the guard of a staff route, or the walk would test only the refusal of an
  // unknown token (the sign-in routes answer 401 for a bad password or challenge, whoever asks).
  const staffRoute = /^\/api\/(admin\/(?!admin-login|login-)|user_info)/.test(options.url?.toString() ?? '');
  if (authorized && staffRoute && res.statusCode === 401) {
    expect(res.json<{ code?: string }>().code, `${options.url?.toString()}`).not.toBe('SESSION_EXPIRED');
  }
  return { res, ms: performance.now() - started };
}

function expectSound(label: string, { res, ms }: Awaited<ReturnType<typeof send>>) {
  expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(ms, `${label} took ${Math.round(ms)} ms`).toBeLessThan(2_000);
  if (res.statusCode >= 400 && res.headers['content-type']?.toString().startsWith('application/json')) {
    expect(res.json(), label).toMatchObject({
      status: expect.any(Number),
      code: expect.any(String),
      message: expect.any(String),
    });
  }
}

const routes = () => t.app.apiRoutes.map((r) => [`${r.method} ${r.url}`, r] as const);

/** The live desk's stream is asked for as JSON: past the guard and validation it answers 406, holding nothing open. */
const acceptFor = (url: string) => (url === LIVE_EVENTS_PATH ? { accept: 'application/json' } : {});

describe('every route survives bad input', () => {
  it('walks every registered route', () => {
    // The list comes from the app itself; this guards against walking an empty list.
    expect(routes().length).toBeGreaterThanOrEqual(46);
  });

  for (const authorized of [false, true]) {
    const who = authorized ? 'as Admin' : 'anonymous';
    for (const [key, route] of routes()) {
      if (route.method === 'GET') continue;
      it(`bodies, ${who}: ${key}`, async () => {
        const body = (route.schema as { body?: JsonSchema } | undefined)?.body;
        for (const [label, contentType, payload] of bodiesFor(body)) {
          const result = await send(
            {
              method: route.method as 'POST',
              url: concrete(route.url),
              payload,
              headers: { 'content-type': contentType },
            },
            authorized,
          );
          expectSound(`${key} ${label}`, result);
        }
      });
    }

    for (const [key, route] of routes()) {
      it(`query strings and path parameters, ${who}: ${key}`, async () => {
        const method = route.method as 'GET';
        for (const query of QUERIES) {
          expectSound(
            `${key} ${query.slice(0, 40)}`,
            await send({ method, url: concrete(route.url) + query, headers: acceptFor(route.url) }, authorized),
          );
        }
        if (route.url.includes(':')) {
          for (const param of [
            '%00',
            'x'.repeat(5_000),
            '..%2F..%2Fetc%2Fpasswd',
            '%E0%A4%A',
            "'; DROP TABLE orders; --",
          ]) {
            const url = route.url.replace(/:(\w+)/, param);
            expectSound(`${key} param ${param.slice(0, 20)}`, await send({ method, url }, authorized));
          }
        }
      });
    }
  }
});

describe('what a person is told', () => {
  it('a NUL byte in any text is a 400 naming the field, at every route that takes text', async () => {
    const cases: [string, string, object][] = [
      ['POST', '/api/admin/admin-login', { email: '\u0000', password: 'x' }],
      ['POST', '/api/admin/search-order', { start: 0, end: 10, searchVal: 'a\u0000', folderName: 'newOrder' }],
      ['PUT', '/api/admin/assign-order-status', { orderId: ['ETA-1\u0000'], assignto: 'x' }],
      ['PUT', '/api/admin/change-order-status', { orderId: ['\u0000'], updatingStatus: 'Awaiting' }],
      ['PUT', '/api/admin/move-to-complete-refund', { orderId: ['\u0000'] }],
      ['POST', '/api/admin/change-password', { newPassword: 'abc\u0000def' }],
    ];
    for (const [method, url, payload] of cases) {
      const { res } = await send({ method: method as 'POST', url, payload }, true);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({
        status: 0,
        code: 'INVALID_TEXT',
        message: expect.stringMatching(/cannot be stored/),
      });
    }
  });

  it('wrong types are refused, not coerced: sign-in with a number and an array is a 400', async () => {
    const search = await send(
      {
        method: 'POST',
        url: '/api/admin/search-order',
        payload: { start: null, end: 10, searchVal: 'a', folderName: 'newOrder' },
      },
      true,
    );
    expect(search.res.statusCode).toBe(400);
    expect(search.res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { start: expect.any(String) } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/admin-login',
      payload: { email: 12, password: ['x'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('query numbers are decimal digits only: page=0x10 is not page 16', async () => {
    for (const page of ['0x10', '1e1', '+3', ' 2']) {
      const { res } = await send({ url: `/api/admin/get-orders-list/newOrder?page=${encodeURIComponent(page)}` }, true);
      expect(res.statusCode, page).toBe(400);
      expect(res.json().message, page).toMatch(/page must be a whole number written in digits/);
    }
    const { res } = await send({ url: '/api/admin/get-orders-list/newOrder?page=16&limit=10' }, true);
    expect(res.json().data).toMatchObject({ page: 16, limit: 10 });
  });

  it('an over-long path parameter is a 414 in the envelope', async () => {
    const { res } = await send({ url: `/api/admin/get-orders-list/${'x'.repeat(300)}` }, true);
    expect(res.statusCode).toBe(414);
    expect(res.json()).toMatchObject({ status: 0, code: 'URI_TOO_LONG' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('oversized headers on a real socket are a 431 in the envelope, not a bare status line', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${address}/api/admin/get-folder-count`, {
        headers: { cookie: 'a='.padEnd(40_000, 'b') },
      });
      expect(res.status).toBe(431);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toMatchObject({ status: 0, code: 'HEADERS_TOO_LARGE', message: expect.any(String) });
    } finally {
      await t.app.server.close();
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

describe('personal data is not cached', () => {
  it('signed-in answers carry Cache-Control: no-store; public branding may be cached', async () => {
    for (const url of [
      '/api/admin/get-orders-list/newOrder?limit=5',
      '/api/admin/get-folder-count',
      '/api/user_info',
    ]) {
      const { res } = await send({ url }, true);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const failed = await t.app.inject({ url: '/api/user_info' });
    expect(failed.headers['cache-control']).toBe('no-store');
    const site = await t.app.inject({ url: '/api/front/landing-sites/default' });
    expect(site.headers['cache-control']).toBe('public, max-age=300');
  });
});
