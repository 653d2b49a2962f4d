// The append-only trails keep no customer's e-mail address (issue 24, review of erasure): erasure blanks an order's
// addresses in orders and mails but cannot rewrite audit_log or access_records, so the audit names a mail by its id
// and a subject request names the person by a keyed hash of the address, never the address or its plain SHA-256.
// Migration 024 takes both out of the rows written before it, and the tables stay append-only.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as migration024 } from '../src/db/migrations/024-audit-without-addresses.js';
import { writeAudit } from '../src/modules/audit/audit.repository.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { accessRecordsMentioning, auditRowsMentioning } from './helpers/audit-mentions.js';
import { application, createIntakeKey, postIntake } from './helpers/intake.js';
import { standInMailConfig, startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';
import { givePortalHosts } from './helpers/orders.js';
import { appKeyring } from './helpers/personal-data.js';
import { INTAKE_TRAVELLER, approvalPdf, uploadRequest } from './helpers/uploads.js';

let standIn: MailStandIn;
let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  standIn = await startMailStandIn();
  t = await buildTestApp({ mail: standInMailConfig(standIn, ['AWS']), intakeRatePerSecond: 1000 });
  await givePortalHosts(t.database.db);
  admin = await t.signIn('Admin', 'Ada Admin');
});
afterAll(async () => {
  await t.close();
  await standIn.close();
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: { authorization: admin.token }, payload });

describe('the audit trail and the access records', () => {
  it('name no address of a customer, nor its plain SHA-256, after intake, upload, resend and an erasure request', async () => {
    const customer = 'Rosalind.Franklin@Customer.test';
    const edited = 'rosalind.upload@customer.test';
    const again = 'rosalind.resend@customer.test';

    const intake = await postIntake(t, await createIntakeKey(t), application({ email: customer }));
    expect(intake.statusCode, intake.body).toBe(201);
    const orderId = intake.json<{ data: { order_id: string } }>().data.order_id;
    const form = await uploadRequest(
      { orderId, email: edited, mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
      { name: 'approval.pdf', content: await approvalPdf(INTAKE_TRAVELLER), type: 'application/pdf' },
    );
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      headers: { ...form.headers, authorization: admin.token },
      payload: form.payload,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const resend = await post('/api/admin/resend-mail', { orderId, email: again, mailServiceProvider: 'AWS' });
    expect(resend.statusCode, resend.body).toBe(200);

    // The audit names each mail by what the mails row (blanked by erasure) can be found by, not by its address.
    const audit = await t.database.db
      .selectFrom('audit_log')
      .innerJoin('orders', 'orders.id', 'audit_log.order_id')
      .select(['audit_log.action', 'audit_log.after'])
      .where('orders.order_id', '=', orderId)
      .orderBy('audit_log.id')
      .execute();
    const mails = await t.database.db
      .selectFrom('mails')
      .innerJoin('orders', 'orders.id', 'mails.order_id')
      .select(['mails.id', 'mails.kind'])
      .where('orders.order_id', '=', orderId)
      .orderBy('mails.id')
      .execute();
    expect(mails.map((m) => m.kind)).toEqual(['confirmation', 'approval', 'resend']);
    expect(audit).toEqual([
      {
        action: 'order.intake',
        after: expect.objectContaining({ mail: { kind: 'confirmation', provider: 'AWS' } }),
      },
      {
        action: 'order.upload-document',
        after: expect.objectContaining({ mail: { id: mails[1]!.id, provider: 'AWS' } }),
      },
      // The box held another address than the order's (issue 35): the change names the mail, not the address.
      { action: 'order.document-email-changed', after: { mail: { id: mails[1]!.id } } },
      { action: 'mail.resend', after: { mailId: mails[2]!.id, provider: 'AWS' } },
    ]);
    for (const address of [customer, edited, again]) {
      expect(await auditRowsMentioning(t.database.db, address), address).toBe(0);
    }

    const exported = await post('/api/admin/subject-requests/export.json', { email: customer });
    expect(exported.statusCode).toBe(200);
    const erased = await post('/api/admin/subject-requests/erase', { email: customer, confirm: true });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json<{ data: { erased: string[] } }>().data.erased).toEqual([orderId]);
    await t.app.services.accessRecords.flush();

    // After the erasure a raw read of both trails finds none of the addresses, nor the plain hash of the one asked
    // about: the requests are named by the keyed hash, which only the key's holder can compute from an address.
    const normalized = customer.toLowerCase();
    for (const address of [customer, edited, again]) {
      expect(await auditRowsMentioning(t.database.db, address), address).toBe(0);
      expect(await accessRecordsMentioning(t.database.db, address), address).toBe(0);
      expect(await auditRowsMentioning(t.database.db, sha256(address.toLowerCase())), address).toBe(0);
      expect(await accessRecordsMentioning(t.database.db, sha256(address.toLowerCase())), address).toBe(0);
    }
    const keyed = `hmac:${(await appKeyring(t)).keyedHash(`email:${normalized}`).toString('hex')}`;
    const requests = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('action', 'like', 'subject.%')
      .orderBy('id')
      .execute();
    expect(requests).toEqual([
      { action: 'subject.access', target: keyed },
      { action: 'subject.erasure', target: keyed },
    ]);
    const erasure = await t.database.db
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'order.erase')
      .executeTakeFirstOrThrow();
    expect(erasure.after).toMatchObject({ cause: 'request', subject: keyed });
    expect(await accessRecordsMentioning(t.database.db, keyed)).toBe(1);
  });
});

