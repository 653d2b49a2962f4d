// Upload Document (spec §2, §5, §7 upload-visa-document): a good upload completes the order in one
// transaction (document row, file with its sha256, version bump, approval mail, audit); every refusal is
// judged by content, says why, and leaves nothing behind; the HEAD check tells whether the document exists.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { UPLOAD_MESSAGES } from '@eta/contracts';
import { LocalDocumentStore } from '../src/lib/storage/local-document-store.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { appDocumentStore } from './helpers/personal-data.js';
import { auditRowsMentioning } from './helpers/audit-mentions.js';
import { insertOrder, givePortalHosts } from './helpers/orders.js';
import { standInMailConfig, startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';
import { inflatingPdf } from './helpers/pdf-files.js';
import { APPROVAL_PNG, GIF, PDF, SHELL_SCRIPT, ZIP, uploadRequest, type UploadFile } from './helpers/uploads.js';

let standIn: MailStandIn;
let t: TestApp;
type Person = Awaited<ReturnType<TestApp['signIn']>>;
let team: Person;

beforeAll(async () => {
  standIn = await startMailStandIn();
  t = await buildTestApp({ mail: standInMailConfig(standIn), maxUploadMb: 1 });
  await givePortalHosts(t.database.db);
  team = await t.signIn('Team', 'Uma Uploader');
});
afterAll(async () => {
  await t.close();
  await standIn.close();
});

const documentsDir = () => path.join(t.config.dataDir, 'documents');

/** Every file under the document store, however deep. */
async function storedFiles(): Promise<string[]> {
  try {
    const entries = await readdir(documentsDir(), { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** The form as the console fills it: the order's own e-mail in the box (helpers/orders.ts). */
const defaults = (orderId: string) => ({
  orderId,
  email: `${orderId.toLowerCase()}@mail.test`,
  mailServiceProvider: 'AWS',
});
const pdf = (name = 'approval.pdf'): UploadFile => ({ name, content: PDF, type: 'application/pdf' });

async function upload(fields: Record<string, string | undefined>, file?: UploadFile, who: Person | null = team) {
  const form = await uploadRequest(fields, file);
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    headers: { ...form.headers, ...(who ? { authorization: who.token } : {}) },
    payload: form.payload,
  });
}

const orderRow = (orderId: string) =>
  t.database.db.selectFrom('orders').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();

async function rowsOf(orderId: string) {
  const order = await orderRow(orderId);
  const documents = await t.database.db.selectFrom('documents').selectAll().where('order_id', '=', order.id).execute();
  const mails = await t.database.db.selectFrom('mails').selectAll().where('order_id', '=', order.id).execute();
  return { order, documents, mails };
}

/** A refusal changes nothing: the order as it was, no document row, no mail, no file. */
async function expectNothingChanged(orderId: string, status = 'New') {
  const { order, documents, mails } = await rowsOf(orderId);
  expect(order).toMatchObject({ process_status: status, version: 1 });
  expect(documents).toEqual([]);
  expect(mails).toEqual([]);
  expect(await storedFiles()).toEqual([]);
}

const headCheck = (orderId: string) =>
  t.app.inject({ method: 'HEAD', url: `/api/admin/order-document/${orderId}`, headers: { authorization: team.token } });

describe('a good upload', () => {
  it('completes the order in one go: document row, stored file with its sha256, version bump, approval mail, audit', async () => {
    const orderId = await insertOrder(t.database.db, { process_status: 'Pending', assign_to: team.id });
    expect((await headCheck(orderId)).statusCode).toBe(404);

    const res = await upload(
      { ...defaults(orderId), email: '  edited.address@customer.test ', confirmEmailChange: 'true' },
      pdf('eTA approval.pdf'),
    );
    expect(res.statusCode).toBe(200);
    const sha256 = createHash('sha256').update(PDF).digest('hex');
    expect(res.json()).toMatchObject({
      status: 1,
      message: `Document uploaded and order ${orderId} completed. The approval mail to edited.address@customer.test is on its way.`,
      data: {
        orderId,
        version: 2,
        process_status: 'Completed',
        document: { file1: 'eTA approval.pdf', content_type: 'application/pdf', size_bytes: PDF.length, sha256 },
        mail: { to: 'edited.address@customer.test', provider: 'AWS', state: 'queued' },
      },
    });

    const { order, documents, mails } = await rowsOf(orderId);
    expect(order).toMatchObject({ process_status: 'Completed', version: 2 });
    expect(documents).toEqual([
      expect.objectContaining({
        original_name: 'eTA approval.pdf',
        content_type: 'application/pdf',
        size_bytes: PDF.length,
        sha256,
        uploaded_by: team.id,
      }),
    ]);
    const [document] = documents;
    // Stored under a generated key, never the customer's name, with exactly the uploaded bytes, encrypted (issue 24).
    expect(document!.storage_key).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{32}\.pdf$/);
    const stored = await (await appDocumentStore(t)).read(document!.storage_key);
    expect(createHash('sha256').update(stored).digest('hex')).toBe(sha256);
    const onDisk = await new LocalDocumentStore(documentsDir()).read(document!.storage_key);
    expect(onDisk.includes(PDF.subarray(0, 64))).toBe(false);
    expect(await storedFiles()).toHaveLength(1);

    expect(mails).toEqual([
      expect.objectContaining({
        kind: 'approval',
        to_address: 'edited.address@customer.test',
        from_address: 'Canada eTA Online <noreply@canada-eta-online.example>',
        provider: 'AWS',
        state: 'queued',
        document_id: document!.id,
        subject: `Your Canada eTA is approved - order ${orderId}`,
      }),
    ]);
    expect(mails[0]!.html).toContain(`https://www.canada-eta-online.example/track-order/${orderId}`);

    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_name', 'before', 'after'])
      .where('order_id', '=', order.id)
      .execute();
    expect(audit).toEqual([
      {
        action: 'order.upload-document',
        actor_name: 'Uma Uploader',
        before: { process_status: 'Pending', version: 1 },
        after: expect.objectContaining({
          process_status: 'Completed',
          version: 2,
          document: expect.objectContaining({ sha256, file1: 'eTA approval.pdf' }),
          // The mail by its id: its address is in the mails row (which erasure blanks), never in the audit.
          mail: { id: mails[0]!.id, provider: 'AWS' },
          reading: {
            method: 'text',
            matched: true,
            facts: { applicationNumber: 'V301234567', approvedOn: '2026-11-20', expiresOn: '2031-11-19' },
          },
        }),
      },
      // The box held another address than the order's, confirmed: on the order's activity, by the mail's id.
      {
        action: 'order.document-email-changed',
        actor_name: 'Uma Uploader',
        before: null,
        after: { mail: { id: mails[0]!.id } },
      },
    ]);
    expect(await auditRowsMentioning(t.database.db, 'edited.address@customer.test')).toBe(0);

    // The order page shows the document, the mail and the step in its timeline.
    const details = await t.app.inject({
      url: `/api/admin/get-orders-details/${orderId}`,
      headers: { authorization: team.token },
    });
    const data = details.json().data;
    expect(data).toMatchObject({
      process_status: 'Completed',
      version: 2,
      uploadDoc: [
        {
          file1: 'eTA approval.pdf',
          content_type: 'application/pdf',
          size_bytes: PDF.length,
          uploaded_by: 'Uma Uploader',
          customer_name: 'Ada Lovelace',
          mail_service_provider: 'AWS',
        },
      ],
      mailHistory: [{ kind: 'approval', to: 'edited.address@customer.test', state: 'queued', provider: 'AWS' }],
    });
    expect(data.activity).toContainEqual(
      expect.objectContaining({ action: 'Approved document uploaded', from: 'Pending', to: 'Completed' }),
    );

    // The spec's HEAD check now finds the document; GET names it.
    const head = await headCheck(orderId);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const info = await t.app.inject({
      url: `/api/admin/order-document/${orderId.toLowerCase()}`,
      headers: { authorization: team.token },
    });
    expect(info.json().data).toMatchObject({ file1: 'eTA approval.pdf', sha256, size_bytes: PDF.length });
  });

  it('judges by content: a PDF named .png is stored as the PDF it is; a PNG is accepted as an image', async () => {
    const misnamed = await insertOrder(t.database.db);
    const res = await upload(defaults(misnamed), { name: 'scan.png', content: PDF, type: 'image/png' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.document).toMatchObject({ file1: 'scan.pdf', content_type: 'application/pdf' });

    const image = await insertOrder(t.database.db);
    const png = await upload(defaults(image), {
      name: 'photo.PNG',
      content: APPROVAL_PNG,
      type: 'application/octet-stream',
    });
    expect(png.statusCode).toBe(200);
    expect(png.json().data.document).toMatchObject({ file1: 'photo.png', content_type: 'image/png' });
  });

  it('any image is accepted (spec §5), judged and named by its content', async () => {
    const orderId = await insertOrder(t.database.db);
    // A one-pixel GIF has nothing the desk can read (issue 35): the member who looked at it sends it with a reason.
    const res = await upload(
      { ...defaults(orderId), sendAnywayReason: 'An old scan from the office copier, checked by eye.' },
      { name: 'approval.jpg', content: GIF, type: 'image/jpeg' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const doc = await t.database.db
      .selectFrom('documents')
      .innerJoin('orders', 'orders.id', 'documents.order_id')
      .select(['documents.content_type', 'documents.original_name'])
      .where('orders.order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(doc).toEqual({ content_type: 'image/gif', original_name: 'approval.gif' });
  });

  it('keeps a path-like or hostile file name only as sanitized metadata', async () => {
    for (const [name, expected] of [
      ['../../etc/passwd.pdf', 'passwd.pdf'],
      ['..\\..\\windows\\system32\\approval.pdf', 'approval.pdf'],
      ['<script>alert(1)<\u202Eexe.pdf', 'scriptalert(1)exe.pdf'],
      ['....pdf', 'document.pdf'],
      ['Visa Müller – 2026.PDF', 'Visa Müller – 2026.pdf'],
    ] as const) {
      const orderId = await insertOrder(t.database.db);
      const res = await upload(defaults(orderId), pdf(name));
      expect(res.statusCode, name).toBe(200);
      const { documents } = await rowsOf(orderId);
      expect(documents[0], name).toMatchObject({ original_name: expected });
      expect(documents[0]!.storage_key, name).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{32}\.pdf$/);
    }
  });

  it('an order already Completed takes a new document and its mail again; the HEAD check follows the latest', async () => {
    const orderId = await insertOrder(t.database.db, { process_status: 'Completed' });
    expect((await upload(defaults(orderId), pdf('first.pdf'))).statusCode).toBe(200);
    const second = await upload(defaults(orderId), { name: 'second.png', content: APPROVAL_PNG });
    expect(second.json().data).toMatchObject({ version: 3, document: { file1: 'second.png' } });
    const info = await t.app.inject({
      url: `/api/admin/order-document/${orderId}`,
      headers: { authorization: team.token },
    });
    expect(info.json().data).toMatchObject({ file1: 'second.png', content_type: 'image/png' });
    expect((await rowsOf(orderId)).mails).toHaveLength(2);
  });
});

describe('refusals leave nothing behind', () => {
  beforeAll(async () => {
    // Earlier uploads' files are not this block's concern.
    const { rm } = await import('node:fs/promises');
    await rm(documentsDir(), { recursive: true, force: true });
  });

  it('a script renamed .pdf is refused by its content (415)', async () => {
    const orderId = await insertOrder(t.database.db);
    const res = await upload(defaults(orderId), {
      name: 'approval.pdf',
      content: SHELL_SCRIPT,
      type: 'application/pdf',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      status: 0,
      code: 'UNSUPPORTED_FILE',
      message: 'This file is not a PDF or an image. Please upload the approved document as a PDF or an image.',
    });
    await expectNothingChanged(orderId);
  });

  it('a file that is not a PDF or an image is refused, naming what it is', async () => {
    const orderId = await insertOrder(t.database.db);
    const res = await upload(defaults(orderId), { name: 'approval.png', content: ZIP, type: 'image/png' });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(
      'This file is a ZIP file (application/zip). Please upload the approved document as a PDF or an image.',
    );
    await expectNothingChanged(orderId);
  });

  it('an empty file is refused', async () => {
    const orderId = await insertOrder(t.database.db);
    const res = await upload(defaults(orderId), { name: 'approval.pdf', content: Buffer.alloc(0) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: UPLOAD_MESSAGES.fileEmpty,
      errors: { uploadVisaDoc: UPLOAD_MESSAGES.fileEmpty },
    });
    await expectNothingChanged(orderId);
  });

  it('a file over MAX_UPLOAD_MB is a 413 with a clear message, and no file is left in the store', async () => {
    const orderId = await insertOrder(t.database.db);
    const big = Buffer.concat([PDF, Buffer.alloc(1024 * 1024)]);
    const res = await upload(defaults(orderId), { name: 'approval.pdf', content: big });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      status: 0,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The file is larger than 1 MB. Nothing was stored; please upload a smaller file.',
    });
    await expectNothingChanged(orderId);
  });

  it('a compression-bomb PDF is refused with 422 and why, and nothing is stored (issue 22)', async () => {
    const orderId = await insertOrder(t.database.db);
    const bomb = await inflatingPdf(500); // ~0.5 MB on disk, 500 MB once its page is inflated
    const res = await upload(defaults(orderId), { name: 'approval.pdf', content: bomb, type: 'application/pdf' });
    expect(res.statusCode).toBe(422);
    const message =
      'This PDF cannot be accepted: its pages inflate to more than 64 MB. Please upload the approved document as issued, or a scan of it as an image.';
    expect(res.json()).toMatchObject({
      status: 0,
      code: 'UNREADABLE_DOCUMENT',
      message,
      errors: { uploadVisaDoc: message },
    });
    await expectNothingChanged(orderId);
  });

  it('missing fields are named with the spec’s messages, all at once', async () => {
    const orderId = await insertOrder(t.database.db);
    const noEmail = await upload({ orderId, mailServiceProvider: 'AWS' }, pdf());
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Please enter your email',
      errors: { email: 'Please enter your email' },
    });
    const noFile = await upload(defaults(orderId));
    expect(noFile.json()).toMatchObject({ message: 'File is required', errors: { uploadVisaDoc: 'File is required' } });
    const nothing = await upload({ orderId, email: '   ' });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().errors).toEqual({
      email: 'Please enter your email',
      uploadVisaDoc: 'File is required',
      mailServiceProvider: UPLOAD_MESSAGES.providerRequired,
    });
    const noOrder = await upload({ email: 'a@customer.test', mailServiceProvider: 'AWS' }, pdf());
    expect(noOrder.json().errors).toEqual({ orderId: UPLOAD_MESSAGES.orderIdRequired });
    await expectNothingChanged(orderId);
  });

  it('a provider that is neither AWS nor Sendgrid, or an address that is not one, is refused', async () => {
    const orderId = await insertOrder(t.database.db);
    const provider = await upload({ ...defaults(orderId), mailServiceProvider: 'Mailchimp' }, pdf());
    expect(provider.statusCode).toBe(400);
    expect(provider.json().errors).toEqual({ mailServiceProvider: UPLOAD_MESSAGES.providerRequired });
    for (const email of ['not-an-address', 'a@customer.test\r\nBcc: everyone@example.com', 'Name <a@b.co>']) {
      const res = await upload({ ...defaults(orderId), email }, pdf());
      expect(res.statusCode, email).toBe(400);
      expect(res.json().errors, email).toEqual({ email: UPLOAD_MESSAGES.emailInvalid });
    }
    await expectNothingChanged(orderId);
  });

  it('the form must be a multipart upload with one file', async () => {
    const orderId = await insertOrder(t.database.db);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      headers: { authorization: team.token },
      payload: defaults(orderId),
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe('Send the document as a form upload (multipart/form-data).');

    const form = new FormData();
    for (const [k, v] of Object.entries(defaults(orderId))) form.append(k, v);
    form.append('uploadVisaDoc', new Blob([PDF]), 'a.pdf');
    form.append('uploadVisaDoc', new Blob([PDF]), 'b.pdf');
    const request = new Request('http://upload.test/', { method: 'POST', body: form });
    const two = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      headers: { authorization: team.token, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toBe('Please upload one file at a time.');
    await expectNothingChanged(orderId);
  });

  it('a Deleted, refunded, unpaid or unknown order is refused with its reason', async () => {
    const deleted = await insertOrder(t.database.db, { process_status: 'Deleted' });
    const res = await upload(defaults(deleted), pdf());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'ORDER_DELETED',
      message: `Order ${deleted} is deleted; an Admin must restore it first.`,
    });
    await expectNothingChanged(deleted, 'Deleted');

    const refunded = await insertOrder(t.database.db, { process_status: 'Refund Completed' });
    expect((await upload(defaults(refunded), pdf())).json()).toMatchObject({ code: 'ORDER_CLOSED' });
    await expectNothingChanged(refunded, 'Refund Completed');

    const unpaid = await insertOrder(t.database.db, { payment_status: 'Pending' });
    expect((await upload(defaults(unpaid), pdf())).json()).toMatchObject({ code: 'NOT_PAID' });
    await expectNothingChanged(unpaid);

    const unknown = await upload(defaults('ETA-999999999'), pdf());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
    expect(await storedFiles()).toEqual([]);
  });

  it('someone not signed in is refused before anything is read', async () => {
    const orderId = await insertOrder(t.database.db);
    const res = await upload(defaults(orderId), pdf(), null);
    expect(res.statusCode).toBe(401);
    await expectNothingChanged(orderId);
  });

  it('a failure after the file was stored rolls everything back and deletes the file', async () => {
    // The outbox refuses this one recipient, after the file was written and the order updated.
    await sql`CREATE FUNCTION refuse_test_mail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.to_address = 'explode@customer.test' THEN RAISE EXCEPTION 'mail insert refused'; END IF;
      RETURN NEW; END $$`.execute(t.database.db);
    await sql`CREATE TRIGGER refuse_test_mail BEFORE INSERT ON mails FOR EACH ROW
      EXECUTE FUNCTION refuse_test_mail()`.execute(t.database.db);
    try {
      const orderId = await insertOrder(t.database.db);
      const res = await upload(
        { ...defaults(orderId), email: 'explode@customer.test', confirmEmailChange: 'true' },
        pdf(),
      );
      expect(res.statusCode).toBe(500);
      expect(res.json().message).not.toMatch(/mail insert refused/);
      await expectNothingChanged(orderId);
    } finally {
      await sql`DROP TRIGGER refuse_test_mail ON mails`.execute(t.database.db);
      await sql`DROP FUNCTION refuse_test_mail()`.execute(t.database.db);
    }
  });
});

