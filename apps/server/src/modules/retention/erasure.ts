// Erasing one order's personal data (issue 24): the one function the daily retention job and an erasure request
// both call. The database part is one transaction per order (locked, checked, erased, audited), so no order is ever
// half erased; the files it freed are deleted from the document store after the commit. A file whose deletion fails
// (or whose process is killed first) stays in retention_file_deletions and is deleted by the next run.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { DocumentStore } from '../../lib/storage/document-store.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { changedBy, type ChangedOrder, type OrderEventsPublisher } from '../events/order-events.publisher.js';
import {
  eraseOrderRows,
  forgetFileDeletion,
  lockOrderForErasure,
  lockRunClaim,
  queueFileDeletions,
  recordFileDeletionFailure,
  selectDocumentKeys,
  selectOpenDisputes,
  selectPendingFileDeletions,
  selectUnreferencedKeys,
  type RunClaim,
} from './retention.repository.js';

/** Why an order was not erased: a code the screens branch on and the reason in words. */
export interface ErasureSkip {
  code: 'LEGAL_HOLD' | 'DISPUTE_OPEN' | 'ALREADY_ERASED' | 'ORDER_NOT_FOUND';
  reason: string;
}

export type ErasureOutcome =
  { erased: true; orderId: string; freedFiles: string[] } | ({ erased: false; orderId: string } & ErasureSkip);

/**
 * What caused an erasure: the retention job (with its run) or a customer's erasure request, with the person as the
 * request's audit names them (subject: a keyed hash of the e-mail, subject-requests' subjectOf; never the address).
 */
export type ErasureCause = { kind: 'retention'; runId: number; claim: RunClaim } | { kind: 'request'; subject: string };

/** The retention run this erasure belongs to was taken over by another process: nothing was erased. */
export class RunTakenOver extends Error {}

export interface FileDeletionResult {
  deleted: number;
  failed: number;
}

export class OrderErasure {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: DocumentStore,
    private readonly orderEvents: OrderEventsPublisher,
  ) {}

  /**
   * Erases the order's personal data in one transaction, unless a legal hold or an open dispute keeps it (checked
   * under the order's lock, so a hold placed a moment before counts). Files are not touched here: the caller
   * deletes `freedFiles` after this returns (deleteFiles), so a batch needs no store call inside a transaction.
   */
  async erase(orderKey: number, actor: Actor, cause: ErasureCause): Promise<ErasureOutcome> {
    let changed: ChangedOrder | undefined;
    const outcome = await this.db.transaction().execute(async (trx): Promise<ErasureOutcome> => {
      // A retention run's erasure commits only while its process still holds the run: one taken for dead and taken
      // over erases nothing more (the claim is locked against takeover until this commits).
      if (cause.kind === 'retention' && !(await lockRunClaim(trx, cause.claim))) throw new RunTakenOver();
      const order = await lockOrderForErasure(trx, orderKey);
      if (!order) return { erased: false, orderId: String(orderKey), code: 'ORDER_NOT_FOUND', reason: 'not found' };
      const orderId = order.order_id;
      if (order.erased_at) {
        return { erased: false, orderId, code: 'ALREADY_ERASED', reason: 'its personal data is already erased' };
      }
      if (order.legal_hold_at) {
        return { erased: false, orderId, code: 'LEGAL_HOLD', reason: `on legal hold: ${order.legal_hold_reason}` };
      }
      const [dispute] = await selectOpenDisputes(trx, [order.id]);
      if (dispute) {
        return {
          erased: false,
          orderId,
          code: 'DISPUTE_OPEN',
          reason: `dispute ${dispute.dispute_id} is open (${dispute.status})`,
        };
      }
      const documents = await selectDocumentKeys(trx, order.id);
      const keys = [
        ...new Set([...documents.map((d) => d.storage_key), ...(order.customer_sign ? [order.customer_sign] : [])]),
      ];
      const now = new Date();
      const version = await eraseOrderRows(trx, order.id, now);
      const freedFiles = await selectUnreferencedKeys(trx, keys);
      await queueFileDeletions(trx, freedFiles);
      await writeAudit(trx, actor, [
        {
          action: 'order.erase',
          orderId: order.id,
          target: order.order_id,
          after: {
            cause: cause.kind,
            ...(cause.kind === 'retention' ? { run: cause.runId } : { subject: cause.subject }),
            filesFreed: freedFiles.length,
            version,
          },
        },
      ]);
      changed = { orderId, version, status: order.process_status };
      return { erased: true, orderId, freedFiles };
    });
    // A page still showing the order's personal data is told that it is gone.
    if (changed) this.orderEvents.changed([changed], changedBy(actor));
    return outcome;
  }

  /** Deletes files freed by erasures (these keys, or every one still waiting); a failure is kept for the next run. */
  async deleteFiles(keys?: string[]): Promise<FileDeletionResult> {
    const pending = keys ?? (await selectPendingFileDeletions(this.db, 1000)).map((r) => r.storage_key);
    const result: FileDeletionResult = { deleted: 0, failed: 0 };
    for (const key of pending) {
      try {
        await this.store.delete(key);
        await forgetFileDeletion(this.db, key);
        result.deleted += 1;
      } catch (err) {
        result.failed += 1;
        const message = err instanceof Error ? err.message : String(err);
        await recordFileDeletionFailure(this.db, key, message);
      }
    }
    return result;
  }
}
