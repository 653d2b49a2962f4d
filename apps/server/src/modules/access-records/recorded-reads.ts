// The one list of staff calls whose answer carries an order's personal data (issue 24): the detail (sensitive fields,
// personal-data/personal-fields.ts), defence packs (the signature and the approved document in the PDF, the
// customer's facts in the JSON), the evidence sent to a gateway (the same pack, uploaded), the signature image, and a
// subject-access export (every order of one e-mail address, decrypted). Each such call answered with success writes
// one access record per order it opened (plugins/access-records.ts). Lists, searches and counts show no sensitive
// field and are not here; a CSV export records itself in its service, which alone knows how many rows it wrote.
import type { FastifyRequest } from 'fastify';
import { normalizeOrderId } from '../../lib/order-id.js';
import type { AccessRead } from './access-record-writer.js';

/** What the answer opened: one read, or one per order (a subject-access export). */
type Describe = (request: FastifyRequest) => AccessRead | AccessRead[];

const param = (request: FastifyRequest, name: string): string =>
  normalizeOrderId(String((request.params as Record<string, unknown>)[name] ?? ''));
const body = (request: FastifyRequest) => request.body as { orderId: string; defencePackType: number };
const query = (request: FastifyRequest) => request.query as { defencePackType: number };
/** Submit evidence's pack, sent to the gateway (submitted, or kept there as a draft). */
const evidenceSent = (request: FastifyRequest) => {
  const { defencePackType, submit } = request.body as { defencePackType: number; submit: boolean };
  return `Defence Pack ${defencePackType} (evidence ${submit ? 'submitted to' : 'saved as a draft at'} the gateway)`;
};
/** Whose data, as the request's audit row names it (subject.access: a keyed hash of the e-mail, never the address). */
const subjectOf = (request: FastifyRequest) =>
  request.server.services.subjectRequests.subjectOf((request.body as { email: string }).email);

/**
 * A subject-access export: one record on each order it held (the handler names them in `request.readOrders`), so
 * each order's "Viewed by" shows it and the unusual-reading check counts them; each names whose data it was. An
 * export that found no order still leaves one record, without an order, on the Activity page.
 */
const subjectExport =
  (format: 'JSON' | 'PDF'): Describe =>
  (r) => {
    const detail = `Subject-access export (${format}) of ${subjectOf(r)}`;
    const orders = r.readOrders ?? [];
    if (orders.length === 0) return { orderId: null, kind: 'export', detail };
    return orders.map((orderId) => ({ orderId, kind: 'export' as const, detail }));
  };

/** "METHOD /route" as registered → what its answer opened. */
export const RECORDED_READS: Readonly<Record<string, Describe>> = {
  'GET /api/admin/get-orders-details/:orderId': (r) => ({ orderId: param(r, 'orderId'), kind: 'detail', detail: null }),
  'POST /api/admin/get-defence-pack-pdf': (r) => ({
    orderId: normalizeOrderId(body(r).orderId),
    kind: 'defence-pack',
    detail: `Defence Pack ${body(r).defencePackType} (PDF)`,
  }),
  'POST /api/admin/defence-pack-details': (r) => ({
    orderId: normalizeOrderId(body(r).orderId),
    kind: 'defence-pack',
    detail: `Defence Pack ${body(r).defencePackType} (details)`,
  }),
  'GET /api/admin/disputes/:orderId/evidence': (r) => ({
    orderId: param(r, 'orderId'),
    kind: 'defence-pack',
    detail: `Defence Pack ${query(r).defencePackType} (evidence preview)`,
  }),
  'GET /api/admin/disputes/:orderId/evidence.pdf': (r) => ({
    orderId: param(r, 'orderId'),
    kind: 'defence-pack',
    detail: `Defence Pack ${query(r).defencePackType} (evidence PDF)`,
  }),
  // Submit evidence: the pack (signature, approved document, the customer's facts) is built and sent to the gateway.
  'POST /api/admin/disputes/:orderId/evidence': (r) => ({
    orderId: param(r, 'orderId'),
    kind: 'defence-pack',
    detail: evidenceSent(r),
  }),
  'GET /api/admin/order-signature/:orderId': (r) => ({
    orderId: param(r, 'orderId'),
    kind: 'document',
    detail: 'Signature image',
  }),
  'POST /api/admin/subject-requests/export.json': subjectExport('JSON'),
  'POST /api/admin/subject-requests/export.pdf': subjectExport('PDF'),
};
