// Order intake (issue 20): a landing site's form posts a paid application with its key; the order lands in its
// queue with its counts, its signature, its confirmation mail and its audit row, or nothing is stored at all.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, type FolderCounts, type OrderDetails } from '@eta/contracts';
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { buildTestApp, JWT_SECRET, type TestApp } from './helpers/test-app.js';
import { standInMailConfig, startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';
import { application, createIntakeKey, postIntake, today } from './helpers/intake.js';
import { auditRowsMentioning } from './helpers/audit-mentions.js';
import { samplePdf } from './helpers/pdf-files.js';
import { importApplications } from '../src/modules/intake/import-file.js';

let standIn: MailStandIn;
let t: TestApp;
let key: string;
let admin: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  standIn = await startMailStandIn();
  t = await buildTestApp({ mail: standInMailConfig(standIn, ['AWS']), intakeRatePerSecond: 1000 });
  key = await createIntakeKey(t);
  admin = await t.signIn('Admin', 'Intake Admin');
});
afterAll(async () => {
  await t.close();
  await standIn.close();
});

const counts = async (): Promise<Required<FolderCounts>> =>
  (await t.app.inject({ url: '/api/admin/get-folder-count', headers: { authorization: admin.token } })).json().data;

const orderCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function storedFiles(): Promise<number> {
  const root = path.join(t.config.dataDir, 'documents');
  const dirs = await readdir(root).catch(() => [] as string[]);
  let n = 0;
  for (const dir of dirs) n += (await readdir(path.join(root, dir))).length;
  return n;
}

