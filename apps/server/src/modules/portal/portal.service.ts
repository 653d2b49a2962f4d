// The customer portal (spec §4 "Customer flow", DESIGN §4): a customer proves an order with its id AND e-mail
// and gets a short-lived proof for it; with the proof they read the download history and download the approved
// document, streamed from the store and logged (address, device, location) in the same step. A document the store
// cannot give (issue 32) is said so in words for the customer, before the link is handed out when it can be, and is
// not logged as downloaded.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import {
  ACCEPTED_DOCUMENT_TYPES,
  plural,
  type DownloadDocumentBody,
  type DownloadHistoryResponse,
  type TrackOrderBody,
  type TrackedOrder,
} from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import type { GeoLocator } from '../../lib/geo-location.js';
import { DocumentStoreUnavailableError, type DocumentStore } from '../../lib/storage/document-store.js';
import { describeUserAgent } from '../../lib/user-agent.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { selectCurrentDocument } from '../../lib/delivery/current-document.repository.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { changedBy, type OrderEventsPublisher } from '../events/order-events.publisher.js';
import { findTrackedOrder, insertDownload, selectDownloads, type TrackedOrderRow } from './portal.repository.js';
import type { TrackThrottle } from './track-throttle.js';
import type { TrackingProofs } from './tracking-proofs.js';

/** One answer for every pair that does not match, whether or not the order exists. */
const NO_MATCH =
  'We could not find an order with this Order ID and e-mail address. Please check both against your confirmation e-mail.';
const PROOF_NEEDED = 'Please track your order again with its Order ID and e-mail address.';
const STORE_UNAVAILABLE =
  'Your eTA cannot be downloaded right now because of a problem on our side. Please try again in a few minutes; ' +
  'if it keeps happening, contact support.';
const DOCUMENT_MISSING = 'Your eTA document cannot be found. Please contact support.';

/** A store call on the customer's behalf: what fails is told in the customer's words. */
async function fromStore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof DocumentStoreUnavailableError) throw err.saying(STORE_UNAVAILABLE);
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', DOCUMENT_MISSING);
    throw err;
  }
}

export interface Client {
  ip: string;
  userAgent: string | undefined;
}

export interface DocumentDownload {
  stream: Readable;
  fileName: string;
  contentType: string;
  size: number;
}

const digest = (text: string) => createHash('sha256').update(text).digest();
const normalizeEmail = (email: string) => email.trim().toLowerCase();
/** Compared as fixed-length digests in constant time; an unknown order is compared against a stand-in. */
const sameEmail = (stored: string, given: string) =>
  timingSafeEqual(digest(normalizeEmail(stored)), digest(normalizeEmail(given)));
const customerName = (o: Pick<TrackedOrderRow, 'passport_first_name' | 'passport_surname'>) =>
  [o.passport_first_name, o.passport_surname].filter(Boolean).join(' ');
const customerActor = (ip: string): Actor => ({ id: null, name: 'Customer', ip });

/** The downloaded file's name: the order's, never the uploaded file's (which a person typed). */
export const downloadFileName = (orderId: string, contentType: string) =>
  `eTA-${orderId}.${ACCEPTED_DOCUMENT_TYPES[contentType as keyof typeof ACCEPTED_DOCUMENT_TYPES] ?? 'pdf'}`;