describe('an upload far over MAX_UPLOAD_MB on a real connection (issue 22)', () => {
  const TOTAL = 200 * 1024 * 1024;
  const CHUNK = Buffer.alloc(64 * 1024, 0x41);
  let port: number;

  beforeAll(async () => {
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });

  interface RawAnswer {
    head: string;
    /** Body bytes written before the server answered. */
    sent: number;
    /** Whether the server ended the connection itself. */
    closedByServer: boolean;
  }

  /**
   * Sends `head`, then up to 200 MB of body (framed by `frame`) as fast as the socket takes it, stopping when an
   * answer arrives; resolves with the answer's head once the connection is closed, or after 10 s idle.
   */
  function rawUpload(head: string, first: Buffer | null, frame: (chunk: Buffer) => Buffer): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      let sent = 0;
      const idle = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer and no close after ${sent} body bytes: ${answer.slice(0, 200)}`));
      }, 10_000);
      socket.on('data', (data) => {
        answer += data.toString('latin1');
      });
      socket.on('error', () => {}); // EPIPE / ECONNRESET once the server has closed: expected
      socket.on('close', () => {
        clearTimeout(idle);
        resolve({ head: answer.split('\r\n\r\n')[0] ?? '', sent, closedByServer: true });
      });
      const pump = () => {
        while (first && answer === '' && !socket.destroyed && sent < TOTAL) {
          const chunk = sent === 0 ? first : CHUNK;
          sent += chunk.length;
          if (!socket.write(frame(chunk))) return void socket.once('drain', pump);
        }
      };
      socket.on('connect', () => {
        socket.write(head);
        pump();
      });
    });
  }

  const formStart = (orderId: string, boundary: string) =>
    Buffer.from(
      [
        `--${boundary}`,
        'Content-Disposition: form-data; name="orderId"',
        '',
        orderId,
        `--${boundary}`,
        'Content-Disposition: form-data; name="uploadVisaDoc"; filename="approval.pdf"',
        'Content-Type: application/pdf',
        '',
        PDF.toString('latin1'),
      ].join('\r\n'),
      'latin1',
    );

  /** The request's head: the upload route, signed in, a multipart body framed by `framing`. */
  const uploadHead = (boundary: string, framing: string) =>
    [
      'POST /api/admin/upload-visa-document HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Authorization: ${team.token}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      framing,
      '',
      '',
    ].join('\r\n');

  const expect413 = (answer: RawAnswer) => {
    expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.head.toLowerCase()).toContain('connection: close');
    expect(answer.closedByServer).toBe(true);
  };

  it('a declared Content-Length of 200 MB is answered 413 at once, before any of the body is sent', async () => {
    const orderId = await insertOrder(t.database.db);
    const head = uploadHead('bound200', `Content-Length: ${TOTAL}`);
    const answer = await rawUpload(head, null, (chunk) => chunk);
    expect413(answer);
    expect(answer.sent).toBe(0);
    await expectNothingChanged(orderId);
  });

  it('a streamed body without a length is cut off at the limit: 413, the connection closed, nothing stored', async () => {
    const orderId = await insertOrder(t.database.db);
    const boundary = 'boundChunked';
    const head = uploadHead(boundary, 'Transfer-Encoding: chunked');
    const chunked = (chunk: Buffer) =>
      Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const answer = await rawUpload(head, formStart(orderId, boundary), chunked);
    expect413(answer);
    // The limit is 1 MB; what the sockets' buffers held on the way is all that went beyond it.
    expect(answer.sent).toBeLessThan(16 * 1024 * 1024);
    await expectNothingChanged(orderId);
  });
});

describe('the HEAD check', () => {
  it('is 404 for an unknown order, and for a document whose file is gone', async () => {
    expect((await headCheck('ETA-999999998')).statusCode).toBe(404);
    const orderId = await insertOrder(t.database.db);
    expect((await upload(defaults(orderId), pdf())).statusCode).toBe(200);
    expect((await headCheck(orderId)).statusCode).toBe(200);
    const { documents } = await rowsOf(orderId);
    await new LocalDocumentStore(documentsDir()).delete(documents[0]!.storage_key);
    expect((await headCheck(orderId)).statusCode).toBe(404);
    const get = await t.app.inject({
      url: `/api/admin/order-document/${orderId}`,
      headers: { authorization: team.token },
    });
    expect(get.json()).toMatchObject({ code: 'NOT_FOUND', message: `Order ${orderId} has no approved document yet.` });
  });
});
