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
  UPLOAD_FIELDS,
  UPLOAD_MESSAGES,
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
import { detectDocumentType, sanitizeFileName } from './document-file.js';
import {
  insertDocument,
  lockUploadTarget,
  markOrderCompleted,
  selectSignatureKey,
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
  const first = Object.values(errors)[0];
  if (first !== undefined || !provider || !form.file) {
    throw new AppError('VALIDATION_FAILED', first ?? UPLOAD_MESSAGES.fileRequired, { fields: errors });
  }
  return { orderId: normalizeOrderId(orderId), email, provider, file: form.file };
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
  ) {
    this.checkPdf = workers.function(new URL('../../lib/pdf/inspect.js', import.meta.url), 'checkPdf');
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
    // Stored only once the order may take it; checked again under the order's lock before anything is recorded.
    deliverable(await selectUploadTarget(this.db, upload.orderId), upload.orderId);
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
            },
          },
        ]);
        return {
          orderId: order.order_id,
          version,
          process_status: 'Completed',
          document: info,
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
