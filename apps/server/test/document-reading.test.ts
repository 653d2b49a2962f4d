// The right document to the right traveller (issue 35): the approval is read before it is sent — a text PDF by its
// own text, a scanned PNG and a scan saved as a PDF by OCR (tesseract.js, in the worker pool) — and must name the
// order's passport number and surname. Another traveller's approval is refused with what it names, storing and
// mailing nothing; an unreadable one says so, and goes only with a member's reason, audited with what was read. The
// approval's own facts are kept and shown. A mail to another address than the order's asks for confirmation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACK_PROOF_HEADER, type DocumentRefusal } from '@eta/contracts';
import { pdfPages } from './helpers/pdf-files.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import {
  BLANK_PDF,
  STRANGER,
  TRAVELLER,
  approvalPdf,
  approvalPng,
  scannedApprovalPdf,
  uploadRequest,
  type UploadFile,
} from './helpers/uploads.js';

let t: TestApp;
let team: Awaited<ReturnType<TestApp['signIn']>>;

beforeAll(async () => {
  t = await buildTestApp();
  team = await t.signIn('Team', 'Rita Reader');
});
afterAll(() => t.close());

const box = (orderId: string) => `${orderId.toLowerCase()}@mail.test`;

async function upload(orderId: string, file: UploadFile, extra: Record<string, string> = {}) {
  const form = await uploadRequest({ orderId, email: box(orderId), mailServiceProvider: 'AWS', ...extra }, file);
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    headers: { ...form.headers, authorization: team.token },
    payload: form.payload,
  });
}

async function rowsOf(orderId: string) {
  const order = await t.database.db
    .selectFrom('orders')
    .select(['id', 'process_status'])
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  const documents = await t.database.db.selectFrom('documents').selectAll().where('order_id', '=', order.id).execute();
  const mails = await t.database.db.selectFrom('mails').selectAll().where('order_id', '=', order.id).execute();
  const audit = await t.database.db
    .selectFrom('audit_log')
    .select(['action', 'after'])
    .where('order_id', '=', order.id)
    .execute();
  return { order, documents, mails, audit };
}

const kinds = async () => [
  { kind: 'a text PDF', right: { name: 'eta.pdf', content: await approvalPdf() }, wrong: await approvalPdf(STRANGER) },
  { kind: 'a scanned PNG', right: { name: 'scan.png', content: approvalPng() }, wrong: approvalPng(STRANGER) },
  {
    kind: 'a scan saved as a PDF',
    right: { name: 'scan.pdf', content: await scannedApprovalPdf() },
    wrong: await scannedApprovalPdf(STRANGER),
  },
];

