// The customer portal (spec §4 "Customer flow", §5, §7 "Public", DESIGN §4): only the order id AND its e-mail
// open an order; the proof track-order issues is bound to that order and expires; failures are limited per
// address and per order id; the download is the uploaded document, byte for byte, and is logged as it starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACK_ORDER_MESSAGES, TRACK_PROOF_HEADER, isPortalPath, type ActivityEntry } from '@eta/contracts';
import { TrackingProofs } from '../src/modules/portal/tracking-proofs.js';
import { JWT_SECRET, buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { PDF, uploadRequest, TRAVELLER, approvalPdf } from './helpers/uploads.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const NO_MATCH = /could not find an order with this Order ID and e-mail/;

let t: TestApp;
let staffToken: string;

beforeAll(async () => {
  t = await buildTestApp({ trackLimitPerIp: 1000, trackLimitPerOrder: 1000 });
  staffToken = (await t.signIn('Team', 'Uma Uploader')).token;
});
afterAll(() => t.close());

const track = (app: TestApp, payload: unknown, remoteAddress = '198.51.100.7', headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'POST', url: '/api/front/track-order', payload: payload as object, remoteAddress, headers });

async function proofFor(orderId: string, email: string): Promise<string> {
  const res = await track(t, { orderId, email });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { proof: string } }>().data.proof;
}

const history = (orderId: string, proof?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/front/get-download-history',
    payload: { orderId },
    headers: proof ? { [TRACK_PROOF_HEADER]: proof } : {},
  });

const prepareDownload = (body: Record<string, string>, proof?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/front/download-passport-doc-pdf',
    payload: body,
    headers: proof ? { [TRACK_PROOF_HEADER]: proof } : {},
  });

