// Working a chargeback (issue 21): an order's disputes with their history, the evidence a defence pack answers
// (previewed, then sent to the gateway as a draft or for review), the Disputes report, and the gateway page's
// health lines. Evidence is sent at most once for review: the dispute row is locked, the gateway called, and only
// a call that succeeded is recorded (who, when, which pack) and audited.
import type { Kysely } from 'kysely';
import type {
  DefencePackDetails,
  DefencePackType,
  Dispute,
  DisputesReportBody,
  DisputesReportRow,
  EvidencePreview,
  GatewayHealth,
  UnmatchedEvent,
} from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { isoTime } from '../../lib/time.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { REPORT_STATEMENT_TIMEOUT_MS, withStatementTimeout } from '../../db/statement-budget.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import type { DefencePackService } from '../defence-pack/defence-pack.service.js';
import { findOrderKey } from '../order-detail/order-detail.repository.js';
import type { PaymentGateways } from './gateways.js';
import { GatewayError, type DisputeEvidence } from './payment-gateway.js';
import { insertDisputeHistory, selectGatewayRows, selectUnmatchedEvents } from './payments.repository.js';
import {
  lockDisputeEvidence,
  markEvidence,
  selectDisputeHistory,
  selectDisputes,
  selectDisputesReport,
  selectNewestDispute,
} from './disputes.repository.js';

const iso = (d: Date | null) => (d ? isoTime(d) : null);

/** The evidence fields a pack answers, by the desk's names, written from the pack's own facts. */
export function evidenceOf(pack: DefencePackDetails): Omit<DisputeEvidence, 'pdf'> {
  const { sale, agreement } = pack;
  const sent = pack.mails.filter((m) => m.state === 'sent');
  const approval = sent.find((m) => m.kind === 'approval');
  return {
    customerName: sale.customerName,
    customerEmail: sale.customerEmail,
    customerPurchaseIp: agreement.ipAddress ?? '',
    productDescription: `${sale.service} (${sale.processingType} processing), sold by ${sale.seller}, order ${pack.orderId}.`,
    serviceDate: (approval?.sentAt ?? sale.orderDate).slice(0, 10),
    accessActivityLog:
      pack.downloads.length === 0
        ? 'The customer has not downloaded the approved document yet.'
        : pack.downloads
            .map(
              (d) =>
                `${d.at} download from ${d.ip}${d.location ? ` (${d.location})` : ''}${d.browser ? `, ${d.browser}` : ''}${d.os ? ` on ${d.os}` : ''}`,
            )
            .join('\n'),
    refundPolicyDisclosure: `Agreed to legal texts version ${agreement.legalVersion}${agreement.signedAt ? ` and signed on ${agreement.signedAt}` : ''}${agreement.ipAddress ? ` from ${agreement.ipAddress}` : ''}.\n\n${agreement.feeText}\n\n${agreement.disclaimer}`,
    uncategorizedText: [
      `Order ${pack.orderId} placed ${sale.orderDate} for ${sale.amount} ${sale.currency}.`,
      approval
        ? `The approved travel authorisation was e-mailed to ${approval.to} on ${approval.sentAt} (${approval.provider} message ${approval.providerMessageId ?? 'id not given'}).`
        : 'No approval e-mail has been sent yet.',
      `${sent.length} e-mail(s) delivered in all; the document was downloaded ${pack.downloads.length} time(s).`,
      'The attached defence pack holds the order, the signed agreement, the e-mail and download histories and the approved document.',
    ].join('\n'),
  };
}

/** The evidence as the gateway names it (what the preview shows). */
function fieldsFor(gatewayName: string, e: Omit<DisputeEvidence, 'pdf'>): { name: string; value: string }[] {
  const names: [keyof typeof e, string, string][] = [
    ['customerName', 'customer_name', 'Customer name'],
    ['customerEmail', 'customer_email_address', 'Customer e-mail'],
    ['customerPurchaseIp', 'customer_purchase_ip', 'Purchase IP'],
    ['productDescription', 'product_description', 'Product description'],
    ['serviceDate', 'service_date', 'Service date'],
    ['accessActivityLog', 'access_activity_log', 'Access activity log'],
    ['refundPolicyDisclosure', 'refund_policy_disclosure', 'Refund policy disclosure'],
    ['uncategorizedText', 'uncategorized_text', 'Delivery summary'],
  ];
  return names.map(([key, stripeName, label]) => ({
    name: gatewayName === 'Stripe' ? stripeName : label,
    value: e[key],
  }));
}

