// The approved document (spec §2 "Upload Document", §7 upload-visa-document): checked by content, stored under
// a generated key, then recorded with its sha256, the order set Completed and the approval mail queued, all in
// ONE transaction; a failure after the file was stored deletes it again, so no stray file is left behind. The file is
// stored before the transaction, once the order is known to take it: a slow or failing document store (issue 32)
// holds no database connection nor the order's lock, and when it fails nothing at all has changed.
import type { FastifyBaseLogger } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { Kysely } from 'kysely';
import {
  EMAIL_PATTERN,
  MAIL_PROVIDERS,
  MAX_EMAIL_LENGTH,
  MIN_SEND_ANYWAY_REASON,
  UPLOAD_FIELDS,
  UPLOAD_MESSAGES,
  type DocumentReading,
  type DocumentRefusal,
  type MailProvider,
  type StoredDocumentInfo,
  type UploadVisaDocumentResult,
} from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import {
  DocumentStoreUnavailableError,
  type DocumentStore,
  type StoredDocument,
} from '../../lib/storage/document-store.js';
import { selectCurrentDocument } from '../../lib/delivery/current-document.repository.js';
import { assertMayDeliver } from '../../lib/delivery/may-deliver.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import type { MailService } from '../mail/mail.service.js';
import { changedBy, type OrderEventsPublisher } from '../events/order-events.publisher.js';
import type { checkPdf } from '../../lib/pdf/inspect.js';
import { WorkerLimitError, type WorkerPool } from '../../lib/workers/worker-pool.js';
import type { readDocumentText } from '../../lib/document-reading/read-document.js';
import type { OrderFieldsCipher } from '../personal-data/order-fields.js';
import { describeNamed, matchesTraveller, readApproval, type TravellerIdentity } from './approval-reading.js';
import { detectDocumentType, sanitizeFileName } from './document-file.js';
import {
  insertDocument,
  lockUploadTarget,
  markOrderCompleted,
  selectSignatureKey,
  selectTraveller,
  selectUploadTarget,
  type UploadTarget,
} from './documents.repository.js';
import type { UploadForm } from './upload-form.js';

const EMAIL = new RegExp(EMAIL_PATTERN, 'u');

/** The order, when it exists and may be sent its approved document (else the reason it may not). */
function deliverable(order: UploadTarget | undefined, orderId: string): UploadTarget {
  if (!order) throw new AppError('ORDER_NOT_FOUND', `Order ${orderId} was not found.`);
  assertMayDeliver(order);
  return order;
}

interface ValidUpload {
  orderId: string;
  email: string;
  provider: MailProvider;
  file: { filename: string; content: Buffer };
  /** The member's reason to send a document the desk could not match (issue 35). */
  sendAnywayReason: string | null;
  confirmEmailChange: boolean;
}

/** Every missing or wrong field at once, in the form's order, with the spec's messages (§5). */
function validateForm(form: UploadForm): ValidUpload {
  const errors: Record<string, string> = {};
  const orderId = form.orderId?.trim() ?? '';
  const email = form.email?.trim() ?? '';
  if (!orderId) errors[UPLOAD_FIELDS.orderId] = UPLOAD_MESSAGES.orderIdRequired;
  if (!email) errors[UPLOAD_FIELDS.email] = UPLOAD_MESSAGES.emailRequired;
  else if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email))
    errors[UPLOAD_FIELDS.email] = UPLOAD_MESSAGES.emailInvalid;
  if (!form.file) errors[UPLOAD_FIELDS.file] = UPLOAD_MESSAGES.fileRequired;
  const provider = MAIL_PROVIDERS.find((p) => p === form.provider);
  if (!provider) errors[UPLOAD_FIELDS.provider] = UPLOAD_MESSAGES.providerRequired;
  const reason = form.sendAnywayReason?.trim() ?? '';
  if (form.sendAnywayReason !== undefined && reason.length < MIN_SEND_ANYWAY_REASON) {
    errors[UPLOAD_FIELDS.sendAnywayReason] =
      `Say in a few words (at least ${MIN_SEND_ANYWAY_REASON} characters) why this document is right for this order.`;
  }
  const first = Object.values(errors)[0];
  if (first !== undefined || !provider || !form.file) {
    throw new AppError('VALIDATION_FAILED', first ?? UPLOAD_MESSAGES.fileRequired, { fields: errors });
  }
  return {
    orderId: normalizeOrderId(orderId),
    email,
    provider,
    file: form.file,
    sendAnywayReason: reason || null,
    confirmEmailChange: form.confirmEmailChange === 'true',
  };
}