async function uploadApproval(orderId: string, content: Buffer = PDF) {
  // The box holds the order's own e-mail, as the console fills it.
  const { email } = await t.database.db
    .selectFrom('orders')
    .select('email')
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  const form = await uploadRequest(
    { orderId, email: email ?? '', mailServiceProvider: 'AWS' },
    { name: 'approval.pdf', content, type: 'application/pdf' },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    headers: { ...form.headers, authorization: staffToken },
    payload: form.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('POST /api/front/track-order', () => {
  it('finds a paid order by its id and e-mail in any case and with surrounding spaces', async () => {
    const orderId = await insertOrder(t.database.db, { email: 'Maria.Lopez@Example.com', landing_site: 'eta-express' });
    const res = await track(t, { orderId: `  ${orderId.toLowerCase()} `, email: '  maria.lopez@EXAMPLE.COM ' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      status: number;
      data: { orderId: string; proof: string; expiresAt: string; landingSite: string };
    }>();
    expect(body.status).toBe(1);
    expect(body.data.orderId).toBe(orderId);
    expect(body.data.landingSite).toBe('eta-express');
    expect(new Date(body.data.expiresAt).getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);
    expect((await history(orderId, body.data.proof)).statusCode).toBe(200);
  });

  it('answers a wrong e-mail exactly as it answers an order that does not exist', async () => {
    const orderId = await insertOrder(t.database.db, { email: 'owner@example.com' });
    const wrongEmail = await track(t, { orderId, email: 'someone-else@example.com' });
    const noOrder = await track(t, { orderId: 'ETA-999999999', email: 'owner@example.com' });
    expect(wrongEmail.statusCode).toBe(404);
    expect(noOrder.statusCode).toBe(404);
    expect(wrongEmail.json()).toEqual(noOrder.json());
    expect(wrongEmail.json<{ message: string; status: number }>()).toMatchObject({
      status: 0,
      message: expect.stringMatching(NO_MATCH),
    });
    // Both failures take the same path: one lookup, one constant-time comparison, one audit row.
    const audited = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('action', '=', 'security.track-failed')
      .where('target', 'in', [orderId, 'ETA-999999999'])
      .execute();
    expect(audited).toHaveLength(2);
  });

  it('refuses deleted and unpaid orders; only the owner of the pair is told why', async () => {
    const deleted = await insertOrder(t.database.db, { email: 'gone@example.com', process_status: 'Deleted' });
    const unpaid = await insertOrder(t.database.db, { email: 'later@example.com', payment_status: 'Pending' });
    const deletedRes = await track(t, { orderId: deleted, email: 'gone@example.com' });
    expect(deletedRes.statusCode).toBe(409);
    expect(deletedRes.json()).toMatchObject({ code: 'ORDER_DELETED', message: expect.stringMatching(/cancelled/) });
    const unpaidRes = await track(t, { orderId: unpaid, email: 'later@example.com' });
    expect(unpaidRes.statusCode).toBe(409);
    expect(unpaidRes.json()).toMatchObject({ code: 'NOT_PAID', message: expect.stringMatching(/payment/) });
    expect((await track(t, { orderId: deleted, email: 'guess@example.com' })).json()).toMatchObject({
      message: expect.stringMatching(NO_MATCH),
    });
  });

  it("asks for each missing field in the spec's words and changes nothing", async () => {
    const cases: [unknown, string][] = [
      [{}, TRACK_ORDER_MESSAGES.orderIdRequired],
      [{ email: 'a@example.com' }, TRACK_ORDER_MESSAGES.orderIdRequired],
      [{ orderId: '   ', email: 'a@example.com' }, TRACK_ORDER_MESSAGES.orderIdRequired],
      [{ orderId: 'ETA-100000001' }, TRACK_ORDER_MESSAGES.emailRequired],
      [{ orderId: 'ETA-100000001', email: ' ' }, TRACK_ORDER_MESSAGES.emailRequired],
    ];
    for (const [payload, message] of cases) {
      const res = await track(t, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ status: 0, code: 'VALIDATION_FAILED', message });
    }
    const failures = await t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'security.track-failed')
      .where('target', '=', 'ETA-100000001')
      .execute();
    expect(failures).toHaveLength(0);
  });
});

describe('the tracking proof', () => {
  it('is required, opens only its own order and expires', async () => {
    const mine = await insertOrder(t.database.db, { email: 'mine@example.com' });
    const other = await insertOrder(t.database.db, { email: 'other@example.com' });
    const proof = await proofFor(mine, 'mine@example.com');

    const without = await history(mine);
    expect(without.statusCode).toBe(401);
    expect(without.json()).toMatchObject({
      code: 'TRACK_PROOF_REQUIRED',
      message: expect.stringMatching(/track your order again/),
    });
    expect((await history(other, proof)).statusCode).toBe(401);
    expect((await prepareDownload({ orderId: other, customername: '', file1: 'x.pdf' }, proof)).statusCode).toBe(401);
    // A staff session is no proof, nor is a proof signed with another key.
    expect((await history(mine, staffToken)).statusCode).toBe(401);
    expect(
      (
        await history(
          mine,
          (await new TrackingProofs('another-secret-of-sufficient-length-123').issueProof(mine)).token,
        )
      ).statusCode,
    ).toBe(401);

    const halfAnHourAgo = new TrackingProofs(JWT_SECRET, () => new Date(Date.now() - 31 * 60_000));
    const expired = (await halfAnHourAgo.issueProof(mine)).token;
    expect((await history(mine, expired)).statusCode).toBe(401);
    const fresh = new TrackingProofs(JWT_SECRET, () => new Date(Date.now() - 29 * 60_000));
    expect((await history(mine, (await fresh.issueProof(mine)).token)).statusCode).toBe(200);
  });
});

describe('download history and download', () => {
  it('says an order without an approved document is still being processed', async () => {
    const orderId = await insertOrder(t.database.db, { email: 'waiting@example.com' });
    const proof = await proofFor(orderId, 'waiting@example.com');
    const res = await history(orderId, proof);
    expect(res.json()).toMatchObject({
      status: 1,
      message: 'Your order is still being processed.',
      data: [],
      mainResult: { order_id: orderId, customer_name: 'Ada Lovelace' },
      path: { file1: null },
    });
    const download = await prepareDownload(
      { orderId, customername: 'Ada Lovelace', file1: `eTA-${orderId}.pdf` },
      proof,
    );
    expect(download.statusCode).toBe(409);
    expect(download.json()).toMatchObject({ code: 'NO_DOCUMENT', message: expect.stringMatching(/not ready yet/) });
  });

  it('streams the uploaded document byte for byte and logs the download with the device and location', async () => {
    const orderId = await insertOrder(t.database.db, {
      email: 'ready@example.com',
      passport_first_name: 'Jean',
      passport_surname: 'Tremblay',
    });
    const approval = await approvalPdf({ ...TRAVELLER, surname: 'Tremblay', givenNames: 'Jean' });
    await uploadApproval(orderId, approval);
    const proof = await proofFor(orderId, 'READY@example.com');

    const before = (await history(orderId, proof)).json<{
      path: { file1: string };
      mainResult: { customer_name: string };
    }>();
    expect(before.path.file1).toBe(`eTA-${orderId}.pdf`);
    const prepared = await prepareDownload(
      { orderId, customername: before.mainResult.customer_name, file1: before.path.file1, timezone: 'Europe/Paris' },
      proof,
    );
    expect(prepared.statusCode, prepared.body).toBe(200);
    const { url } = prepared.json<{ data: { url: string } }>().data;

    const file = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'user-agent': IPHONE },
      remoteAddress: '8.8.8.8',
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(approval)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="eTA-${orderId}.pdf"`);

    const rows = (await history(orderId, proof)).json<{ data: Record<string, unknown>[] }>().data;
    expect(rows).toEqual([
      {
        order_id: orderId,
        create_ts: expect.any(String),
        ip: '8.8.8.8',
        device: 'Apple iPhone',
        device_type: 'mobile',
        browser: 'Mobile Safari 17',
        os: 'iOS 17.4',
        location: 'United States',
        timezone: 'Europe/Paris',
      },
    ]);
    // The staff see it at once in the order's Download History, and the audit trail has it.
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/get-orders-details/${orderId}`,
      headers: { authorization: staffToken },
    });
    expect(
      detail.json<{ data: { downloadHistory: { ip: string; browser: string }[] } }>().data.downloadHistory,
    ).toEqual([expect.objectContaining({ ip: '8.8.8.8', browser: 'Mobile Safari 17' })]);
    // The order's timeline says it in words, after the upload (issue 33: it read "Customer portal.download").
    expect(
      detail
        .json<{ data: { activity: ActivityEntry[] } }>()
        .data.activity.map(({ actor, action }) => ({ actor, action })),
    ).toEqual([
      { actor: 'Uma Uploader', action: 'Approved document uploaded' },
      { actor: undefined, action: 'Customer downloaded the approved eTA' },
    ]);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['actor_name', 'ip'])
      .where('action', '=', 'portal.download')
      .where('target', '=', orderId)
      .execute();
    expect(audit).toEqual([{ actor_name: 'Customer', ip: '8.8.8.8' }]);
  });

  it('refuses a forged or stale link and a download of a document that has since been replaced', async () => {
    const orderId = await insertOrder(t.database.db, { email: 'twice@example.com' });
    await uploadApproval(orderId);
    const proof = await proofFor(orderId, 'twice@example.com');
    const body = { orderId, customername: 'Ada Lovelace', file1: `eTA-${orderId}.pdf` };
    const { url } = (await prepareDownload(body, proof)).json<{ data: { url: string } }>().data;

    const forged = await t.app.inject({ method: 'GET', url: `${url.slice(0, -4)}AAAA` });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ message: expect.stringMatching(/link has expired/) });

    await uploadApproval(orderId, Buffer.concat([PDF, Buffer.from('\n% corrected copy\n')]));
    const stale = await t.app.inject({ method: 'GET', url });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'DOCUMENT_CHANGED' });
    const fresh = (await prepareDownload(body, proof)).json<{ data: { url: string } }>().data.url;
    const file = await t.app.inject({ method: 'GET', url: fresh });
    expect(file.rawPayload.toString('latin1')).toContain('% corrected copy');
    expect(file.headers['content-type']).toBe('application/pdf');
  });

  it('logs an unknown device and a private address as Unknown rather than failing', async () => {
    const orderId = await insertOrder(t.database.db, { email: 'plain@example.com' });
    await uploadApproval(orderId);
    const proof = await proofFor(orderId, 'plain@example.com');
    const { url } = (await prepareDownload({ orderId, customername: '', file1: `eTA-${orderId}.pdf` }, proof)).json<{
      data: { url: string };
    }>().data;
    expect((await t.app.inject({ method: 'GET', url, remoteAddress: '10.1.2.3' })).statusCode).toBe(200);
    const [row] = (await history(orderId, proof)).json<{ data: Record<string, unknown>[] }>().data;
    expect(row).toMatchObject({
      ip: '10.1.2.3',
      location: 'Unknown',
      browser: 'Unknown',
      device: 'Unknown',
      timezone: null,
    });
  });
});