export class PortalService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: DocumentStore,
    private readonly proofs: TrackingProofs,
    private readonly throttle: TrackThrottle,
    private readonly geo: () => Promise<GeoLocator>,
    private readonly orderEvents: OrderEventsPublisher,
  ) {}

  async track(body: TrackOrderBody, ip: string): Promise<TrackedOrder> {
    const orderId = normalizeOrderId(body.orderId);
    const reserved = await this.throttle.begin(ip, orderId);
    if ('retryAfterMs' in reserved) {
      const wait =
        reserved.retryAfterMs < 60_000
          ? plural(Math.max(1, Math.ceil(reserved.retryAfterMs / 1000)), 'second')
          : plural(Math.ceil(reserved.retryAfterMs / 60_000), 'minute');
      throw new AppError(
        'TOO_MANY_ATTEMPTS',
        `Too many attempts to track an order. Please wait ${wait} and try again, or contact support.`,
        { retryAfterSeconds: Math.ceil(reserved.retryAfterMs / 1000) },
      );
    }
    const { attempt } = reserved;
    try {
      const order = await findTrackedOrder(this.db, orderId);
      const matches = sameEmail(order?.email ?? '\u0000no order', body.email);
      if (!order || !matches) {
        attempt.failed();
        await writeAudit(this.db, customerActor(ip), [{ action: 'security.track-failed', target: orderId }]);
        throw new AppError('ORDER_NOT_FOUND', NO_MATCH);
      }
      await attempt.release();
      // Only someone who gave the right pair learns why their order cannot be opened.
      if (order.process_status === 'Deleted') {
        throw new AppError(
          'ORDER_DELETED',
          'This order has been cancelled and cannot be tracked. Please contact support.',
        );
      }
      if (order.payment_status !== 'Success') {
        throw new AppError(
          'NOT_PAID',
          'The payment for this order has not been completed, so it cannot be tracked. Please contact support.',
        );
      }
      const { token, expiresAt } = await this.proofs.issueProof(order.order_id);
      return {
        orderId: order.order_id,
        proof: token,
        expiresAt: expiresAt.toISOString(),
        landingSite: order.landing_site,
      };
    } catch (err) {
      await attempt.release();
      throw err;
    }
  }

  /** The order a proof opens: exactly the one it was issued for, still paid and not deleted. */
  private async provenOrder(proof: string | undefined, rawOrderId: string): Promise<TrackedOrderRow> {
    const orderId = normalizeOrderId(rawOrderId);
    if (!(await this.proofs.proves(proof, orderId))) throw new AppError('TRACK_PROOF_REQUIRED', PROOF_NEEDED);
    const order = await findTrackedOrder(this.db, orderId);
    if (!order || order.process_status === 'Deleted' || order.payment_status !== 'Success') {
      throw new AppError('ORDER_NOT_FOUND', NO_MATCH);
    }
    return { ...order, id: Number(order.id) };
  }

  async history(proof: string | undefined, rawOrderId: string): Promise<DownloadHistoryResponse> {
    const order = await this.provenOrder(proof, rawOrderId);
    const [document, downloads] = await Promise.all([
      selectCurrentDocument(this.db, order.order_id),
      selectDownloads(this.db, order.id),
    ]);
    return {
      status: 1,
      message: document ? 'Your eTA is ready to download.' : 'Your order is still being processed.',
      data: downloads.map((d) => ({
        order_id: order.order_id,
        create_ts: new Date(d.created_at).toISOString(),
        ip: d.ip,
        device: d.device ?? '',
        device_type: d.device_type ?? '',
        browser: d.browser ?? '',
        os: d.os ?? '',
        location: d.location ?? '',
        timezone: d.timezone,
      })),
      mainResult: {
        order_id: order.order_id,
        customer_name: customerName(order),
        process_status: order.process_status,
        landing_site: order.landing_site,
      },
      path: { file1: document ? downloadFileName(order.order_id, document.content_type) : null },
      ...(document && (document.application_number || document.expires_on)
        ? { approval: { applicationNumber: document.application_number, expiresOn: document.expires_on } }
        : {}),
    };
  }

  /** Spec §7 download-passport-doc-pdf: checks the proof and the document, and answers with a short-lived link. */
  async prepareDownload(proof: string | undefined, body: DownloadDocumentBody): Promise<{ url: string }> {
    const order = await this.provenOrder(proof, body.orderId);
    const document = await selectCurrentDocument(this.db, order.order_id);
    if (!document) throw new AppError('NO_DOCUMENT', 'Your eTA is not ready yet. Please try again later.');
    if (downloadFileName(order.order_id, document.content_type) !== body.file1) {
      throw new AppError('DOCUMENT_CHANGED', 'Your eTA document has been updated. Please reload the page.');
    }
    // Asked now, so that a store that cannot give the file is said on the page, not in a failed browser download.
    if (!(await fromStore(() => this.store.exists(document.storage_key)))) {
      throw new AppError('NOT_FOUND', DOCUMENT_MISSING);
    }
    const ticket = await this.proofs.issueTicket({
      orderId: order.order_id,
      documentId: Number(document.id),
      timezone: body.timezone ?? null,
    });
    return { url: `/api/front/download?ticket=${ticket}` };
  }

  /** Opens the document a ticket names and logs the download with the client's address and device. */
  async download(ticketToken: string, client: Client): Promise<DocumentDownload> {
    const ticket = await this.proofs.readTicket(ticketToken);
    if (!ticket) {
      throw new AppError(
        'TRACK_PROOF_REQUIRED',
        'This download link has expired. Please download again from the page.',
      );
    }
    const order = await findTrackedOrder(this.db, ticket.orderId);
    const document = order && (await selectCurrentDocument(this.db, order.order_id));
    if (!order || order.process_status === 'Deleted' || !document || Number(document.id) !== ticket.documentId) {
      throw new AppError('DOCUMENT_CHANGED', 'Your eTA document has been updated. Please reload the page.');
    }
    const stream = await fromStore(() => this.store.get(document.storage_key));
    const device = describeUserAgent(client.userAgent);
    const location = (await this.geo()).locate(client.ip);
    const actor = customerActor(client.ip);
    let downloadId: number;
    try {
      downloadId = await this.db.transaction().execute(async (trx) => {
        const download = await insertDownload(trx, {
          orderKey: Number(order.id),
          documentId: Number(document.id),
          ip: client.ip,
          userAgent: client.userAgent?.slice(0, 1000) ?? null,
          ...device,
          location,
          timezone: ticket.timezone,
        });
        await writeAudit(trx, actor, [
          {
            action: 'portal.download',
            orderId: Number(order.id),
            target: order.order_id,
            after: { location, ...device },
          },
        ]);
        return Number(download.id);
      });
    } catch (err) {
      stream.destroy();
      throw err;
    }
    // Staff on the order see the download join its Download History.
    this.orderEvents.addedTo(order.order_id, { kind: 'download', id: downloadId }, changedBy(actor));
    return {
      stream,
      fileName: downloadFileName(order.order_id, document.content_type),
      contentType: document.content_type,
      size: Number(document.size_bytes),
    };
  }
}