describe('the approval is read before it is sent', () => {
  it("accepts the right traveller's approval in each form, and keeps the application number and dates it states", async () => {
    for (const { kind, right } of await kinds()) {
      const orderId = await insertOrder(t.database.db);
      const res = await upload(orderId, right);
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(200);
      expect(res.json().data.reading, kind).toMatchObject({
        method: kind === 'a text PDF' ? 'text' : 'ocr',
        matched: true,
        facts: { applicationNumber: 'V301234567', approvedOn: '2026-11-20', expiresOn: '2031-11-19' },
      });
      const { order, documents, mails } = await rowsOf(orderId);
      expect(order.process_status, kind).toBe('Completed');
      expect(documents[0], kind).toMatchObject({ application_number: 'V301234567' });
      expect(String(documents[0]!.expires_on), kind).toContain('2031');
      expect(mails, kind).toHaveLength(1);
    }
  });

  it("refuses another traveller's approval in each form with what it names, storing and mailing nothing", async () => {
    for (const { kind, wrong } of await kinds()) {
      const orderId = await insertOrder(t.database.db);
      const res = await upload(orderId, { name: 'approval', content: wrong });
      expect(res.statusCode, kind).toBe(422);
      const body = res.json<{ code: string; message: string; data: DocumentRefusal }>();
      expect(body.code, kind).toBe('DOCUMENT_MISMATCH');
      expect(body.message, kind).toContain('names WHITFIELD / K48213571; this order is LOVELACE / LV1234567');
      expect(body.data.reading, kind).toMatchObject({ readable: true, matched: false, passportFound: false });
      const { order, documents, mails } = await rowsOf(orderId);
      expect(order.process_status, kind).toBe('New');
      expect(documents, kind).toEqual([]);
      expect(mails, kind).toEqual([]);
    }
  });

  it('refuses the same surname with another passport number (two travellers of one family)', async () => {
    const orderId = await insertOrder(t.database.db);
    const sibling = await approvalPdf({ ...TRAVELLER, givenNames: 'Byron', passportNumber: 'LV7654321' });
    const res = await upload(orderId, { name: 'eta.pdf', content: sibling });
    expect(res.statusCode).toBe(422);
    expect(res.json().data.reading).toMatchObject({ surnameFound: true, passportFound: false });
  });

  it('says an unreadable document cannot be read; with a reason it is sent, and the reason is on the order', async () => {
    const orderId = await insertOrder(t.database.db);
    const refused = await upload(orderId, { name: 'blank.pdf', content: BLANK_PDF });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'DOCUMENT_NOT_READ', data: { reading: { readable: false } } });
    expect(refused.json().message).toContain('could not read this document');
    expect((await rowsOf(orderId)).documents).toEqual([]);

    const tooShort = await upload(orderId, { name: 'blank.pdf', content: BLANK_PDF }, { sendAnywayReason: 'ok' });
    expect(tooShort.statusCode).toBe(400);

    const reason = 'IRCC sent it as a photo; I compared the passport number by eye.';
    const sent = await upload(orderId, { name: 'blank.pdf', content: BLANK_PDF }, { sendAnywayReason: reason });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.reading).toMatchObject({ readable: false, matched: false, sentAnyway: reason });
    const { audit, mails } = await rowsOf(orderId);
    expect(mails).toHaveLength(1);
    expect(audit.find((a) => a.action === 'order.document-sent-unmatched')?.after).toMatchObject({
      reason,
      readable: false,
    });
  });

  it('a mismatch sent anyway is audited with the summary of what the document says', async () => {
    const orderId = await insertOrder(t.database.db);
    const reason = 'The customer changed passports; IRCC approved the new one.';
    const sent = await upload(
      orderId,
      { name: 'eta.pdf', content: await approvalPdf(STRANGER) },
      { sendAnywayReason: reason },
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const row = (await rowsOf(orderId)).audit.find((a) => a.action === 'order.document-sent-unmatched');
    expect(row?.after).toMatchObject({ reason, named: { surname: 'WHITFIELD', passportNumber: 'K48213571' } });
    expect((row?.after as { summary: string }).summary).toContain('Electronic Travel Authorization');
  });

  it("asks before mailing another address than the order's, and puts the change on the order's activity", async () => {
    const orderId = await insertOrder(t.database.db);
    const form = async (confirm: boolean) => {
      const body = await uploadRequest(
        {
          orderId,
          email: 'someone.else@elsewhere.test',
          mailServiceProvider: 'AWS',
          ...(confirm ? { confirmEmailChange: 'true' } : {}),
        },
        { name: 'eta.pdf', content: await approvalPdf() },
      );
      return t.app.inject({
        method: 'POST',
        url: '/api/admin/upload-visa-document',
        headers: { ...body.headers, authorization: team.token },
        payload: body.payload,
      });
    };
    const asked = await form(false);
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({
      code: 'EMAIL_CHANGE_UNCONFIRMED',
      data: { orderEmail: box(orderId), email: 'someone.else@elsewhere.test' },
    });
    expect((await rowsOf(orderId)).mails).toEqual([]);
    const confirmed = await form(true);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { audit, mails } = await rowsOf(orderId);
    expect(mails[0]).toMatchObject({ to_address: 'someone.else@elsewhere.test' });
    expect(audit.map((a) => a.action)).toContain('order.document-email-changed');
    const timeline = await t.app.inject({
      url: `/api/admin/get-orders-details/${orderId}`,
      headers: { authorization: team.token },
    });
    expect(timeline.body).toContain("Mailed the approval to another address than the order's");
  });

  it("keeps what it read and uses it: the approval mail, Order History's search, the portal and both defence packs", async () => {
    const orderId = await insertOrder(t.database.db);
    const approval = await approvalPdf({ ...TRAVELLER, applicationNumber: 'V377777777' });
    expect((await upload(orderId, { name: 'eta.pdf', content: approval })).statusCode).toBe(200);

    const { mails } = await rowsOf(orderId);
    expect(mails[0]!.text).toContain('Application number: V377777777');
    expect(mails[0]!.text).toContain('Your eTA is valid until 19 November 2031.');
    expect(mails[0]!.html).toContain('valid until 19 November 2031');

    for (const typed of ['V377777777', 'v 377777777']) {
      const found = await t.search(team.token, { start: 0, end: 10, searchVal: typed, folderName: 'orderHistory' });
      expect(
        found.rows.map((r) => r.order_id),
        typed,
      ).toEqual([orderId]);
    }

    const tracked = await t.app.inject({
      method: 'POST',
      url: '/api/front/track-order',
      payload: { orderId, email: box(orderId) },
    });
    const proof = tracked.json<{ data: { proof: string } }>().data.proof;
    const history = await t.app.inject({
      method: 'POST',
      url: '/api/front/get-download-history',
      payload: { orderId },
      headers: { [TRACK_PROOF_HEADER]: proof },
    });
    expect(history.json()).toMatchObject({ approval: { applicationNumber: 'V377777777', expiresOn: '2031-11-19' } });

    for (const defencePackType of [1, 2]) {
      const details = await t.app.inject({
        method: 'POST',
        url: '/api/admin/defence-pack-details',
        headers: { authorization: team.token },
        payload: { orderId, defencePackType },
      });
      expect(details.json().data.documents[0], `pack ${defencePackType}`).toMatchObject({
        approved: true,
        applicationNumber: 'V377777777',
        approvedOn: '2026-11-20',
        expiresOn: '2031-11-19',
        matchedTraveller: true,
      });
      const pdf = await t.app.inject({
        method: 'POST',
        url: '/api/admin/get-defence-pack-pdf',
        headers: { authorization: team.token },
        payload: { orderId, defencePackType },
      });
      const text = (await pdfPages(pdf.rawPayload)).join(' ');
      expect(text, `pack ${defencePackType}`).toContain(
        'The approved eTA states: application number V377777777, approved on 2026-11-20, valid until 2031-11-19.',
      );
      expect(text, `pack ${defencePackType}`).toContain("names this order's traveller");
    }
  });
});

