// Adding a landing site and editing its branding (issue 33): only an Admin may; every field is checked on the server
// (all at once, nothing changed on a refusal); a key or name another site has is a 409; an edit from a stale page is
// a 409; the logo is judged by its content; each change is audited; and the mails and the portal use the new branding.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LandingSiteAdmin, StaffType } from '@eta/contracts';
import { greyscalePng } from '../src/lib/png.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn('Admin', 'Brand Admin');
});
afterAll(() => t.close());

const NEW_SITE = {
  key: 'maple-visa',
  display_name: 'Maple Visa Help',
  mail_sender: 'Maple Visa Help <noreply@maple-visa.example>',
  footer_contact: 'help@maple-visa.example',
  support_phone: '+1 800 555 0199',
  portal_url: 'https://track.maple-visa.example/',
  disclaimer: 'Maple Visa Help is a private service, not the Government of Canada.',
  fee_text: 'Service fee: 69.00 USD including the 7.00 CAD government fee.',
};

const asAdmin = (token = admin.token) => ({ authorization: token });

const createSite = (body: object, token = admin.token) =>
  t.app.inject({ method: 'POST', url: '/api/admin/landing-sites', headers: asAdmin(token), payload: body });

const saveBranding = (key: string, body: object, token = admin.token) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/landing-sites/${key}/branding`,
    headers: asAdmin(token),
    payload: body,
  });

async function uploadLogo(
  key: string,
  file: { name: string; content: Buffer; type?: string },
  version: number | string,
  token = admin.token,
) {
  const form = new FormData();
  form.append('version', String(version));
  form.append('logo', new Blob([file.content], { type: file.type ?? 'application/octet-stream' }), file.name);
  const request = new Request('http://upload.test/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/landing-sites/${key}/logo`,
    headers: { ...asAdmin(token), 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const sites = async (): Promise<LandingSiteAdmin[]> =>
  (await t.app.inject({ url: '/api/admin/landing-sites', headers: asAdmin() })).json().data;
const siteOf = async (key: string) => (await sites()).find((s) => s.key === key);

const auditOf = (action: string) =>
  t.database.db
    .selectFrom('audit_log')
    .select(['action', 'target', 'actor_name', 'before', 'after'])
    .where('action', '=', action)
    .orderBy('id')
    .execute();

/** The document-store key of a site's uploaded logo. */
const logoKeyOf = async (site: string) =>
  (await t.database.db.selectFrom('landing_sites').select('logo_key').where('key', '=', site).executeTakeFirstOrThrow())
    .logo_key!;

/** Every file in the test's document store. */
async function storedFiles(): Promise<string[]> {
  const root = path.join(t.config.dataDir, 'documents');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** A logo as a designer would export it: a 120 × 40 PNG. */
const LOGO = greyscalePng(120, 40, (x, y) => ((x + y) % 16 < 8 ? 40 : 230));

describe('adding a landing site', () => {
  it('an Admin adds a site: listed with its branding, version 1, its first legal texts, the portal menu; audited', async () => {
    const res = await createSite(NEW_SITE);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      status: 1,
      message: 'Landing site Maple Visa Help added. Make its intake key so its forms can send orders.',
      data: { key: 'maple-visa', version: 1, logo_url: '' },
    });
    const site = await siteOf('maple-visa');
    expect(site).toMatchObject({
      display_name: 'Maple Visa Help',
      mail_sender: 'Maple Visa Help <noreply@maple-visa.example>',
      footer_contact: 'help@maple-visa.example',
      support_phone: '+1 800 555 0199',
      // Stored without its trailing slash: the mails' links are built on it.
      portal_url: 'https://track.maple-visa.example',
      logo_url: '',
      version: 1,
      legal: { version: 1, disclaimer: NEW_SITE.disclaimer, fee_text: NEW_SITE.fee_text, created_by: 'Brand Admin' },
      intakeKeys: [],
    });
    expect(site!.menu_links.map((l) => l.url)).toEqual(['/track-order', '/faq', '/contact']);

    const portal = await t.app.inject({ url: '/api/front/landing-sites/maple-visa' });
    expect(portal.json().data).toMatchObject({
      display_name: 'Maple Visa Help',
      footer_contact: 'help@maple-visa.example',
    });

    expect(await auditOf('landing-site.create')).toEqual([
      expect.objectContaining({
        target: 'maple-visa',
        actor_name: 'Brand Admin',
        after: expect.objectContaining({ display_name: 'Maple Visa Help', legal_version: 1 }),
      }),
    ]);
  });

  it('refuses bad input with every field named, and adds nothing', async () => {
    const before = (await sites()).length;
    const res = await createSite({
      ...NEW_SITE,
      key: 'Bad Key!',
      display_name: 'Another Name',
      mail_sender: 'Maple <not-an-address>',
      footer_contact: 'help at maple',
      support_phone: 'call us',
      portal_url: 'http://track.example.com',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: {
        key: 'The key is 1 to 40 lowercase letters, digits and hyphens, starting and ending with a letter or digit (e.g. eta-express).',
        mail_sender: expect.stringMatching(/^Enter the sender as an address \(noreply@example\.com\)/),
        footer_contact: 'Please enter a valid e-mail address (e.g. support@example.com).',
        support_phone: expect.stringMatching(/^A telephone number has 6 to 20 digits/),
        portal_url: expect.stringMatching(/^The portal URL starts with https:\/\/ \(http:\/\/ only for localhost\)/),
      },
    });
    // A portal with a ?query, a sender whose name could split the header, a name too long for the schema.
    for (const bad of [
      { portal_url: 'https://track.example.com/?site=x' },
      { mail_sender: 'Maple, Visa <noreply@maple.example>' },
      { display_name: 'x'.repeat(81) },
      { key: '' },
      { key: '-maple' },
    ]) {
      const refused = await createSite({ ...NEW_SITE, key: 'fine-key', display_name: 'Fine Name', ...bad });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    // http is for a desk on this machine only.
    const local = await createSite({
      ...NEW_SITE,
      key: 'local-test',
      display_name: 'Local Test Site',
      portal_url: 'http://localhost:5173',
    });
    expect(local.statusCode, local.body).toBe(201);
    expect((await sites()).length).toBe(before + 1);
    expect((await auditOf('landing-site.create')).map((r) => r.target)).toEqual(['maple-visa', 'local-test']);
  });

  it('a key or a name another site has is a 409 naming the field, and adds nothing', async () => {
    const before = (await sites()).length;
    const sameKey = await createSite({ ...NEW_SITE, display_name: 'A New Name' });
    expect(sameKey.statusCode).toBe(409);
    expect(sameKey.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'There is already a landing site with the key "maple-visa". Please choose another key.',
      data: { field: 'key' },
    });
    const sameName = await createSite({ ...NEW_SITE, key: 'maple-two', display_name: '  maple VISA help ' });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toMatchObject({
      message: 'The landing site "maple-visa" is already named "Maple Visa Help". Please choose another name.',
      data: { field: 'display_name' },
    });
    expect((await sites()).length).toBe(before);
  });

  it.each<StaffType>(['Manager', 'Team', 'Telecaller', 'Night Staff'])(
    'a %s may not add a site, edit its branding or upload its logo (403, nothing changed)',
    async (role) => {
      const staff = await t.signIn(role);
      const site = (await siteOf('maple-visa'))!;
      const add = await createSite({ ...NEW_SITE, key: `by-${role.replace(' ', '-').toLowerCase()}` }, staff.token);
      const edit = await saveBranding(
        'maple-visa',
        { ...site, display_name: 'Taken Over', version: site.version },
        staff.token,
      );
      const logo = await uploadLogo('maple-visa', { name: 'logo.png', content: LOGO }, site.version, staff.token);
      expect([add.statusCode, edit.statusCode, logo.statusCode]).toEqual([403, 403, 403]);
      expect(await siteOf('maple-visa')).toEqual(site);
      expect(await siteOf(`by-${role.replace(' ', '-').toLowerCase()}`)).toBeUndefined();
    },
  );
});