const toInfo = (d: {
  id: number;
  original_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_at: Date;
}): StoredDocumentInfo => ({
  id: d.id,
  file1: d.original_name,
  content_type: d.content_type,
  size_bytes: d.size_bytes,
  sha256: d.sha256,
  create_ts: new Date(d.created_at).toISOString(),
});

export class DocumentsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: DocumentStore,
    private readonly mail: MailService,
    workers: WorkerPool,
    private readonly log: FastifyBaseLogger,
    private readonly orderEvents: OrderEventsPublisher,
    private readonly cipher: OrderFieldsCipher,
  ) {
    this.checkPdf = workers.function(new URL('../../lib/pdf/inspect.js', import.meta.url), 'checkPdf');
    this.readText = workers.function(
      new URL('../../lib/document-reading/read-document.js', import.meta.url),
      'readDocumentText',
    );
  }

  /** An approval's text (its own, or by OCR), read in the worker pool under its time and memory caps (issue 35). */
  private readonly readText: typeof readDocumentText;

  /** The order's traveller and e-mail: the passport number opened from its sealed field. */
  private async traveller(orderId: string): Promise<{ identity: TravellerIdentity; email: string }> {
    const row = await selectTraveller(this.db, orderId);
    if (!row) throw new AppError('ORDER_NOT_FOUND', `Order ${orderId} was not found.`);
    const opened = await this.cipher.open(orderId, row.personal_sealed);
    return {
      identity: {
        surname: row.passport_surname || row.surname || '',
        givenNames: row.passport_first_name || row.first_name || '',
        passportNumber: String(opened.passport_number ?? row.passport_number ?? ''),
      },
      email: row.email ?? '',
    };
  }

  /**
   * Reads the document and judges it against the order's traveller. A document that names someone else, or cannot be
   * read, is refused (422) with what was read, unless the member gave a reason to send it anyway; a mail to another
   * address than the order's needs its confirmation (409). Nothing is stored before this passes.
   */
  private async judge(
    upload: ValidUpload,
    contentType: string,
  ): Promise<{ reading: DocumentReading; summary: string; orderEmail: string }> {
    const { identity, email } = await this.traveller(upload.orderId);
    if (upload.email.toLowerCase() !== email.trim().toLowerCase() && !upload.confirmEmailChange) {
      throw new AppError(
        'EMAIL_CHANGE_UNCONFIRMED',
        `The approval would go to ${upload.email}, but order ${upload.orderId} was placed with ${email}. ` +
          'Confirm the new address to send it there.',
        { data: { orderEmail: email, email: upload.email } },
      );
    }
    const text = await this.readText(upload.file.content, contentType).catch((err: unknown) => {
      // Past the pool's cap: the document is treated as unreadable, and the member decides.
      if (err instanceof WorkerLimitError) return { text: '', method: 'none' as const, ocrMs: 0 };
      throw err;
    });
    const read = readApproval(text.text, identity);
    const reading: DocumentReading = {
      method: read.readable ? text.method : 'none',
      readable: read.readable,
      matched: read.readable && matchesTraveller(read),
      passportFound: read.passportFound,
      surnameFound: read.surnameFound,
      named: read.named,
      facts: read.facts,
      sentAnyway: null,
    };
    if (reading.matched) return { reading, summary: read.summary, orderEmail: email };
    if (upload.sendAnywayReason) {
      return { reading: { ...reading, sentAnyway: upload.sendAnywayReason }, summary: read.summary, orderEmail: email };
    }
    const order = {
      surname: identity.surname.toUpperCase(),
      givenNames: identity.givenNames,
      passportNumber: identity.passportNumber,
    };
    const data: DocumentRefusal = { reading, order };
    const ours = `${order.surname} / ${order.passportNumber}`;
    if (!reading.readable) {
      throw new AppError(
        'DOCUMENT_NOT_READ',
        `The desk could not read this document (no text, even by OCR), so it cannot tell whether it is for ${ours}. ` +
          'Nothing was stored or sent. Look at it yourself: to send it, give the reason.',
        { data },
      );
    }
    throw new AppError(
      'DOCUMENT_MISMATCH',
      `This document names ${describeNamed(read.named)}; this order is ${ours}. Nothing was stored or sent. ` +
        "Check that it is this traveller's approval.",
      { data },
    );
  }

  /** An uploaded PDF is read within bounds, in the worker pool (issue 22). */
  private readonly checkPdf: typeof checkPdf;

  /** A PDF beyond the bounds a defence pack can reproduce is refused (a damaged or encrypted one is kept as it is). */
  private async assertWithinLimits(content: Buffer): Promise<void> {
    const check = await this.checkPdf(content).catch((err: unknown) => {
      if (err instanceof WorkerLimitError)
        return { readable: false as const, reason: `reading it ${err.message}`, overLimits: true };
      throw err;
    });
    if (check.readable || !check.overLimits) return;
    const message = `This PDF cannot be accepted: ${check.reason}. Please upload the approved document as issued, or a scan of it as an image.`;
    throw new AppError('UNREADABLE_DOCUMENT', message, { fields: { [UPLOAD_FIELDS.file]: message } });
  }

  /**
   * Any staff member who works orders may upload for a paid order that is not Deleted or Refund Completed
   * (./README.md); an order already Completed gets the new document and the mail again.
   */
  async uploadApprovedDocument(staff: Staff, actor: Actor, form: UploadForm): Promise<UploadVisaDocumentResult> {
    const upload = validateForm(form);
    const type = await detectDocumentType(upload.file.content);
    if (type.contentType === 'application/pdf') await this.assertWithinLimits(upload.file.content);
    this.mail.assertProvider(upload.provider);
    const originalName = sanitizeFileName(upload.file.filename, type.extension);
    // Stored only once the order may take it and the document names its traveller; checked again under the order's
    // lock before anything is recorded.
    deliverable(await selectUploadTarget(this.db, upload.orderId), upload.orderId);
    const { reading, summary: readSummary, orderEmail } = await this.judge(upload, type.contentType);
    const file = await this.storeUpload(upload.file.content, type.extension, upload.orderId);
    try {
      const result = await this.db.transaction().execute(async (trx) => {
        const order = deliverable(await lockUploadTarget(trx, upload.orderId), upload.orderId);
        const document = await insertDocument(trx, {
          orderKey: order.id,
          storageKey: file.key,
          originalName,
          contentType: type.contentType,
          size: file.size,
          sha256: file.sha256,
          uploadedBy: staff.id,
          facts: reading.facts,
          reading,
        });
        const version = await markOrderCompleted(trx, order.id, staff.id);
        const composed = await this.mail.composeApprovalMail(trx, order.order_id);
        const mail = await this.mail.enqueue(trx, {
          orderId: order.id,
          kind: 'approval',
          to: upload.email,
          provider: upload.provider,
          from: composed.from,
          subject: composed.subject,
          html: composed.html,
          text: composed.text,
          documentId: document.id,
        });
        const info = toInfo({
          ...document,
          original_name: originalName,
          content_type: type.contentType,
          size_bytes: file.size,
          sha256: file.sha256,
        });
        await writeAudit(trx, actor, [
          {
            action: 'order.upload-document',
            orderId: order.id,
            target: order.order_id,
            before: { process_status: order.process_status, version: order.version },
            after: {
              process_status: 'Completed',
              version,
              document: { id: info.id, file1: info.file1, content_type: info.content_type, sha256: info.sha256 },
              // The mail by id, not its address: the mails row holds that, and erasure blanks it there.
              mail: { id: mail.id, provider: upload.provider },
              reading: { method: reading.method, matched: reading.matched, facts: reading.facts },
            },
          },
          ...(reading.sentAnyway
            ? [
                {
                  action: 'order.document-sent-unmatched' as const,
                  orderId: order.id,
                  target: order.order_id,
                  after: {
                    reason: reading.sentAnyway,
                    readable: reading.readable,
                    named: reading.named,
                    summary: readSummary,
                  },
                },
              ]
            : []),
          // The change is on the order's activity; the address itself only in the mails row (erasure blanks it
          // there, and the audit trail never holds one).
          ...(upload.email.toLowerCase() !== orderEmail.trim().toLowerCase()
            ? [
                {
                  action: 'order.document-email-changed' as const,
                  orderId: order.id,
                  target: order.order_id,
                  after: { mail: { id: mail.id } },
                },
              ]
            : []),
        ]);
        return {
          orderId: order.order_id,
          version,
          process_status: 'Completed',
          document: info,
          reading,
          mail: {
            mailId: mail.id,
            orderId: order.order_id,
            to: upload.email,
            provider: upload.provider,
            state: mail.state,
            ...(mail.lastError ? { last_error: mail.lastError } : {}),
          },
        } satisfies UploadVisaDocumentResult;
      });
      this.mail.kick();
      this.orderEvents.changed(
        [{ orderId: result.orderId, version: result.version, status: 'Completed' }],
        changedBy(actor),
      );
      return result;
    } catch (err) {
      await this.removeUnused(file.key);
      throw err;
    }
  }

  /**
   * The uploaded file into the store. A store that fails or does not answer is a 503 saying that nothing changed; a
   * write whose answer never came may still have landed, and is removed (without holding up the answer).
   */
  private async storeUpload(content: Buffer, extension: string, orderId: string): Promise<StoredDocument> {
    try {
      return await this.store.put(content, { extension });
    } catch (err) {
      if (!(err instanceof DocumentStoreUnavailableError)) throw err;
      if (err.key) void this.removeUnused(err.key);
      throw err.saying(
        `The document store is not answering, so the document was not stored and order ${orderId} was not changed ` +
          '(no mail was sent). Please upload it again in a minute; if it keeps failing, tell your administrator.',
      );
    }
  }

  /** Removes a stored file no row names; one that may stay is logged with its key, for the operator to remove. */
  private async removeUnused(key: string): Promise<void> {
    await this.store.delete(key).catch((cleanup: unknown) => {
      this.log.error(
        { err: cleanup, key },
        'the file of a failed upload may be left in the document store under this key (its removal failed too): ' +
          'remove it once the store answers',
      );
    });
  }

  /**
   * The customer's signature image (the order detail page's "Digital signature"): its bytes and type, judged by
   * content. Staff only; 404 when the order has none or the store lost it.
   */
  async signature(rawOrderId: string): Promise<{ content: Buffer; contentType: string }> {
    const orderId = normalizeOrderId(rawOrderId);
    const row = await selectSignatureKey(this.db, orderId);
    if (!row) throw new AppError('ORDER_NOT_FOUND', `Order ${orderId} was not found.`);
    const missing = new AppError('NOT_FOUND', `Order ${orderId} has no signature image on file.`);
    if (!row.customer_sign) throw missing;
    const content = await this.store.read(row.customer_sign).catch((err: unknown) => {
      if (err instanceof DocumentStoreUnavailableError) {
        throw err.saying(
          `The signature of order ${orderId} cannot be shown now: the document store is not answering. Please try again in a minute.`,
        );
      }
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? missing : err;
    });
    const type = await fileTypeFromBuffer(content);
    if (type?.mime !== 'image/png' && type?.mime !== 'image/jpeg') throw missing;
    return { content, contentType: type.mime };
  }

  /** The spec's HEAD check: the order's approved document, when its row and its file both exist. */
  async approvedDocument(rawOrderId: string): Promise<StoredDocumentInfo> {
    const orderId = normalizeOrderId(rawOrderId);
    const document = await selectCurrentDocument(this.db, orderId);
    if (!document || !(await this.store.exists(document.storage_key))) {
      throw new AppError('NOT_FOUND', `Order ${orderId} has no approved document yet.`);
    }
    return toInfo(document);
  }
}
