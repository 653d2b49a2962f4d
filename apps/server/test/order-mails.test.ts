// The mails of an order on its detail page: Resend (spec §7 resend-mail, to the address in the editable box)
// and View Email Content (exactly what was or will be sent, with the customer's WhatsApp link).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '@eta/contracts';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder, givePortalHosts } from './helpers/orders.js';
import { standInMailConfig, startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';
import { PDF, uploadRequest } from './helpers/uploads.js';
import { auditRowsMentioning } from './helpers/audit-mentions.js';

let standIn: MailStandIn;
let t: TestApp;
type Person = Awaited<ReturnType<TestApp['signIn']>>;
let telecaller: Person;

beforeAll(async () => {
  standIn = await startMailStandIn();
  t = await buildTestApp({ mail: standInMailConfig(standIn) });
  await givePortalHosts(t.database.db);
  telecaller = await t.signIn('Telecaller', 'Theo Telecaller');
});
afterAll(async () => {
  await t.close();
  await standIn.close();
});

async function uploadFor(orderId: string, email = 'first@customer.test') {
  const form = await uploadRequest(
    { orderId, email, mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
    { name: 'approval.pdf', content: PDF, type: 'application/pdf' },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    headers: { ...form.headers, authorization: telecaller.token },
    payload: form.payload,
  });
  expect(res.statusCode).toBe(200);
}

const resend = (payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/resend-mail',
    headers: { authorization: telecaller.token },
    payload,
  });

const view = (orderId: string, mailId?: number) =>
  t.app.inject({
    url: `/api/admin/email-content/${orderId}${mailId ? `?mailId=${mailId}` : ''}`,
    headers: { authorization: telecaller.token },
  });

const details = async (orderId: string) =>
  (
    await t.app.inject({
      url: `/api/admin/get-orders-details/${orderId}`,
      headers: { authorization: telecaller.token },
    })
  ).json().data;

describe('Resend', () => {
  it('queues the approval mail again, to the address typed in the box, through the provider chosen', async () => {
    const orderId = await insertOrder(t.database.db, { landing_site: 'canada-travel-auth' });
    await uploadFor(orderId);
    const res = await resend({ orderId, email: ' typed.again@customer.test ', mailServiceProvider: 'Sendgrid' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 1,
      message: 'The approval mail will be sent again to typed.again@customer.test.',
      data: { orderId, to: 'typed.again@customer.test', provider: 'Sendgrid', state: 'queued' },
    });

    await t.app.services.mail.deliverDue();
    const resent = standIn.delivered().find((m) => m.to.includes('typed.again@customer.test'));
    expect(resent).toMatchObject({
      provider: 'Sendgrid',
      from: 'Canada Travel Authorization <noreply@canada-travel-auth.example>',
      subject: `Your Canada eTA is approved - order ${orderId}`,
    });
    expect(resent?.text).toContain(
      `https://www.canada-travel-auth.example/track-order/${orderId}?site=canada-travel-auth`,
    );

    const data = await details(orderId);
    expect(data.mailHistory).toEqual([
      expect.objectContaining({ kind: 'resend', to: 'typed.again@customer.test', provider: 'Sendgrid', state: 'sent' }),
      expect.objectContaining({ kind: 'approval', to: 'first@customer.test', provider: 'AWS', state: 'sent' }),
    ]);
    expect(data.activity).toContainEqual(
      expect.objectContaining({ action: 'Approval mail resent', actor: 'Theo Telecaller' }),
    );
  });

  it('refuses an order without its approved document, a deleted or unknown order, and a missing or bad address', async () => {
    const noDocument = await insertOrder(t.database.db);
    const none = await resend({ orderId: noDocument, email: 'a@customer.test', mailServiceProvider: 'AWS' });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({
      code: 'NO_DOCUMENT',
      message: `Order ${noDocument} has no approved document yet: upload it first.`,
    });

    const deleted = await insertOrder(t.database.db);
    await uploadFor(deleted);
    await t.database.db
      .updateTable('orders')
      .set({ process_status: 'Deleted' })
      .where('order_id', '=', deleted)
      .execute();
    expect(
      (await resend({ orderId: deleted, email: 'a@customer.test', mailServiceProvider: 'AWS' })).json(),
    ).toMatchObject({ code: 'ORDER_DELETED' });

    const unknown = await resend({ orderId: 'ETA-999999997', email: 'a@customer.test', mailServiceProvider: 'AWS' });
    expect(unknown.statusCode).toBe(404);

    const missing = await resend({ orderId: noDocument, email: '', mailServiceProvider: 'AWS' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: UPLOAD_MESSAGES.emailRequired });
    const bad = await resend({
      orderId: noDocument,
      email: 'x@y.z\r\nBcc: all@example.com',
      mailServiceProvider: 'AWS',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: UPLOAD_MESSAGES.emailInvalid });
    const provider = await resend({ orderId: noDocument, email: 'a@customer.test', mailServiceProvider: 'Postmark' });
    expect(provider.json()).toMatchObject({ message: UPLOAD_MESSAGES.providerRequired });

    const mails = await t.database.db
      .selectFrom('mails')
      .innerJoin('orders', 'orders.id', 'mails.order_id')
      .select('mails.kind')
      .where('orders.order_id', 'in', [noDocument, deleted])
      .execute();
    expect(mails.map((m) => m.kind)).toEqual(['approval']);
  });
});

