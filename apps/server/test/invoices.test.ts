// Send Invoice (spec §2, §5, §7, §8): a paid order's invoice as a PDF, numbered without gaps, stored, and
// mailed through the outbox with the PDF attached — read back from the store, from the order's Email
// History and from what the mail provider (a loopback stand-in of SendGrid's API) received.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { NO_PROVIDER_ERROR } from '@eta/contracts';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { pdfPages } from './helpers/pdf-files.js';
import { standInMailConfig, startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';

let standIn: MailStandIn;
let t: TestApp;
let store: LocalDocumentStore;
let manager: Awaited<ReturnType<TestApp['signIn']>>;
const year = new Date().getUTCFullYear();

beforeAll(async () => {
  standIn = await startMailStandIn();
  // Only SendGrid is configured here, so it is the provider invoices go out with.
  t = await buildTestApp({ mail: standInMailConfig(standIn, ['Sendgrid']) });
  store = new LocalDocumentStore(path.join(t.config.dataDir, 'documents'));
  manager = await t.signIn('Manager', 'Margaret Hamilton');
});
afterAll(async () => {
  await t.close();
  await standIn.close();
});

const sendInvoice = (payload: object, app: TestApp = t, token = manager.token) =>
  app.app.inject({ method: 'POST', url: '/api/admin/send-invoice', headers: { authorization: token }, payload });

const paidOrder = (overrides: Parameters<typeof insertOrder>[1] = {}) =>
  insertOrder(t.database.db, {
    process_status: 'Completed',
    passport_first_name: 'Zofia',
    passport_surname: 'Wiśniewska',
    amount_cents: 9900,
    currency: 'USD',
    transaction_id: 'pi_3QkZ9x2eZvKYlo2C0invoice',
    street_name: 'ul. Długa 12',
    city: 'Gdańsk',
    res_zip_code: '80-831',
    country: 'Poland',
    landing_site: 'eta-express',
    ...overrides,
  });

const invoicesOf = (orderId: string) =>
  t.database.db
    .selectFrom('invoices')
    .innerJoin('orders', 'orders.id', 'invoices.order_id')
    .select(['invoices.invoice_number', 'invoices.storage_key', 'invoices.amount_cents', 'invoices.currency'])
    .where('orders.order_id', '=', orderId)
    .execute();

const invoiceMailsOf = (orderId: string) =>
  t.database.db
    .selectFrom('mails')
    .innerJoin('orders', 'orders.id', 'mails.order_id')
    .select(['mails.id', 'mails.kind', 'mails.to_address', 'mails.provider', 'mails.subject', 'mails.attachments'])
    .where('orders.order_id', '=', orderId)
    .where('mails.kind', '=', 'invoice')
    .orderBy('mails.id')
    .execute();

async function storedFiles(): Promise<number> {
  const root = path.join(t.config.dataDir, 'documents');
  const dirs = await readdir(root).catch(() => [] as string[]);
  let n = 0;
  for (const dir of dirs) n += (await readdir(path.join(root, dir))).length;
  return n;
}

describe('send-invoice', () => {
  let first: string;
  let second: string;

  it('numbers invoices one after another, and mails each order’s own invoice again when asked twice', async () => {
    first = await paidOrder();
    second = await paidOrder({ amount_cents: 12900, currency: 'CAD' });
    const a = await sendInvoice({ orderId: first });
    const b = await sendInvoice({ orderId: ` ${second.toLowerCase()} ` });
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    const email = `${first.toLowerCase()}@mail.test`;
    expect(a.json()).toMatchObject({
      status: 1,
      message: `Invoice INV-${year}-000001 is being sent to ${email}.`,
      data: { orderId: first, invoiceNumber: `INV-${year}-000001`, to: email, provider: 'Sendgrid', resent: false },
    });
    expect(b.json().data).toMatchObject({ orderId: second, invoiceNumber: `INV-${year}-000002`, resent: false });

    const again = await sendInvoice({ orderId: first });
    expect(again.json()).toMatchObject({
      status: 1,
      message: `Invoice INV-${year}-000001 is being sent again to ${email}.`,
      data: { invoiceNumber: `INV-${year}-000001`, resent: true },
    });
    expect(await invoicesOf(first)).toHaveLength(1);
    expect(await invoiceMailsOf(first)).toHaveLength(2);
  });

  it('prints seller, number, date, customer, service, amount, currency, payment reference and order id', async () => {
    const [invoice] = await invoicesOf(second);
    const pages = await pdfPages(await store.read(invoice!.storage_key));
    expect(pages).toHaveLength(1);
    const text = pages[0]!;
    // Seller: the order's landing site, with its contact details.
    expect(text).toContain('eTA Express Canada');
    expect(text).toContain('help@eta-express.example');
    expect(text).toContain('+1 800 555 0111');
    expect(text).toContain(`INV-${year}-000002`);
    expect(text).toContain(`Invoice date ${new Date().toISOString().slice(0, 10)}`);
    expect(text).toContain('Zofia Wiśniewska');
    expect(text).toContain('ul. Długa 12');
    expect(text).toContain('Gdańsk, 80-831');
    expect(text).toContain('Canada eTA (Electronic Travel Authorization) application service');
    expect(text).toContain('129.00 CAD');
    expect(text).toContain('pi_3QkZ9x2eZvKYlo2C0invoice');
    expect(text).toContain(`Order id ${second}`);
    expect(text).toContain('Page 1 of 1');
  });

  it('queues the invoice mail with its PDF attached; it shows in Email History and reaches the provider', async () => {
    const [invoice] = await invoicesOf(second);
    const [mail] = await invoiceMailsOf(second);
    expect(mail).toMatchObject({
      kind: 'invoice',
      provider: 'Sendgrid',
      to_address: `${second.toLowerCase()}@mail.test`,
      subject: `Invoice INV-${year}-000002 for order ${second}`,
      attachments: [
        { filename: `INV-${year}-000002.pdf`, contentType: 'application/pdf', storageKey: invoice!.storage_key },
      ],
    });
    expect(await store.exists(invoice!.storage_key)).toBe(true);

    const details = await t.app.inject({
      url: `/api/admin/get-orders-details/${second}`,
      headers: { authorization: manager.token },
    });
    const { mailHistory, activity } = details.json().data;
    expect(mailHistory).toEqual([
      expect.objectContaining({ kind: 'invoice', subject: `Invoice INV-${year}-000002 for order ${second}` }),
    ]);
    expect(activity).toEqual([expect.objectContaining({ action: 'Invoice sent', actor: 'Margaret Hamilton' })]);

    await t.app.services.mail.deliverDue();
    const arrived = standIn.delivered().find((m) => m.subject === `Invoice INV-${year}-000002 for order ${second}`);
    expect(arrived).toMatchObject({
      provider: 'Sendgrid',
      to: [`${second.toLowerCase()}@mail.test`],
      from: 'eTA Express <noreply@eta-express.example>',
    });
    expect(arrived?.text).toContain('129.00 CAD');
    expect(arrived?.attachments).toHaveLength(1);
    expect(arrived?.attachments[0]).toMatchObject({
      filename: `INV-${year}-000002.pdf`,
      contentType: 'application/pdf',
    });
    expect(arrived?.attachments[0]?.content).toEqual(await store.read(invoice!.storage_key));
  });

  it('refuses a missing or short order id with the spec’s messages', async () => {
    const cases: [object, string][] = [
      [{}, 'Please enter your order id.'],
      [{ orderId: '' }, 'Please enter your order id.'],
      [{ orderId: '        ' }, 'Please enter your order id.'],
      [{ orderId: 'ETA-1' }, 'Order Id must be at least 6 characters.'],
    ];
    for (const [payload, message] of cases) {
      const res = await sendInvoice(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({
        status: 0,
        code: 'VALIDATION_FAILED',
        message,
        errors: { orderId: message },
      });
    }
  });

  it('answers 404 for an unknown order and 409 for an unpaid one, issuing nothing', async () => {
    const files = await storedFiles();
    const unknown = await sendInvoice({ orderId: 'ETA-999999999' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ORDER_NOT_FOUND', message: 'Order ETA-999999999 was not found.' });
    const unpaid = await paidOrder({ payment_status: 'Pending', process_status: 'New' });
    const res = await sendInvoice({ orderId: unpaid });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'NOT_PAID',
      message: `Order ${unpaid} is not paid, so it has no invoice.`,
    });
    expect(await invoicesOf(unpaid)).toEqual([]);
    expect(await invoiceMailsOf(unpaid)).toEqual([]);
    expect(await storedFiles()).toBe(files);
  });

  it('a failure after the PDF is stored leaves no file, no invoice and no gap in the numbers', async () => {
    const doomed = await paidOrder({ email: 'doomed@mail.test' });
    // The outbox refuses this one mail, after the invoice's PDF has been stored and its row written.
    await sql`
      CREATE FUNCTION refuse_doomed_mail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.to_address = 'doomed@mail.test' THEN RAISE EXCEPTION 'outbox unavailable'; END IF;
        RETURN NEW;
      END $$`.execute(t.database.db);
    await sql`CREATE TRIGGER refuse_doomed_mail BEFORE INSERT ON mails
      FOR EACH ROW EXECUTE FUNCTION refuse_doomed_mail()`.execute(t.database.db);
    const files = await storedFiles();
    const res = await sendInvoice({ orderId: doomed });
    expect(res.statusCode).toBe(500);
    expect(await storedFiles()).toBe(files);
    expect(await invoicesOf(doomed)).toEqual([]);

    const next = await sendInvoice({ orderId: await paidOrder() });
    expect(next.json().data.invoiceNumber).toBe(`INV-${year}-000003`);
  });
});

describe('with no mail provider configured', () => {
  it('issues the invoice and keeps its mail in Email History as not sent, saying so', async () => {
    const bare = await buildTestApp();
    try {
      const admin = await bare.signIn('Admin');
      const orderId = await insertOrder(bare.database.db, { process_status: 'Completed' });
      const res = await sendInvoice({ orderId }, bare, admin.token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 1,
        message: `Invoice INV-${year}-000001 is ready, but no mail provider is configured: the mail to ${orderId.toLowerCase()}@mail.test is kept in Email History as not sent.`,
        data: { provider: 'AWS' },
      });
      const details = await bare.app.inject({
        url: `/api/admin/get-orders-details/${orderId}`,
        headers: { authorization: admin.token },
      });
      expect(details.json().data.mailHistory).toEqual([
        expect.objectContaining({ kind: 'invoice', state: 'failed', last_error: NO_PROVIDER_ERROR }),
      ]);
    } finally {
      await bare.close();
    }
  });
});
