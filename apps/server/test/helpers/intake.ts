// Intake fixtures: an Admin makes a landing site's key through the API, and applications are posted with it as a
// landing site's form would (Bearer key, Idempotency-Key, JSON).
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { intakeExample } from '@eta/contracts';
import type { TestApp } from './test-app.js';
import { samplePng } from './pdf-files.js';

export const today = () => new Date().toISOString().slice(0, 10);

/** A new intake key for `site`, made by an Admin on the Landing Sites API. */
export async function createIntakeKey(t: TestApp, site = 'default', graceMinutes?: number): Promise<string> {
  const admin = await t.signIn('Admin');
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/admin/landing-sites/${site}/intake-key`,
    headers: { authorization: admin.token },
    payload: graceMinutes === undefined ? {} : { graceMinutes },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { intakeKey: string } }>().data.intakeKey;
}

/** A complete valid application (the API documentation's example) with a real PNG signature and `overrides`. */
export function application(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...intakeExample(today()),
    signature: `data:image/png;base64,${samplePng().toString('base64')}`,
    email: `applicant.${randomUUID().slice(0, 8)}@mail.test`,
    ...overrides,
  };
}

export const postIntake = (
  t: TestApp,
  key: string | null,
  body: unknown,
  idempotencyKey: string | null = randomUUID(),
  remoteAddress = '203.0.113.10',
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/intake/orders',
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    payload: body as object,
    remoteAddress,
  });
