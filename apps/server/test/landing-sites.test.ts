// Landing sites (issue 20): legal texts are versions that are never edited in place, an order keeps the version
// its customer agreed to and its defence packs print that version, not today's; keys and texts are the Admin's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LandingSiteAdmin } from '@eta/contracts';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { pdfPages } from './helpers/pdf-files.js';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signIn']>>;
let key: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn('Admin', 'Legal Admin');
  key = await createIntakeKey(t, 'canada-travel-auth');
});
afterAll(() => t.close());

const sites = async (): Promise<LandingSiteAdmin[]> =>
  (await t.app.inject({ url: '/api/admin/landing-sites', headers: { authorization: admin.token } })).json().data;

const saveLegal = (site: string, disclaimer: string, fee_text: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/landing-sites/${site}/legal`,
    headers: { authorization: admin.token },
    payload: { disclaimer, fee_text },
  });

/** An intake order of the site, completed (defence packs are for Completed orders), and its pack 1's text. */
async function completedOrder(body: Record<string, unknown>): Promise<string> {
  const res = await postIntake(t, key, body);
  expect(res.statusCode, res.body).toBe(201);
  const orderId = res.json<{ data: { order_id: string } }>().data.order_id;
  await t.database.db
    .updateTable('orders')
    .set({ process_status: 'Completed' })
    .where('order_id', '=', orderId)
    .execute();
  return orderId;
}

async function packText(orderId: string, type: 1 | 2): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/get-defence-pack-pdf',
    headers: { authorization: admin.token },
    payload: { orderId, defencePackType: type },
  });
  expect(res.statusCode).toBe(200);
  return (await pdfPages(res.rawPayload)).join(' ');
}

describe('legal texts with versions', () => {
  it('every site starts at version 1 with the texts it had, and lists its history', async () => {
    const site = (await sites()).find((s) => s.key === 'canada-travel-auth')!;
    expect(site.legal).toMatchObject({ version: 1, disclaimer: expect.stringMatching(/^This is a private service/) });
    expect(site.legalHistory.map((v) => v.version)).toEqual([1]);
    expect(site.intakeKeys).toEqual([expect.objectContaining({ id: key.split('_')[1], orders: 0 })]);
  });

  it("a change after an order: that order's packs print the old version, a new order's the new one", async () => {
    const before = await completedOrder(application());
    const saved = await saveLegal(
      'canada-travel-auth',
      'Version two disclaimer: we are a private service, not the Government of Canada.',
      'Version two fees: 84.00 USD including the 7.00 CAD government fee.',
    );
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toEqual({ version: 2 });
    const after = await completedOrder(
      application({ consent: { ...(application().consent as object), legal_version: undefined } }),
    );

    const old = await packText(before, 1);
    expect(old).toContain('This is a private service that assists travellers with their eTA application.');
    expect(old).toContain('Service fee: 79.00 USD');
    expect(old).toContain('version 1');
    expect(old).not.toContain('Version two');
    const pack2 = await packText(before, 2);
    expect(pack2).toContain('This is a private service that assists travellers');

    const current = await packText(after, 1);
    expect(current).toContain('Version two disclaimer: we are a private service, not the Government of Canada.');
    expect(current).toContain('Version two fees: 84.00 USD');
    expect(current).toContain('version 2');
    // The consent facts and the signature with its date are printed too.
    expect(current).toContain('83.45.120.17');
    expect(current).toContain('Europe/Madrid');
    expect(current).toMatch(/Signed on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);

    const details = await t.app.inject({
      method: 'POST',
      url: '/api/admin/defence-pack-details',
      headers: { authorization: admin.token },
      payload: { orderId: before, defencePackType: 1 },
    });
    expect(details.json().data.agreement).toMatchObject({ legalVersion: 1, signatureOnFile: true });
  });

  it('an old version can be read again; a version is never changed in place', async () => {
    const v1 = await t.app.inject({
      url: '/api/admin/landing-sites/canada-travel-auth/legal/1',
      headers: { authorization: admin.token },
    });
    expect(v1.json().data).toMatchObject({ version: 1, fee_text: expect.stringContaining('79.00 USD') });
    const site = (await sites()).find((s) => s.key === 'canada-travel-auth')!;
    expect(site.legal).toMatchObject({ version: 2, created_by: 'Legal Admin' });
    expect(site.legalHistory.map((v) => v.version)).toEqual([2, 1]);
    await expect(
      sql`UPDATE legal_texts SET disclaimer = 'rewritten' WHERE landing_site = 'canada-travel-auth'`.execute(
        t.database.db,
      ),
    ).rejects.toThrow(/save a new version/);
    const missing = await t.app.inject({
      url: '/api/admin/landing-sites/canada-travel-auth/legal/9',
      headers: { authorization: admin.token },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('saving the same texts again makes no new version; empty texts are refused; each save is audited', async () => {
    const site = (await sites()).find((s) => s.key === 'canada-travel-auth')!;
    const same = await saveLegal('canada-travel-auth', site.legal.disclaimer, site.legal.fee_text);
    expect(same.json()).toMatchObject({ data: { version: 2 }, message: expect.stringMatching(/unchanged/) });
    const empty = await saveLegal('canada-travel-auth', '  ', 'x');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ disclaimer: 'Please enter the disclaimer text.' });
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'actor_name'])
      .where('action', '=', 'landing-site.legal-text')
      .execute();
    expect(audit).toEqual([
      { action: 'landing-site.legal-text', target: 'canada-travel-auth', actor_name: 'Legal Admin' },
    ]);
    const keys = await t.database.db
      .selectFrom('audit_log')
      .select(['after'])
      .where('action', '=', 'landing-site.intake-key')
      .execute();
    // The key's id is audited, never its secret.
    expect(JSON.stringify(keys)).toContain(key.split('_')[1]);
    expect(JSON.stringify(keys)).not.toContain(key.slice('etak_'.length + 17)); // the secret, which may hold '_'
  });
});

describe('intake keys', () => {
  it('a new key is audited by its public id with the keys it retires, never by its secret', async () => {
    const first = await createIntakeKey(t, 'eta-express');
    const second = await createIntakeKey(t, 'eta-express', 30);
    const secretOf = (k: string) => /^etak_[0-9a-f]{16}_(.+)$/.exec(k)![1]!;
    const rows = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'after'])
      .where('action', '=', 'landing-site.intake-key')
      .where('target', '=', 'eta-express')
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(2);
    const firstId = first.slice(5, 21);
    expect(rows[1]!.after).toMatchObject({
      key: second.slice(5, 21),
      retiring: [{ id: firstId, retires_at: expect.any(String) }],
    });
    const trail = JSON.stringify(rows);
    expect(trail).not.toContain(secretOf(first));
    expect(trail).not.toContain(secretOf(second));
  });
});