describe('migration 024', () => {
  it('takes the addresses and plain hashes out of the rows written before it, and leaves the tables append-only', async () => {
    const db = t.database.db;
    const address = 'old.customer@customer.test';
    const plain = sha256(address);
    const actor = { id: admin.id, name: admin.name, ip: '127.0.0.1' };
    const { last } = await db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.coalesce(eb.fn.max('id'), eb.lit(0)).as('last'))
      .executeTakeFirstOrThrow();
    await writeAudit(db, actor, [
      {
        action: 'order.intake',
        target: 'ETA-000000001',
        after: { legal_version: 1, mail: { kind: 'confirmation', provider: 'AWS', to: address } },
      },
      {
        action: 'order.upload-document',
        target: 'ETA-000000001',
        before: { process_status: 'New', version: 1 },
        after: { process_status: 'Completed', version: 2, mail: { id: 41, to: address, provider: 'AWS' } },
      },
      { action: 'mail.resend', target: 'ETA-000000001', after: { mailId: 42, to: address, provider: 'Sendgrid' } },
      { action: 'subject.access', target: `sha256:${plain}`, after: { format: 'json', orders: ['ETA-000000001'] } },
      { action: 'subject.erasure', target: `sha256:${plain}`, after: { erasure: 'done', erased: [], skipped: [] } },
      { action: 'order.erase', target: 'ETA-000000001', after: { cause: 'request', emailSha256: plain, version: 3 } },
      // Not a customer's address: a staff member's, in a row of another action, is left as it was.
      { action: 'team.add', target: 'staff:1', after: { email: 'new.member@test.local', to: 'kept' } },
    ]);
    await db
      .insertInto('access_records')
      .values({
        at: new Date(),
        staff_id: admin.id,
        staff_name: admin.name,
        order_id: null,
        kind: 'export',
        detail: `Subject-access export (JSON) of sha256:${plain}`,
        ip: '127.0.0.1',
        user_agent: null,
        browser: 'Firefox 133',
        os: 'Linux',
        device: 'Desktop',
        device_type: 'desktop',
      })
      .execute();
    expect(await auditRowsMentioning(db, address)).toBe(3);
    expect(await auditRowsMentioning(db, plain)).toBe(3);

    await db.transaction().execute((trx) => migration024(trx as unknown as Kysely<unknown>));

    expect(await auditRowsMentioning(db, address)).toBe(0);
    expect(await auditRowsMentioning(db, plain)).toBe(0);
    expect(await accessRecordsMentioning(db, plain)).toBe(0);
    const rows = await db
      .selectFrom('audit_log')
      .select(['action', 'target', 'before', 'after'])
      .where('id', '>', Number(last))
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        action: 'order.intake',
        target: 'ETA-000000001',
        before: null,
        after: { legal_version: 1, mail: { kind: 'confirmation', provider: 'AWS' } },
      },
      {
        action: 'order.upload-document',
        target: 'ETA-000000001',
        before: { process_status: 'New', version: 1 },
        after: { process_status: 'Completed', version: 2, mail: { id: 41, provider: 'AWS' } },
      },
      { action: 'mail.resend', target: 'ETA-000000001', before: null, after: { mailId: 42, provider: 'Sendgrid' } },
      {
        action: 'subject.access',
        target: 'sha256:(removed)',
        before: null,
        after: { format: 'json', orders: ['ETA-000000001'] },
      },
      {
        action: 'subject.erasure',
        target: 'sha256:(removed)',
        before: null,
        after: { erasure: 'done', erased: [], skipped: [] },
      },
      { action: 'order.erase', target: 'ETA-000000001', before: null, after: { cause: 'request', version: 3 } },
      { action: 'team.add', target: 'staff:1', before: null, after: { email: 'new.member@test.local', to: 'kept' } },
    ]);
    const record = await db
      .selectFrom('access_records')
      .select('detail')
      .where('detail', 'like', 'Subject-access export (JSON) of sha256:%')
      .executeTakeFirstOrThrow();
    expect(record.detail).toBe('Subject-access export (JSON) of sha256:(removed)');

    // The triggers are back: neither table can be rewritten or emptied.
    await expect(sql`UPDATE audit_log SET target = 'x'`.execute(db)).rejects.toThrow(/audit_log is append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(db)).rejects.toThrow(/audit_log is append-only/);
    await expect(sql`UPDATE access_records SET detail = 'x'`.execute(db)).rejects.toThrow(
      /access_records is append-only/,
    );
  });
});
