// Defence packs (spec §2 "Order detail" Defence Pack 1 and 2, §4, DESIGN §5): the evidence that the service
// was ordered, agreed to, delivered and used, for a disputed charge. Only for Completed, Customer Called or ChargeBack
// orders (EVIDENCE_STATUSES). One statement reads the dispute file, the document store gives the signature and the approved
// document, and the same facts become the PDF or the JSON. Building a pack is a read: it is not audited. A store that
// fails or does not answer (issue 32) makes no pack at all, rather than one that leaves out evidence it holds.
import type { Kysely } from 'kysely';
import { EVIDENCE_STATUSES, STATUS_LABELS, type DefencePackDetails, type DefencePackType } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { DocumentStoreUnavailableError, type DocumentStore } from '../../lib/storage/document-store.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { DEFAULT_WORKER_LIMITS, WorkerLimitError, type WorkerPool } from '../../lib/workers/worker-pool.js';
import { selectEvidence, type EvidenceRow } from './defence-pack.repository.js';
import { defencePackFacts } from './defence-pack.facts.js';
import type { renderDefencePack } from './defence-pack-pdf.js';

export class DefencePackService {
  /** The PDF is made in the worker pool: the approved document in it is an untrusted PDF (issue 22). */
  private readonly render: typeof renderDefencePack;
  private readonly renderWithoutDocument: typeof renderDefencePack;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: DocumentStore,
    workers: WorkerPool,
  ) {
    const module = new URL('./defence-pack-pdf.js', import.meta.url);
    this.render = workers.function(module, 'renderDefencePack');
    // The pack without the approved document holds only the desk's own facts and the signature image (small, checked
    // by content at intake): bounded work, under the default cap rather than the one set for untrusted documents (a
    // test's 250 ms failed it in CI, on a loaded machine: a fresh thread's first pack took longer).
    this.renderWithoutDocument = workers.function(module, 'renderDefencePack', {
      timeoutMs: DEFAULT_WORKER_LIMITS.timeoutMs,
    });
  }

  async details(rawOrderId: string, type: DefencePackType): Promise<DefencePackDetails> {
    const row = await this.disputeFile(rawOrderId);
    const signatureOnFile = row.customer_sign
      ? await this.fromStore(() => this.store.exists(row.customer_sign!))
      : false;
    return defencePackFacts(row, type, signatureOnFile, new Date());
  }

  async pdf(rawOrderId: string, type: DefencePackType): Promise<{ fileName: string; bytes: Uint8Array }> {
    const row = await this.disputeFile(rawOrderId);
    const [signature, approved] = await Promise.all([
      this.readIfStored(row.customer_sign),
      this.readIfStored(row.documents[0]?.storage_key),
    ]);
    const facts = defencePackFacts(row, type, signature !== undefined, new Date());
    let bytes: Uint8Array;
    try {
      bytes = await this.render(facts, { signature, approved });
    } catch (err) {
      // The approved document took the job past its limits: the pack is made without it and says why.
      if (!(err instanceof WorkerLimitError) || !approved) throw err;
      bytes = await this.renderWithoutDocument(facts, {
        signature,
        approvedLeftOut: `reproducing it ${err.message}, more than this pack allows`,
      });
    }
    return { fileName: `defence-pack-${type}-${facts.orderId}.pdf`, bytes };
  }

  private async disputeFile(rawOrderId: string): Promise<EvidenceRow> {
    const row = await selectEvidence(this.db, normalizeOrderId(rawOrderId));
    if (!row) throw new AppError('ORDER_NOT_FOUND', `Order ${rawOrderId.trim()} was not found.`);
    if (!EVIDENCE_STATUSES.includes(row.process_status)) {
      throw new AppError(
        'WRONG_STATUS',
        `Defence packs are available only for Completed, Customer Called or Charge Back orders; order ${row.order_id} is ${STATUS_LABELS[row.process_status]}.`,
      );
    }
    return row;
  }

  /** A file the pack prints if the store holds it; a missing one is said so in the pack, not an error. */
  private async readIfStored(key: string | null | undefined): Promise<Buffer | undefined> {
    if (!key) return undefined;
    try {
      return await this.fromStore(() => this.store.read(key));
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return undefined;
      throw err;
    }
  }

  /** A call to the store; one that finds it unavailable says the pack cannot be made now, and what to do. */
  private async fromStore<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof DocumentStoreUnavailableError)) throw err;
      throw err.saying(
        'The defence pack cannot be made now: the document store, which holds the signature and the approved ' +
          'document it shows, is not answering. Please try again in a minute; if it keeps failing, tell your administrator.',
      );
    }
  }
}