const detail = async (orderId: string): Promise<OrderDetails> => {
  const res = await t.app.inject({
    url: `/api/admin/get-orders-details/${orderId}`,
    headers: { authorization: admin.token },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: OrderDetails }>().data;
};

describe('POST /api/intake/orders: a valid application', () => {
  it.each([
    ['Standard', {}, 'newOrdersCount', 'newOrder'],
    ['Priority', {}, 'priorityOrdersCount', 'priorityOrder'],
    ['Future', { processing_date: addDays(today(), 30) }, 'futureOrdersCount', 'futureOrder'],
  ] as const)('a %s order lands in its queue with the counts moved', async (type, extra, countKey, queue) => {
    const before = await counts();
    const res = await postIntake(t, key, application({ processing_type: type, ...extra }));
    expect(res.statusCode, res.body).toBe(201);
    const { order_id, tracking_url } = res.json<{ data: { order_id: string; tracking_url: string } }>().data;
    expect(order_id).toMatch(/^ETA-\d{9}$/);
    expect(tracking_url).toBe(`${t.config.publicUrl}/track-order/${order_id}`);
    const after = await counts();
    expect(after[countKey]).toBe(before[countKey] + 1);
    expect(after.allOrdersCount).toBe(before.allOrdersCount + 1);
    const list = await t.app.inject({
      url: `/api/admin/get-orders-list/${queue}?page=1&limit=100`,
      headers: { authorization: admin.token },
    });
    expect(list.json<{ data: { rows: { order_id: string }[] } }>().data.rows.map((r) => r.order_id)).toContain(
      order_id,
    );
  });

  it('shows every field on the detail page as the product stores it, with the signature and the confirmation mail', async () => {
    const body = application({
      country_on_passport: 'Spain',
      citizen_country: 'ESP',
      country_of_birth: 'es',
      passport_number: 'paa 123456',
      confirm_passport_number: 'PAA123456',
      country_code: '+34',
    });
    const res = await postIntake(t, key, body);
    expect(res.statusCode, res.body).toBe(201);
    const orderId = res.json<{ data: { order_id: string } }>().data.order_id;
    const d = await detail(orderId);
    expect(d).toMatchObject({
      order_id: orderId,
      email: body.email,
      landing_site: 'default',
      payment_status: 'Success',
      process_status: 'New',
      processing_type: 'Standard',
      amount_cents: 8900,
      currency: 'USD',
      transaction_id: 'pi_3QxExample0001',
      merchant_name: 'CANADA ETA ONLINE',
      country_on_passport: 'ESP',
      citizen_country: 'Spain',
      country_of_birth: 'Spain',
      passport_number: 'PAA123456',
      confirm_passport_number: 'PAA123456',
      passport_surname: 'García López',
      passport_first_name: 'María',
      country_code: '34',
      telephone_number: '612 345 678',
      occupation: 'Health occupations',
      job_city: 'Sevilla',
      travel_to_canada_year: addDays(today(), 60),
      travel_to_canada_hour: '14:30',
      have_you_ever_been_refused_a_visa_or_permit: false,
      ip_address: '83.45.120.17',
      customer_timezone: 'Europe/Madrid',
      legal_version: 1,
    });
    expect(d.customer_date).toBe(`${addDays(today(), -1)}T09:41:07.000Z`);
    // The signature is stored through the document store and shown to staff (never a public file).
    const signature = await t.app.inject({
      url: `/api/admin/order-signature/${orderId}`,
      headers: { authorization: admin.token },
    });
    expect(signature.statusCode).toBe(200);
    expect(signature.headers['content-type']).toBe('image/png');
    expect(signature.rawPayload.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    expect((await t.app.inject({ url: `/api/admin/order-signature/${orderId}` })).statusCode).toBe(401);
    // The confirmation mail is in Email History and goes out through the provider.
    expect(d.mailHistory).toEqual([expect.objectContaining({ kind: 'confirmation', to: body.email, state: 'queued' })]);
    await t.app.services.mail.deliverDue();
    const sent = standIn.delivered().find((m) => m.to.includes(body.email as string));
    expect(sent?.subject).toBe(`We have received your Canada eTA application - order ${orderId}`);
    expect(sent?.text).toContain(`${t.config.publicUrl}/track-order/${orderId}`);
    expect((await detail(orderId)).mailHistory[0]).toMatchObject({ state: 'sent' });
    // The intake is in the order's timeline, in words naming the landing site (issue 33: it read "Landing site
    // default order.intake").
    expect(d.activity).toEqual([{ at: expect.any(String), action: 'Order received from Canada eTA Online' }]);
    // ...which names the confirmation mail, not the customer's address (erasure cannot rewrite the audit).
    expect(await auditRowsMentioning(t.database.db, body.email as string)).toBe(0);
  });

  it('can be tracked on the portal with its order id and e-mail', async () => {
    const body = application();
    const orderId = (await postIntake(t, key, body)).json<{ data: { order_id: string } }>().data.order_id;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/front/track-order',
      payload: { orderId, email: String(body.email).toUpperCase() },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { orderId: string } }>().data.orderId).toBe(orderId);
  });

  it('keeps an unpaid order out of every queue', async () => {
    const before = await counts();
    const body = application({ payment: { ...(application().payment as object), status: 'Pending' } });
    const res = await postIntake(t, key, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(await counts()).toEqual(before);
  });

  it('gives order ids that do not follow one another', async () => {
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push((await postIntake(t, key, application())).json().data.order_id as string);
    const numbers = ids.map((id) => Number(id.slice(4)));
    expect(numbers.every((n, i) => i === 0 || Math.abs(n - numbers[i - 1]!) > 1)).toBe(true);
  });
});

describe('POST /api/intake/orders: refusals store nothing', () => {
  async function refused(body: unknown, status = 400) {
    const [orders, files] = [await orderCount(), await storedFiles()];
    const res = await postIntake(t, key, body);
    expect(res.statusCode, res.body).toBe(status);
    expect(await orderCount()).toBe(orders);
    expect(await storedFiles()).toBe(files);
    return res.json<{ code: string; errors: { field: string; message: string }[] }>();
  }
  const fieldsOf = (r: { errors: { field: string }[] }) => r.errors.map((e) => e.field);

  it('names every failing field at once, not only the first', async () => {
    const body = application({ email: 'not-an-address', gender: 'Robot', birth_month: 13 });
    delete body.passport_number;
    const r = await refused(body);
    expect(r.code).toBe('VALIDATION_FAILED');
    expect(fieldsOf(r).sort()).toEqual(['birth_month', 'email', 'gender', 'passport_number']);
    expect(r.errors.find((e) => e.field === 'gender')?.message).toMatch(/Female, Male, Another gender/);
  });

  it.each([
    ['a missing required field', 'passport_surname', { passport_surname: undefined }],
    ['an unknown field', 'pasport_number', { pasport_number: 'X1234567' }],
    ['an unknown country', 'citizen_country', { citizen_country: 'Atlantis' }],
    ['a choice off the list', 'marital_status', { marital_status: 'Complicated' }],
    ['a travel document off the list', 'travel_document', { travel_document: 'Library card' }],
    ['an occupation off the list', 'occupation', { occupation: 'Astronaut' }],
    ['a language off the list', 'preferred_language', { preferred_language: 'Klingon' }],
    ['passport numbers that differ', 'confirm_passport_number', { confirm_passport_number: 'PAA123457' }],
    ['UCI numbers that differ', 'confirm_uci_number', { uci_number: '12345678', confirm_uci_number: '12345679' }],
    ['a birth date that does not exist', 'birth_date', { birth_year: 1990, birth_month: 2, birth_date: 30 }],
    ['a birth date in the future', 'birth_date', { birth_year: Number(today().slice(0, 4)) + 1 }],
    [
      'a passport issued in the future',
      'passport_issue_date',
      { passport_issue_year: Number(today().slice(0, 4)) + 1 },
    ],
    [
      'an expired passport',
      'passport_exp_date',
      { passport_exp_year: Number(today().slice(0, 4)) - 1, passport_issue_year: Number(today().slice(0, 4)) - 11 },
    ],
    [
      'a passport expiring before the trip',
      'passport_exp_date',
      {
        travel_to_canada_year: addDays(today(), 400),
        passport_exp_year: Number(addDays(today(), 300).slice(0, 4)),
        passport_exp_month: Number(addDays(today(), 300).slice(5, 7)),
        passport_exp_date: 1,
      },
    ],
    ['a year out of range', 'birth_year', { birth_year: 1850 }],
    [
      'a refused visa without the country',
      'country_that_refused_you_a_visa_or_permit',
      { have_you_ever_been_refused_a_visa_or_permit: true },
    ],
    [
      'an arrest without where',
      'please_indicate_where_committed_been_arrested',
      { have_you_ever_committed_been_arrested: true },
    ],
    ['a US resident without the USCIS number', 'uscis_number', { lawful_permanent_resident_of_us: true }],
    [
      'USCIS numbers that differ',
      'confirm_uscis_number',
      {
        lawful_permanent_resident_of_us: true,
        uscis_number: '123456789',
        confirm_uscis_number: '123456780',
        uscis_exp_year: Number(today().slice(0, 4)) + 2,
      },
    ],
    [
      'a Taiwan passport without the id number',
      'taiwan_personal_identification_number',
      { country_on_passport: 'TWN' },
    ],
    [
      'Taiwan ids that differ',
      'confirm_taiwan_personal_identification_number',
      {
        country_on_passport: 'TWN',
        taiwan_personal_identification_number: 'A123456789',
        confirm_taiwan_personal_identification_number: 'A123456780',
      },
    ],
    ['someone else applying without their details', 'representative_is', { applying_for_someone: true }],
    ['an employed applicant without an employer', 'employer_or_school_name', { employer_or_school_name: undefined }],
    ['a known travel date left out', 'travel_to_canada_year', { travel_to_canada_year: undefined }],
    ['a Future order without a processing date', 'processing_date', { processing_type: 'Future' }],
    [
      'a Future order more than a year ahead',
      'processing_date',
      { processing_type: 'Future', processing_date: addDays(today(), 400) },
    ],
    ['a processing date on a Standard order', 'processing_date', { processing_date: addDays(today(), 3) }],
    ['text over its length', 'city', { city: 'x'.repeat(101) }],
    [
      'a currency that is not ISO 4217',
      'payment.currency',
      { payment: { ...(application().payment as object), currency: 'XYZ' } },
    ],
    [
      'a gateway that does not exist',
      'payment.gateway',
      { payment: { ...(application().payment as object), gateway: 'Bitcoin' } },
    ],
    [
      'a paid order without its transaction id',
      'payment.transaction_id',
      { payment: { ...(application().payment as object), transaction_id: undefined } },
    ],
    [
      'a time zone that is not IANA',
      'consent.customer_timezone',
      { consent: { ...(application().consent as object), customer_timezone: 'Mars/Olympus' } },
    ],
    [
      'an IP address that is not one',
      'consent.ip_address',
      { consent: { ...(application().consent as object), ip_address: '300.1.2.3' } },
    ],
    [
      'a legal version the site does not have',
      'consent.legal_version',
      { consent: { ...(application().consent as object), legal_version: 99 } },
    ],
    ['a missing consent', 'consent', { consent: undefined }],
  ])('refuses %s, naming %s', async (_what, field, overrides) => {
    const r = await refused(application(overrides));
    expect(r.code).toBe('VALIDATION_FAILED');
    expect(fieldsOf(r)).toContain(field);
  });

  it('refuses a signature that is not an image, judged by its content', async () => {
    const pdf = await samplePdf(1, 'not a signature');
    const r = await refused(application({ signature: `data:image/png;base64,${pdf.toString('base64')}` }));
    expect(r.errors).toEqual([
      { field: 'signature', message: 'The signature is a PDF file: please send a PNG or JPEG image.' },
    ]);
    const big = await refused(
      application({ signature: `data:image/png;base64,${Buffer.alloc(210 * 1024).toString('base64')}` }),
    );
    expect(fieldsOf(big)).toEqual(['signature']);
  });

  it('refuses a body over 1 MB with 413', async () => {
    const r = await refused(application({ additional_details: 'x'.repeat(1024 * 1024) }), 413);
    expect(r.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('requires an Idempotency-Key', async () => {
    const res = await postIntake(t, key, application(), null);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
  });
});

describe('POST /api/intake/orders: keys', () => {
  it('refuses a missing, malformed or wrong key with 401 and stores nothing', async () => {
    const orders = await orderCount();
    const wrong = `${key.slice(0, -4)}AAAA`;
    for (const k of [null, 'not-a-key', wrong, `etak_0000000000000000_${'A'.repeat(43)}`]) {
      const res = await postIntake(t, k, application(), undefined, '198.51.100.77');
      expect(res.statusCode, String(k)).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
    // A staff token is no intake key.
    const staffToken = (await t.signIn('Admin')).token;
    const asStaff = await t.app.inject({
      method: 'POST',
      url: '/api/intake/orders',
      headers: { authorization: staffToken, 'idempotency-key': 'k1' },
      payload: application(),
    });
    expect(asStaff.statusCode).toBe(401);
    expect(await orderCount()).toBe(orders);
  });

  it('a rotated key stops at once; with a grace period it works until then', async () => {
    const first = await createIntakeKey(t, 'eta-express');
    expect((await postIntake(t, first, application())).statusCode).toBe(201);
    const second = await createIntakeKey(t, 'eta-express', 60);
    expect((await postIntake(t, first, application())).statusCode).toBe(201);
    expect((await postIntake(t, second, application())).statusCode).toBe(201);
    const third = await createIntakeKey(t, 'eta-express');
    expect((await postIntake(t, first, application())).statusCode).toBe(401);
    expect((await postIntake(t, second, application())).statusCode).toBe(401);
    expect((await postIntake(t, third, application())).statusCode).toBe(201);
  });

  it('a key places orders for its own site only; naming another site is 403', async () => {
    const express = await createIntakeKey(t, 'eta-express');
    const res = await postIntake(t, express, application({ landing_site: 'default' }));
    expect(res.statusCode).toBe(403);
    const own = await postIntake(t, express, application({ landing_site: 'eta-express' }));
    expect(own.statusCode).toBe(201);
    const d = await detail(own.json().data.order_id);
    expect(d.landing_site).toBe('eta-express');
    expect(own.json().data.tracking_url).toMatch(/\?site=eta-express$/);
  });

  it('no call returns a stored key or its hash; the Landing Sites page counts each key’s orders', async () => {
    const res = await t.app.inject({ url: '/api/admin/landing-sites', headers: { authorization: admin.token } });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(key);
    // The secret is everything after etak_<id>_ (it may hold '_' itself, so not split('_')[2]).
    expect(res.body).not.toContain(key.slice('etak_'.length + 17));
    const site = res
      .json<{ data: { key: string; intakeKeys: { id: string; orders: number }[] }[] }>()
      .data.find((s) => s.key === 'default')!;
    const brought = await t.database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('intake_key_id', '=', key.split('_')[1]!)
      .executeTakeFirstOrThrow();
    expect(Number(brought.n)).toBeGreaterThan(3);
    expect(site.intakeKeys).toEqual([expect.objectContaining({ id: key.split('_')[1], orders: Number(brought.n) })]);
  });
});

describe('POST /api/intake/orders: the key and its limits', () => {
  it('a key is 32 random bytes, stored only as its SHA-256, and never written to the log', async () => {
    const lines: string[] = [];
    const logged = await buildApp({
      config: t.config,
      database: t.database,
      jwtSecret: JWT_SECRET,
      logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
    });
    await logged.ready();
    try {
      // The secret is base64url and may hold '_' itself.
      const [, id, secret] = /^etak_([0-9a-f]{16})_(.+)$/.exec(key) as unknown as [string, string, string];
      expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
      const row = await t.database.db
        .selectFrom('intake_keys')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(Buffer.from(row.secret_sha256).equals(createHash('sha256').update(secret).digest())).toBe(true);
      expect(JSON.stringify(row)).not.toContain(secret);
      const post = (k: string) =>
        logged.inject({
          method: 'POST',
          url: '/api/intake/orders',
          headers: { authorization: `Bearer ${k}`, 'idempotency-key': `log-${k.slice(-6)}` },
          payload: application(),
        });
      expect((await post(key)).statusCode).toBe(201);
      expect((await post(`${key.slice(0, -4)}AAAA`)).statusCode).toBe(401);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).not.toContain(secret);
      expect(lines.join('\n')).not.toContain(secret.slice(0, -4));
    } finally {
      await logged.close();
    }
  });

  it('past its rate a key gets 429 with Retry-After, and that request stores nothing', async () => {
    const limited = await buildApp({
      config: { ...t.config, intakeRatePerSecond: 2 },
      database: t.database,
      jwtSecret: JWT_SECRET,
      logger: false,
    });
    await limited.ready();
    try {
      // On PostgreSQL the rate holds across every process on the database: the earlier tests' orders through the
      // other app count within their second, so the burst starts in a second of its own.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const before = await orderCount();
      const answers = await Promise.all(
        [1, 2, 3].map((n) =>
          limited.inject({
            method: 'POST',
            url: '/api/intake/orders',
            headers: { authorization: `Bearer ${key}`, 'idempotency-key': `rate-${n}-${Date.now()}` },
            payload: application(),
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 429]);
      const refused = answers.find((a) => a.statusCode === 429)!;
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json().code).toBe('TOO_MANY_ATTEMPTS');
      expect(await orderCount()).toBe(before + 2);
    } finally {
      await limited.close();
    }
  });

  it('past its wrong keys an address gets 429 for every request, a right key too; other addresses are not held', async () => {
    const guarded = await buildApp({
      config: { ...t.config, intakeFailuresPerIp: 3 },
      database: t.database,
      jwtSecret: JWT_SECRET,
      logger: false,
    });
    await guarded.ready();
    try {
      // On PostgreSQL the count is shared by every process: an address of this test's own.
      const address = `198.51.100.${10 + Math.floor(Math.random() * 200)}`;
      const post = (k: string, from = address) =>
        guarded.inject({
          method: 'POST',
          url: '/api/intake/orders',
          headers: { authorization: `Bearer ${k}`, 'idempotency-key': randomUUID() },
          payload: application(),
          remoteAddress: from,
        });
      const wrong = `${key.slice(0, -4)}AAAA`;
      const orders = await orderCount();
      expect((await post(key)).statusCode).toBe(201);
      for (let i = 0; i < 3; i += 1) expect((await post(wrong)).statusCode).toBe(401);
      for (const k of [wrong, key]) {
        const refused = await post(k);
        expect(refused.statusCode, k === key ? 'the right key' : 'a wrong key').toBe(429);
        expect(refused.json().code).toBe('TOO_MANY_ATTEMPTS');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
      }
      expect(await orderCount()).toBe(orders + 1);
      expect((await post(key, '203.0.113.99')).statusCode).toBe(201);
    } finally {
      await guarded.close();
    }
  });

  it('keeps idempotency keys at least 24 hours, then forgets them', async () => {
    const recent = await postIntake(t, key, application(), 'kept-23-hours');
    const old = await postIntake(t, key, application(), 'dropped-73-hours');
    expect([recent.statusCode, old.statusCode]).toEqual([201, 201]);
    await sql`UPDATE intake_requests SET created_at = now() - CASE idempotency_key
        WHEN 'kept-23-hours' THEN interval '23 hours' ELSE interval '73 hours' END
      WHERE idempotency_key IN ('kept-23-hours', 'dropped-73-hours')`.execute(t.database.db);
    expect(await t.app.services.intake.purgeIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    const left = await t.database.db
      .selectFrom('intake_requests')
      .select('idempotency_key')
      .where('idempotency_key', 'in', ['kept-23-hours', 'dropped-73-hours'])
      .execute();
    expect(left.map((r) => r.idempotency_key)).toEqual(['kept-23-hours']);
  });

  it('is documented at /api/docs with a complete example body that is accepted as it stands', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const post = res.json().paths['/api/intake/orders'].post;
    const example = post.requestBody.content['application/json'].example;
    expect(Object.keys(example)).toEqual(expect.arrayContaining(['email', 'payment', 'consent', 'signature']));
    const placed = await postIntake(t, key, example);
    expect(placed.statusCode, placed.body).toBe(201);
  });
});

describe('POST /api/intake/orders: idempotency', () => {
  it('the same key and body answer the same order, store nothing new and mail once', async () => {
    const body = application();
    const first = await postIntake(t, key, body, 'same-key-1');
    expect(first.statusCode).toBe(201);
    const [orders, files, mails] = [
      await orderCount(),
      await storedFiles(),
      await t.database.db.selectFrom('mails').select('id').execute(),
    ];
    const again = await postIntake(t, key, { ...body }, 'same-key-1');
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    expect(await orderCount()).toBe(orders);
    expect(await storedFiles()).toBe(files);
    expect(await t.database.db.selectFrom('mails').select('id').execute()).toHaveLength(mails.length);
  });

  it('the same key with another body is a 409', async () => {
    await postIntake(t, key, application(), 'same-key-2');
    const res = await postIntake(t, key, application(), 'same-key-2');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('two identical requests racing make one order', async () => {
    const body = application();
    const orders = await orderCount();
    const answers = await Promise.all([1, 2, 3].map(() => postIntake(t, key, body, 'racing-key')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().data.order_id)).size).toBe(1);
    expect(await orderCount()).toBe(orders + 1);
  });
});

describe('npm run intake:import (the service it runs)', () => {
  it('imports a file through the same checks, writes refused lines with their reasons, and is safe to run twice', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'eta-import-'));
    try {
      const file = path.join(dir, 'applications.jsonl');
      const errorsFile = path.join(dir, 'refused.jsonl');
      const good = [application(), application({ processing_type: 'Priority' }), application()];
      const lines = [
        JSON.stringify(good[0]),
        JSON.stringify(application({ passport_number: '?' })),
        '',
        JSON.stringify(good[1]),
        '{ not json',
        JSON.stringify(good[2]),
      ];
      await writeFile(file, `${lines.join('\n')}\n`);
      const orders = await orderCount();
      const progress: number[] = [];
      const first = await importApplications(t.app.services.intake, {
        file,
        site: 'eta-express',
        errorsFile,
        progressEvery: 2,
        onProgress: (p) => progress.push(p.lines),
      });
      expect(first).toEqual({ lines: 6, created: 3, existing: 0, refused: 2 });
      expect(progress).toEqual([2, 4, 6, 6]);
      expect(await orderCount()).toBe(orders + 3);
      const refused = (await readFile(errorsFile, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(refused).toEqual([
        expect.objectContaining({
          line: 2,
          code: 'VALIDATION_FAILED',
          errors: [expect.objectContaining({ field: 'passport_number' })],
        }),
        expect.objectContaining({ line: 5, code: 'VALIDATION_FAILED', message: expect.stringMatching(/not JSON/) }),
      ]);
      const imported = await t.database.db
        .selectFrom('orders')
        .select(['landing_site', 'intake_key_id'])
        .where(
          'email',
          'in',
          good.map((g) => g.email as string),
        )
        .execute();
      expect(imported).toEqual(Array(3).fill({ landing_site: 'eta-express', intake_key_id: null }));

      const again = await importApplications(t.app.services.intake, { file, site: 'eta-express', errorsFile });
      expect(again).toEqual({ lines: 6, created: 0, existing: 3, refused: 2 });
      expect(await orderCount()).toBe(orders + 3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