export class DisputesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly gateways: PaymentGateways,
    private readonly packs: DefencePackService,
    private readonly publicUrl: string,
  ) {}

  /** An order's disputes, newest first, each with its history (oldest first). */
  async forOrder(rawOrderId: string): Promise<Dispute[]> {
    const orderId = normalizeOrderId(rawOrderId);
    const order = await findOrderKey(this.db, orderId);
    if (!order) throw new AppError('ORDER_NOT_FOUND', `Order ${orderId} was not found.`);
    const rows = await selectDisputes(this.db, order.id);
    const history = await selectDisputeHistory(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      gateway_name: r.gateway_name,
      dispute_id: r.dispute_id,
      reason: r.reason,
      amount_cents: r.amount_cents,
      currency: r.currency,
      status: r.status,
      evidence_due_by: iso(r.evidence_due_by),
      outcome: r.outcome,
      outcome_at: iso(r.outcome_at),
      evidence_state: r.evidence_state,
      evidence_pack_type: r.evidence_pack_type,
      evidence_by: r.evidence_by,
      evidence_at: iso(r.evidence_at),
      created_at: isoTime(r.created_at),
      history: history
        .filter((h) => Number(h.dispute_id) === Number(r.id))
        .map((h) => ({ at: isoTime(h.at), status: h.status, outcome: h.outcome, by: h.by_name, note: h.note })),
    }));
  }

  /** The order's open dispute the desk may answer (the newest), or a clear refusal. */
  private async openDispute(rawOrderId: string) {
    const orderId = normalizeOrderId(rawOrderId);
    const row = await selectNewestDispute(this.db, orderId);
    if (!row) throw new AppError('ORDER_NOT_FOUND', `Order ${orderId} was not found.`);
    if (row.id === null || !row.gateway_name || !row.dispute_id) {
      throw new AppError(
        'NO_DISPUTE',
        `Order ${orderId} has no dispute from a payment gateway: there is nothing to answer.`,
      );
    }
    const gateway = this.gateways.get(row.gateway_name);
    if (!gateway?.supports.disputes) {
      throw new AppError(
        'GATEWAY_NOT_CONFIGURED',
        `${row.gateway_name} takes no evidence through the desk: answer it in ${row.gateway_name}'s own dashboard.`,
      );
    }
    return { ...row, id: Number(row.id), gateway, dispute_id: row.dispute_id };
  }

  async preview(rawOrderId: string, type: DefencePackType): Promise<EvidencePreview> {
    const dispute = await this.openDispute(rawOrderId);
    const pack = await this.packs.details(dispute.order_id, type);
    return {
      gateway_name: dispute.gateway.name,
      dispute_id: dispute.dispute_id,
      fields: fieldsFor(dispute.gateway.name, evidenceOf(pack)),
      fileName: `defence-pack-${type}-${dispute.order_id}.pdf`,
      drafts: dispute.gateway.supports.drafts,
    };
  }

  /** The PDF Submit evidence would upload. */
  async previewPdf(rawOrderId: string, type: DefencePackType): Promise<{ fileName: string; bytes: Uint8Array }> {
    const dispute = await this.openDispute(rawOrderId);
    return this.packs.pdf(dispute.order_id, type);
  }

  async submit(actor: Actor, rawOrderId: string, type: DefencePackType, submit: boolean): Promise<Dispute> {
    const found = await this.openDispute(rawOrderId);
    if (found.evidence_state === 'submitted') {
      throw new AppError(
        'EVIDENCE_SUBMITTED',
        `The evidence for dispute ${found.dispute_id} was already submitted; ${found.gateway.name} is reviewing it and it cannot be sent again.`,
      );
    }
    if (found.outcome) {
      throw new AppError(
        'EVIDENCE_SUBMITTED',
        `Dispute ${found.dispute_id} is closed (${found.outcome}): there is nothing to submit.`,
      );
    }
    if (!found.gateway.configured) {
      throw new AppError(
        'GATEWAY_NOT_CONFIGURED',
        `${found.gateway.name} is not configured on this server: ${found.gateway.note ?? ''}`,
      );
    }
    const [pack, pdf] = await Promise.all([
      this.packs.details(found.order_id, type),
      this.packs.pdf(found.order_id, type),
    ]);
    // One submission at a time per dispute: the row stays locked while the gateway is asked.
    await this.db.transaction().execute(async (trx) => {
      const locked = await lockDisputeEvidence(trx, found.id);
      if (locked.evidence_state === 'submitted') {
        throw new AppError(
          'EVIDENCE_SUBMITTED',
          `The evidence for dispute ${found.dispute_id} was already submitted and cannot be sent again.`,
        );
      }
      try {
        await found.gateway.submitEvidence(found.dispute_id, { ...evidenceOf(pack), pdf }, submit);
      } catch (err) {
        if (err instanceof GatewayError) {
          throw new AppError('GATEWAY_ERROR', err.message);
        }
        throw err;
      }
      const state = submit ? 'submitted' : 'draft';
      await markEvidence(trx, found.id, { state, packType: type, by: actor.id });
      const note = submit
        ? `Evidence (defence pack ${type}) submitted to ${found.gateway.name} for review.`
        : `Evidence (defence pack ${type}) saved at ${found.gateway.name} as a draft.`;
      await insertDisputeHistory(trx, {
        disputeId: found.id,
        status: locked.status,
        outcome: null,
        by: actor.name ?? 'Staff',
        note,
      });
      await writeAudit(trx, actor, [
        {
          action: submit ? 'dispute.evidence-submitted' : 'dispute.evidence-saved',
          orderId: found.order_key,
          target: found.order_id,
          before: { evidence_state: found.evidence_state },
          after: {
            evidence_state: state,
            dispute: found.dispute_id,
            gateway: found.gateway.name,
            defencePackType: type,
          },
        },
      ]);
    });
    return (await this.forOrder(found.order_id)).find((d) => d.dispute_id === found.dispute_id)!;
  }

  /** Opened, won, lost and open disputes per month opened, landing site, gateway and reason. */
  async report(filter: DisputesReportBody): Promise<{
    rows: DisputesReportRow[];
    totals: Omit<DisputesReportRow, 'month' | 'landing_site' | 'gateway_name' | 'reason'>;
  }> {
    // A report: seconds, not a list's budget (db/statement-budget.ts).
    const rows = await withStatementTimeout(REPORT_STATEMENT_TIMEOUT_MS, () => selectDisputesReport(this.db, filter));
    const rate = (won: number, lost: number) =>
      won + lost === 0 ? null : Math.round((won / (won + lost)) * 1000) / 1000;
    const sum = (key: 'opened' | 'won' | 'lost' | 'open') => rows.reduce((n, r) => n + r[key], 0);
    return {
      rows: rows.map((r) => ({ ...r, win_rate: rate(r.won, r.lost) })),
      totals: {
        opened: sum('opened'),
        won: sum('won'),
        lost: sum('lost'),
        open: sum('open'),
        win_rate: rate(sum('won'), sum('lost')),
      },
    };
  }

  /** The gateway page: each gateway's configuration, webhook URL and last webhook and error; never a secret. */
  async health(): Promise<GatewayHealth[]> {
    const rows = await selectGatewayRows(this.db);
    return rows.map((r) => {
      const gateway = this.gateways.get(r.gateway_name);
      const webhooks = gateway?.supports.webhooks ?? false;
      return {
        gateway_name: r.gateway_name,
        configured: gateway?.configured ?? false,
        verifiesPayments: gateway?.supports.verify ?? false,
        refunds: gateway?.supports.refund ?? false,
        disputes: gateway?.supports.disputes ?? false,
        webhookUrl: webhooks ? `${this.publicUrl}/api/webhooks/${r.gateway_name.toLowerCase()}` : null,
        lastWebhookAt: iso(r.last_webhook_at),
        lastWebhookVerified: r.last_webhook_verified,
        lastError: r.last_error,
        lastErrorAt: iso(r.last_error_at),
        note: gateway ? gateway.note : 'The desk has no adapter for this gateway.',
      };
    });
  }

  async unmatchedEvents(page: number, limit: number): Promise<{ rows: UnmatchedEvent[]; total: number }> {
    const { rows, total } = await selectUnmatchedEvents(this.db, (page - 1) * limit, limit);
    return { rows: rows.map((r) => ({ ...r, received_at: isoTime(r.received_at) })), total };
  }
}