describe('reading stays off the event loop and within its cap', () => {
  it("answers /api/health while a scan is read, and a read past the pool's cap is treated as unreadable", async () => {
    const capped = await buildTestApp({}, { workerLimits: { timeoutMs: 300, maxMemoryMb: 512, threads: 1 } });
    try {
      const member = await capped.signIn('Team');
      const orderId = await insertOrder(capped.database.db);
      const form = await uploadRequest(
        { orderId, email: box(orderId), mailServiceProvider: 'AWS' },
        { name: 'scan.png', content: approvalPng() },
      );
      const events: string[] = [];
      const uploading = capped.app
        .inject({
          method: 'POST',
          url: '/api/admin/upload-visa-document',
          headers: { ...form.headers, authorization: member.token },
          payload: form.payload,
        })
        .then((res) => {
          events.push('upload');
          return res;
        });
      // The health check is answered while the document is being read in a worker thread.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const health = await capped.app.inject({ url: '/api/health' });
      events.push('health');
      expect(health.statusCode).toBe(200);
      const res = await uploading;
      expect(events).toEqual(['health', 'upload']);
      // Loading the OCR model alone takes longer than 300 ms: the read is stopped and the document is unreadable,
      // which the member may still send with a reason.
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'DOCUMENT_NOT_READ' });
    } finally {
      await capped.close();
    }
  });
});