describe('View Email Content', () => {
  it('before any mail: the approval mail the order would get, with the WhatsApp link for its number', async () => {
    const orderId = await insertOrder(t.database.db, {
      email: 'preview@customer.test',
      passport_first_name: 'Chandra',
      passport_surname: 'Rao',
      telephone_number: '98765 43210',
      country_code: 'India',
    });
    const res = await view(orderId.toLowerCase());
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      orderId,
      kind: 'approval',
      state: 'preview',
      to: 'preview@customer.test',
      from: 'Canada eTA Online <noreply@canada-eta-online.example>',
      subject: `Your Canada eTA is approved - order ${orderId}`,
      attachments: [],
      whatsappLink: 'https://wa.me/919876543210',
    });
    expect(data.mailId).toBeUndefined();
    expect(data.provider).toBeUndefined();
    // Spec §2 "Customer approval-letter preview": greeting, order id, link, validity, contact, footer links.
    expect(data.html).toContain('Dear Chandra Rao,');
    expect(data.html).toContain(`href="https://www.canada-eta-online.example/track-order/${orderId}"`);
    expect(data.html).toContain('valid for up to five years');
    expect(data.html).toContain('support@canada-eta-online.example');
    expect(data.html).toContain('+1 800 555 0100');
    // The site's menu as footer links: its portal pages, made absolute, and the official page as it is.
    expect(data.html).toContain('href="https://www.canada-eta-online.example/track-order"');
    expect(data.html).toContain('href="https://www.canada-eta-online.example/faq"');
    expect(data.html).toContain('href="https://www.canada.ca/en/immigration-refugees-citizenship/');
    expect(data.text).toContain(`Order ID: ${orderId}`);
  });

  it('after the upload: exactly the mail that was queued, then sent, byte for byte what the provider received', async () => {
    const orderId = await insertOrder(t.database.db, { telephone_number: '07700 900123', country_code: '44' });
    await uploadFor(orderId, 'sent.view@customer.test');
    const queued = (await view(orderId)).json().data;
    expect(queued).toMatchObject({
      kind: 'approval',
      state: 'queued',
      provider: 'AWS',
      to: 'sent.view@customer.test',
      mailId: expect.any(Number),
      whatsappLink: 'https://wa.me/447700900123',
    });

    await t.app.services.mail.deliverDue();
    const sent = (await view(orderId)).json().data;
    expect(sent).toMatchObject({
      mailId: queued.mailId,
      state: 'sent',
      attempts: 1,
      provider_message_id: expect.any(String),
      sent_at: expect.any(String),
    });
    const arrived = standIn.delivered().find((m) => m.to.includes('sent.view@customer.test'));
    expect(arrived).toMatchObject({ subject: sent.subject, html: sent.html, text: sent.text, from: sent.from });

    // A named mail of the order, the resend here; a mail of another order is not found through this one.
    const resent = (await resend({ orderId, email: 'again@customer.test', mailServiceProvider: 'AWS' })).json().data;
    expect((await view(orderId, resent.mailId)).json().data).toMatchObject({
      kind: 'resend',
      to: 'again@customer.test',
    });
    // The audit names the mails by id; their addresses are in the mails rows only (which erasure blanks).
    expect(await auditRowsMentioning(t.database.db, 'again@customer.test')).toBe(0);
    expect(await auditRowsMentioning(t.database.db, 'sent.view@customer.test')).toBe(0);
    const other = await insertOrder(t.database.db);
    const foreign = await view(other, queued.mailId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(`Mail ${queued.mailId} of order ${other} was not found.`);
  });

  it('escapes what the customer typed; the text version keeps it as typed', async () => {
    const orderId = await insertOrder(t.database.db, {
      passport_first_name: '<img src=x onerror=alert(1)>',
      passport_surname: '"Bobby" & Tables',
    });
    const data = (await view(orderId)).json().data;
    expect(data.html).toContain('Dear &lt;img src=x onerror=alert(1)&gt; &quot;Bobby&quot; &amp; Tables,');
    expect(data.html).not.toContain('<img src=x');
    expect(data.text).toContain('Dear <img src=x onerror=alert(1)> "Bobby" & Tables,');
  });

  it('an unknown order is a 404; a number without any dialling code gets no WhatsApp link', async () => {
    expect((await view('ETA-999999996')).statusCode).toBe(404);
    const orderId = await insertOrder(t.database.db, {
      telephone_number: '5550100',
      country_code: 'Narnia',
      country: null,
      citizen_country: null,
    });
    const data = (await view(orderId)).json().data;
    expect(data.whatsappLink).toBeUndefined();
  });
});
