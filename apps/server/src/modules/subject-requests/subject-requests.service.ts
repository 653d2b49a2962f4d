// Customers' requests (issue 24), answered by an Admin by e-mail address: a subject-access request (every order of
// that person with its mails, downloads and remarks, as JSON and as a readable PDF) and an erasure request, which
// applies retention's erasure at once to each of their orders. An erasure request is refused while any of their
// orders has an open dispute (the evidence may still be needed), and skips orders on legal hold, saying why. Every
// answer is audited; the audit names the person by a keyed hash (HMAC under the search key) of their e-mail, so the
// trail keeps no address and a list of candidate addresses cannot be tried against it without the key.
import type { Kysely } from 'kysely';
import type { ErasureResult, ErasureSkip, OrderDetails, SubjectOrder, SubjectSummary } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { AppError } from '../../lib/errors.js';
import { isoTime } from '../../lib/time.js';
import type { WorkerPool } from '../../lib/workers/worker-pool.js';
import { writeAudit, type Actor, type AuditEntry } from '../audit/audit.repository.js';
import type { OrderDetailService } from '../order-detail/order-detail.service.js';
import type { OrderErasure } from '../retention/erasure.js';
import { selectOrdersByEmail, type SubjectOrderRow } from './subject-requests.repository.js';
import type { renderSubjectAccess } from './subject-access-pdf.js';

/** More orders than one person plausibly has: the answer is cut there (and says so in the count). */
const MAX_ORDERS = 500;

/** The machine-readable export: what the JSON file holds and the PDF prints. */
export interface SubjectAccessExport {
  request: { email: string; generatedAt: string; generatedBy: string; orderCount: number };
  orders: (SubjectOrder & { details: OrderDetails })[];
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();
/**
 * The person as the audit and the access records name them: 'hmac:' and the hex HMAC-SHA256, under the search key
 * (keyring.keyedHash, as the passport index), of 'email:' and their normalized address. The same for every request
 * about one address, so they stay linkable; not a plain SHA-256, which anyone with a list of candidate addresses could
 * reverse. The search key is never replaced, so the name does not change with key rotation.
 */
export const subjectOf = (keyring: Keyring, email: string): string =>
  `hmac:${keyring.keyedHash(`email:${normalizeEmail(email)}`).toString('hex')}`;

function toSubjectOrder(row: SubjectOrderRow): SubjectOrder {
  return {
    orderId: row.order_id,
    createdAt: isoTime(row.created_at),
    landingSite: row.landing_site,
    status: row.process_status,
    ...(row.erased_at ? { erasedAt: isoTime(row.erased_at) } : {}),
    ...(row.legal_hold_at
      ? {
          legalHold: {
            heldAt: isoTime(row.legal_hold_at),
            heldBy: row.legal_hold_by_name ?? '',
            reason: row.legal_hold_reason ?? '',
          },
        }
      : {}),
    ...(row.open_dispute ? { openDispute: row.open_dispute } : {}),
    mails: row.mails,
    downloads: row.downloads,
    remarks: row.remarks,
  };
}

/** Why an erasure request for these orders would be refused now, or undefined. */
function erasureRefusal(rows: SubjectOrderRow[]): string | undefined {
  const disputed = rows.filter((r) => r.open_dispute && !r.erased_at);
  if (disputed.length === 0) return undefined;
  return (
    `Erasure refused while a dispute is open: ${disputed.map((r) => `order ${r.order_id} (dispute ${r.open_dispute})`).join(', ')}. ` +
    'Its evidence may still be needed; ask again once the dispute is decided.'
  );
}

export class SubjectRequestsService {
  private readonly render: typeof renderSubjectAccess;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly orderDetail: OrderDetailService,
    private readonly erasure: OrderErasure,
    workers: WorkerPool,
    private readonly keyring: Keyring,
  ) {
    // A person with many orders makes a long PDF: built off the event loop.
    this.render = workers.function(new URL('./subject-access-pdf.js', import.meta.url), 'renderSubjectAccess');
  }