describe('guessing limits', () => {
  it('stops an address after its failures with 429, a wait and a clear message, even for the right pair', async () => {
    const limited = await buildTestApp({ trackLimitPerIp: 3, trackLimitPerOrder: 100 });
    try {
      const orderId = await insertOrder(limited.database.db, { email: 'right@example.com' });
      for (let i = 0; i < 3; i += 1) {
        expect((await track(limited, { orderId, email: `guess${i}@example.com` }, '203.0.113.9')).statusCode).toBe(404);
      }
      const refused = await track(limited, { orderId, email: 'right@example.com' }, '203.0.113.9');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
      expect(refused.json()).toMatchObject({
        code: 'TOO_MANY_ATTEMPTS',
        message: expect.stringMatching(/Too many attempts to track an order\. Please wait 15 minutes/),
      });
      // Another address is not affected, and proven pairs never count.
      expect((await track(limited, { orderId, email: 'right@example.com' }, '203.0.113.10')).statusCode).toBe(200);
      for (let i = 0; i < 5; i += 1) {
        expect((await track(limited, { orderId, email: 'right@example.com' }, '203.0.113.11')).statusCode).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });

  it('stops the addresses that failed for an order from guessing it again; other orders and addresses answer', async () => {
    const limited = await buildTestApp({ trackLimitPerIp: 100, trackLimitPerOrder: 3, trustProxy: true });
    try {
      const target = await insertOrder(limited.database.db, { email: 'victim@example.com' });
      const other = await insertOrder(limited.database.db, { email: 'other@example.com' });
      // Behind a trusted proxy, the address is the forwarded one.
      const from = (address: string, orderId: string, email: string) =>
        track(limited, { orderId, email }, '127.0.0.1', { 'x-forwarded-for': address });
      for (let i = 0; i < 3; i += 1) {
        expect((await from(`192.0.2.${i + 1}`, target, `guess${i}@example.com`)).statusCode).toBe(404);
      }
      const refused = await from('192.0.2.1', target, 'guess9@example.com');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
      // An address that has not failed for the order still gets its answer, and other orders are untouched.
      expect((await from('192.0.2.50', target, 'guess10@example.com')).statusCode).toBe(404);
      expect((await from('192.0.2.1', other, 'other@example.com')).statusCode).toBe(200);
      const audited = await limited.database.db
        .selectFrom('audit_log')
        .select('ip')
        .where('action', '=', 'security.track-failed')
        .orderBy('id')
        .execute();
      expect(audited.map((a) => a.ip)).toEqual(['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.50']);
    } finally {
      await limited.close();
    }
  });

  it('50 wrong guesses for an order from five addresses never lock its customer out', async () => {
    const orderId = await insertOrder(t.database.db, { email: 'customer@example.com' });
    const answers: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const res = await track(t, { orderId, email: `guess${i}@example.com` }, `203.0.113.${(i % 5) + 1}`);
      answers.push(res.statusCode);
    }
    // The wrong guesses were answered or slowed, never let through.
    expect(answers.every((s) => s === 404 || s === 429)).toBe(true);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(0);
    const customer = await track(t, { orderId, email: 'customer@example.com' }, '198.51.100.20');
    expect(customer.statusCode).toBe(200);
  });

  it('slows an address down with each wrong guess past the first three, and says for how long', async () => {
    const first = await insertOrder(t.database.db, { email: 'a@example.com' });
    for (let i = 0; i < 4; i += 1) {
      expect((await track(t, { orderId: first, email: `guess${i}@example.com` }, '203.0.113.40')).statusCode).toBe(404);
    }
    const slowed = await track(t, { orderId: first, email: 'a@example.com' }, '203.0.113.40');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect(slowed.json().message).toMatch(/Please wait 1 second and try again/);
  });
});

describe('landing sites', () => {
  it("gives an unknown site the default site's branding, never a bare page", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/front/landing-sites/no-such-site' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: { key: 'default', display_name: 'Canada eTA Online', translate_widget_url: null },
    });
  });

  it('lets pages load the translation widget only from where it is configured', async () => {
    const scriptSources = (csp: unknown) => /script-src ([^;]*)/.exec(String(csp))?.[1];
    const unconfigured = await t.app.inject({ method: 'GET', url: '/api/front/landing-sites/default' });
    expect(scriptSources(unconfigured.headers['content-security-policy'])).toBe("'self'");

    const url = 'https://translate.google.com/translate_a/element.js?cb=googleTranslateElementInit';
    const configured = await buildTestApp({ translateWidgetUrl: url });
    try {
      const res = await configured.app.inject({ method: 'GET', url: '/api/front/landing-sites/default' });
      expect(res.json()).toMatchObject({ data: { translate_widget_url: url } });
      expect(scriptSources(res.headers['content-security-policy'])).toBe(
        "'self' https://translate.google.com https://translate.googleapis.com https://translate-pa.googleapis.com",
      );
    } finally {
      await configured.close();
    }
  });

  it('has menu links that lead to a portal page or a real external address only', async () => {
    const sites = await t.database.db.selectFrom('landing_sites').select(['key', 'menu_links']).execute();
    expect(sites.length).toBeGreaterThanOrEqual(3);
    for (const site of sites) {
      expect(site.menu_links.length, site.key).toBeGreaterThan(0);
      for (const link of site.menu_links) {
        const ok = /^(https:\/\/|mailto:|tel:)/.test(link.url) || isPortalPath(link.url);
        expect(ok, `${site.key}: ${link.label} → ${link.url}`).toBe(true);
      }
    }
  });
});