describe('editing branding', () => {
  it("saves over the version seen; new orders' mails and the portal use it; a stale page is refused", async () => {
    const key = await createIntakeKey(t, 'maple-visa');
    const site = (await siteOf('maple-visa'))!;
    const branding = {
      display_name: 'Maple Visa Helpdesk',
      mail_sender: 'noreply@maplevisa.example',
      footer_contact: 'care@maplevisa.example',
      support_phone: '',
      portal_url: 'https://portal.maplevisa.example/eta',
    };
    const saved = await saveBranding('maple-visa', { ...branding, version: site.version });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      message: 'The branding of Maple Visa Helpdesk was saved.',
      data: { key: 'maple-visa', version: site.version + 1 },
    });
    const after = (await siteOf('maple-visa'))!;
    const { support_phone: _none, ...shown } = branding;
    expect(after).toMatchObject({ ...shown, version: site.version + 1 });
    expect(after.support_phone).toBeUndefined();

    // The portal's branding and a new order's confirmation mail use the new branding.
    const portal = (await t.app.inject({ url: '/api/front/landing-sites/maple-visa' })).json().data;
    expect(portal).toMatchObject({ display_name: 'Maple Visa Helpdesk', footer_contact: 'care@maplevisa.example' });
    const order = await postIntake(t, key, application());
    expect(order.statusCode, order.body).toBe(201);
    const { order_id: orderId, tracking_url: trackingUrl } = order.json().data;
    expect(trackingUrl).toBe(`https://portal.maplevisa.example/eta/track-order/${orderId}?site=maple-visa`);
    const mail = await t.database.db
      .selectFrom('mails')
      .innerJoin('orders', 'orders.id', 'mails.order_id')
      .select(['mails.from_address', 'mails.html', 'mails.text'])
      .where('orders.order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(mail.from_address).toBe('noreply@maplevisa.example');
    expect(mail.text).toContain('E-mail: care@maplevisa.example');
    expect(mail.html).toContain('Maple Visa Helpdesk');
    // No logo yet: the mail shows the name alone, not a broken image.
    expect(mail.html).not.toContain('<img');

    // The page still showing the first version: refused, naming who changed it; nothing overwritten.
    const stale = await saveBranding('maple-visa', { ...branding, display_name: 'Old Page', version: site.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'STALE_VERSION',
      message: expect.stringMatching(
        /^Landing site "maple-visa" was changed by Brand Admin at .+ after you opened it\. Nothing was overwritten/,
      ),
    });
    const { intakeKeys: _keys, ...afterBranding } = after;
    expect(await siteOf('maple-visa')).toMatchObject(afterBranding);

    const audit = await auditOf('landing-site.branding');
    expect(audit).toEqual([
      expect.objectContaining({
        target: 'maple-visa',
        actor_name: 'Brand Admin',
        before: expect.objectContaining({ display_name: 'Maple Visa Help', version: site.version }),
        after: expect.objectContaining({ display_name: 'Maple Visa Helpdesk', version: site.version + 1 }),
      }),
    ]);
  });

  it('refuses bad branding and a name another site has, changing nothing; an unknown site is a 404', async () => {
    const site = (await siteOf('maple-visa'))!;
    const bad = await saveBranding('maple-visa', {
      display_name: ' ',
      mail_sender: site.mail_sender,
      footer_contact: 'nobody',
      portal_url: 'ftp://files.example',
      version: site.version,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      display_name: "Please enter the site's name.",
      footer_contact: 'Please enter a valid e-mail address (e.g. support@example.com).',
      portal_url: expect.stringMatching(/^The portal URL starts with https:\/\//),
    });
    const taken = await saveBranding('maple-visa', {
      display_name: 'eTA Express Canada',
      mail_sender: site.mail_sender,
      footer_contact: site.footer_contact,
      version: site.version,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().data).toEqual({ field: 'display_name' });
    expect(await siteOf('maple-visa')).toEqual(site);
    const unknown = await saveBranding('no-such-site', {
      display_name: 'Nobody',
      mail_sender: site.mail_sender,
      footer_contact: site.footer_contact,
      version: 1,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the logo', () => {
  it('a PNG is stored, served as an image to any origin, audited, and shown in the mails from then on', async () => {
    const site = (await siteOf('maple-visa'))!;
    const res = await uploadLogo(
      'maple-visa',
      { name: 'maple logo.png', content: LOGO, type: 'image/png' },
      site.version,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { logo_url: logoUrl, version } = res.json().data;
    expect(logoUrl).toMatch(/^\/api\/front\/landing-sites\/maple-visa\/logo\?v=[0-9a-f]{16}$/);
    expect(version).toBe(site.version + 1);
    expect(await siteOf('maple-visa')).toMatchObject({ logo_url: logoUrl, version });
    expect((await t.app.inject({ url: '/api/front/landing-sites/maple-visa' })).json().data.logo_url).toBe(logoUrl);

    // Served to anyone (the portal, a webmail, the console's sandboxed mail preview) as the image it is.
    const served = await t.app.inject({ url: logoUrl });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(LOGO)).toBe(true);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const key = await createIntakeKey(t, 'maple-visa');
    const order = await postIntake(t, key, application());
    const html = await t.database.db
      .selectFrom('mails')
      .innerJoin('orders', 'orders.id', 'mails.order_id')
      .select('mails.html')
      .where('orders.order_id', '=', order.json().data.order_id)
      .executeTakeFirstOrThrow();
    expect(html.html).toContain(`<img src="https://portal.maplevisa.example${logoUrl}"`);

    expect(await auditOf('landing-site.logo')).toEqual([
      expect.objectContaining({
        target: 'maple-visa',
        actor_name: 'Brand Admin',
        before: { logo_url: '', version: site.version },
        after: expect.objectContaining({ logo_url: logoUrl, content_type: 'image/png', width: 120, height: 40 }),
      }),
    ]);
    const firstKey = await logoKeyOf('maple-visa');
    const isStored = async (key: string) => (await storedFiles()).some((file) => file.endsWith(key));
    expect(await isStored(firstKey)).toBe(true);

    // A second logo replaces the first: its file is removed, the old address now serves the new logo briefly cached.
    const second = greyscalePng(64, 64, () => 90);
    const replaced = await uploadLogo('maple-visa', { name: 'logo.png', content: second }, version);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await isStored(await logoKeyOf('maple-visa'))).toBe(true);
    await expect.poll(() => isStored(firstKey)).toBe(false);
    const old = await t.app.inject({ url: logoUrl });
    expect(old.rawPayload.equals(second)).toBe(true);
    expect(old.headers['cache-control']).toBe('public, max-age=300');
  });

  it('judges the file by its content: text named .png, an SVG, a GIF, a broken PNG and a tiny one are refused', async () => {
    const site = (await siteOf('maple-visa'))!;
    const files = await storedFiles();
    const cases: [{ name: string; content: Buffer; type?: string }, number, string][] = [
      [
        { name: 'logo.png', content: Buffer.from('<html><script>alert(1)</script></html>'), type: 'image/png' },
        415,
        'This file is not an image. The logo must be a PNG or JPEG image.',
      ],
      [
        {
          name: 'logo.svg',
          content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
          type: 'image/svg+xml',
        },
        415,
        'This file is an SVG image, which can carry script and which most mail programs do not show. The logo must be a PNG or JPEG image.',
      ],
      [
        {
          name: 'logo.gif',
          content: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
        },
        415,
        'This file is a GIF file (image/gif). The logo must be a PNG or JPEG image.',
      ],
      [
        { name: 'logo.png', content: LOGO.subarray(0, 20) },
        422,
        'This PNG image cannot be read: it is damaged or cut short. Please export the logo again.',
      ],
      [
        { name: 'dot.png', content: greyscalePng(8, 8, () => 0) },
        400,
        'The logo must be 16 to 4096 pixels wide and high. This one is 8 × 8.',
      ],
      [{ name: 'empty.png', content: Buffer.alloc(0) }, 400, 'Please choose a logo file.'],
    ];
    for (const [file, status, message] of cases) {
      const res = await uploadLogo('maple-visa', file, site.version);
      expect(res.statusCode, file.name).toBe(status);
      expect(res.json()).toMatchObject({ message, errors: { logo: message } });
    }
    expect(await siteOf('maple-visa')).toEqual(site);
    expect(await storedFiles()).toEqual(files);
    expect(await auditOf('landing-site.logo')).toHaveLength(2);
  });

  it('refuses a logo over 512 KB (413), a stale version (409) and no file (400), storing nothing', async () => {
    const site = (await siteOf('maple-visa'))!;
    const files = await storedFiles();
    const big = Buffer.concat([LOGO, Buffer.alloc(600 * 1024)]);
    const tooBig = await uploadLogo('maple-visa', { name: 'big.png', content: big }, site.version);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe('The logo must be at most 512 KB. Nothing was changed.');

    const stale = await uploadLogo('maple-visa', { name: 'logo.png', content: LOGO }, site.version - 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('STALE_VERSION');

    const form = new FormData();
    form.append('version', String(site.version));
    const request = new Request('http://upload.test/', { method: 'POST', body: form });
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/admin/landing-sites/maple-visa/logo',
      headers: { ...asAdmin(), 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ logo: 'Please choose a logo file.' });

    expect(await siteOf('maple-visa')).toEqual(site);
    await expect.poll(storedFiles).toEqual(files);
  });

  it('a site without an uploaded logo has none to serve (404)', async () => {
    const res = await t.app.inject({ url: '/api/front/landing-sites/eta-express/logo' });
    expect(res.statusCode).toBe(404);
  });
});