  private async ordersOf(email: string): Promise<SubjectOrderRow[]> {
    return selectOrdersByEmail(this.db, normalizeEmail(email), MAX_ORDERS);
  }

  /** What the Admin screen shows before an export or an erasure: the orders found and whether erasure may go. */
  async summary(actor: Actor, email: string): Promise<SubjectSummary> {
    const rows = await this.ordersOf(email);
    await this.audit(actor, email, { format: 'summary', orders: rows.map((r) => r.order_id) });
    const refusal = erasureRefusal(rows);
    return {
      email: normalizeEmail(email),
      orders: rows.map(toSubjectOrder),
      ...(refusal ? { erasureRefusal: refusal } : {}),
    };
  }

  /** Every order of the person with its whole record, as the order detail page reads it (decrypted). */
  async export(actor: Actor, email: string, format: 'json' | 'pdf'): Promise<SubjectAccessExport> {
    const rows = await this.ordersOf(email);
    const orders: SubjectAccessExport['orders'] = [];
    for (const row of rows) {
      orders.push({ ...toSubjectOrder(row), details: await this.orderDetail.details(row.order_id) });
    }
    await this.audit(actor, email, { format, orders: rows.map((r) => r.order_id) });
    return {
      request: {
        email: normalizeEmail(email),
        generatedAt: new Date().toISOString(),
        generatedBy: actor.name ?? '',
        orderCount: orders.length,
      },
      orders,
    };
  }

  /** The JSON file, and the orders it holds (each gets an access record: plugins/access-records.ts). */
  async exportJson(actor: Actor, email: string): Promise<{ fileName: string; body: string; orderIds: string[] }> {
    const doc = await this.export(actor, email, 'json');
    return {
      fileName: `subject-access-${doc.request.generatedAt.slice(0, 10)}.json`,
      body: JSON.stringify(doc, null, 2),
      orderIds: doc.orders.map((o) => o.orderId),
    };
  }

  async exportPdf(actor: Actor, email: string): Promise<{ fileName: string; bytes: Uint8Array; orderIds: string[] }> {
    const doc = await this.export(actor, email, 'pdf');
    return {
      fileName: `subject-access-${doc.request.generatedAt.slice(0, 10)}.pdf`,
      bytes: await this.render(doc),
      orderIds: doc.orders.map((o) => o.orderId),
    };
  }

  /**
   * Erases the personal data of every order of the person at once, through retention's one erasure. Refused, with
   * nothing erased, while any of them has an open dispute; orders on legal hold are skipped with the reason.
   */
  async erase(actor: Actor, email: string): Promise<ErasureResult> {
    const rows = await this.ordersOf(email);
    if (rows.length === 0) throw new AppError('NOT_FOUND', 'No order has this e-mail address.');
    const refusal = erasureRefusal(rows);
    if (refusal) {
      await this.audit(actor, email, { erasure: 'refused', reason: refusal }, 'subject.erasure');
      throw new AppError('DISPUTE_OPEN', refusal);
    }
    const subject = this.subjectOf(email);
    const erased: string[] = [];
    const skipped: ErasureSkip[] = [];
    const freed: string[] = [];
    for (const row of rows) {
      const outcome = await this.erasure.erase(row.id, actor, { kind: 'request', subject });
      if (outcome.erased) {
        erased.push(outcome.orderId);
        freed.push(...outcome.freedFiles);
      } else {
        skipped.push({ orderId: outcome.orderId, site: row.landing_site, code: outcome.code, reason: outcome.reason });
      }
    }
    await this.erasure.deleteFiles(freed);
    await this.audit(actor, email, { erasure: 'done', erased, skipped }, 'subject.erasure');
    return { erased, skipped };
  }

  /** How the audit and the access records name the person with this address (never the address itself). */
  subjectOf(email: string): string {
    return subjectOf(this.keyring, email);
  }

  private audit(
    actor: Actor,
    email: string,
    after: object,
    action: AuditEntry['action'] = 'subject.access',
  ): Promise<void> {
    return writeAudit(this.db, actor, [{ action, target: this.subjectOf(email), after }]);
  }
}
