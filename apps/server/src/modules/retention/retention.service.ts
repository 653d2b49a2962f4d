// Retention (issue 24): each landing site's policy, the retention job that erases the personal data of orders past
// it, and legal holds. The job walks the orders in id order in batches, erasing each through OrderErasure (one
// transaction per order) and recording its progress after each batch, so a run killed at any point is continued by
// the next from the last order it reached and nothing is half erased. One erasing run at a time across servers: a
// unique key on the running run's row; a run whose process stopped beating for staleAfterMs is taken over, and the
// orders its last batch erased before the process died are found by their erasures' audit rows. A dry run
// walks the same orders and writes only its own run row with the report.
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type {
  ErasureSkip,
  LegalHold,
  RetentionOverview,
  RetentionPolicy,
  RetentionReport,
  RetentionRun,
} from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { isoTime } from '../../lib/time.js';
import { normalizeOrderId } from '../../lib/order-id.js';
import { outsideRequest, RETENTION_STATEMENT_TIMEOUT_MS, withStatementTimeout } from '../../db/statement-budget.js';
import { isDatabaseUnavailable } from '../../db/connection-errors.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { RunTakenOver, type OrderErasure } from './erasure.js';
import {
  beat,
  claimStaleRun,
  failStaleDryRuns,
  finishRun,
  handOverRun,
  insertRun,
  isUniqueViolation,
  lockOrderForHold,
  lockPolicy,
  recordProgress,
  selectDailyRunSince,
  selectDueOrders,
  selectErasedPastProgress,
  selectPolicies,
  selectRecentRuns,
  selectRun,
  selectRunningRun,
  setLegalHold,
  updatePolicy,
  type RunClaim,
  type RunRow,
} from './retention.repository.js';

export interface RetentionOptions {
  /** Orders per batch: progress is recorded after each (RETENTION_BATCH_SIZE). */
  batchSize: number;
  /**
   * A running run not heard of for this long is taken to be dead and may be continued by another process
   * (RETENTION_STALE_SECONDS); longer than a batch ever takes.
   */
  staleAfterMs: number;
}

/** Orders and skips a report lists at most (the counts per site are always complete). */
const REPORT_LIST_LIMIT = 500;

/** Who the daily job's erasures are audited as. */
const DAILY_ACTOR: Actor = { id: null, name: 'Retention job', ip: '127.0.0.1' };

const emptyReport = (): RetentionReport => ({ bySite: [], orders: [], skips: [], truncated: false });

function toRun(row: RunRow): RetentionRun {
  return {
    id: row.id,
    dryRun: row.dry_run,
    trigger: row.trigger,
    ...(row.started_by_name ? { startedBy: row.started_by_name } : {}),
    startedAt: isoTime(row.started_at),
    cutoffAt: isoTime(row.cutoff_at),
    heartbeatAt: isoTime(row.heartbeat_at),
    ...(row.finished_at ? { finishedAt: isoTime(row.finished_at) } : {}),
    state: row.state,
    lastOrderKey: row.last_order_key,
    erased: row.erased,
    skipped: row.skipped,
    filesDeleted: row.files_deleted,
    fileFailures: row.file_failures,
    resumed: row.resumed,
    ...(row.report ? { report: row.report as RetentionReport } : {}),
    ...(row.error ? { error: row.error } : {}),
  };
}

/** The order's legal hold as the screens show it, from its order row. */
export function legalHoldOf(row: {
  legal_hold_at: Date | string | null;
  legal_hold_by_name: string | null;
  legal_hold_reason: string | null;
}): LegalHold | undefined {
  return row.legal_hold_at
    ? { heldAt: isoTime(row.legal_hold_at), heldBy: row.legal_hold_by_name ?? '', reason: row.legal_hold_reason ?? '' }
    : undefined;
}

class ReportBuilder {
  readonly report: RetentionReport;

  constructor(start?: RetentionReport) {
    this.report = start ?? emptyReport();
  }

  private site(site: string) {
    let entry = this.report.bySite.find((s) => s.site === site);
    if (!entry) {
      entry = { site, erased: 0, skipped: 0 };
      this.report.bySite.push(entry);
      this.report.bySite.sort((a, b) => a.site.localeCompare(b.site));
    }
    return entry;
  }

  erased(orderId: string, site: string, dueFrom: string) {
    this.site(site).erased += 1;
    if (this.report.orders.length < REPORT_LIST_LIMIT) this.report.orders.push({ orderId, site, dueFrom });
    else this.report.truncated = true;
  }

  skipped(skip: ErasureSkip & { site: string }) {
    this.site(skip.site).skipped += 1;
    if (this.report.skips.length < REPORT_LIST_LIMIT) this.report.skips.push(skip);
    else this.report.truncated = true;
  }
}

export class RetentionService {
  /** Runs this process is working on (shutdown and tests wait for them). */
  private readonly active = new Set<Promise<unknown>>();
  /** Whether this process is erasing (a second "Run now" here is refused at once). */
  private erasing = false;
  /** Set on shutdown: a run stops after its current batch and is handed over at once. */
  private stopping = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly erasure: OrderErasure,
    private readonly log: FastifyBaseLogger,
    private readonly options: RetentionOptions,
  ) {}

  async overview(): Promise<RetentionOverview> {
    await failStaleDryRuns(this.db, this.options.staleAfterMs);
    const [policies, runs] = await Promise.all([selectPolicies(this.db), selectRecentRuns(this.db, 20)]);
    return {
      policies: policies.map((p) => ({
        key: p.key,
        displayName: p.display_name,
        months: p.personal_data_retention_months,
      })),
      runs: runs.map(toRun),
    };
  }

  async run(id: number): Promise<RetentionRun> {
    const row = await selectRun(this.db, id);
    if (!row) throw new AppError('NOT_FOUND', `Retention run ${id} was not found.`);
    return toRun(row);
  }

  async updatePolicy(actor: Actor, key: string, months: number): Promise<RetentionPolicy> {
    return this.db.transaction().execute(async (trx) => {
      const site = await lockPolicy(trx, key);
      if (!site) throw new AppError('NOT_FOUND', `Landing site ${key} was not found.`);
      if (site.personal_data_retention_months !== months) {
        await updatePolicy(trx, key, months);
        await writeAudit(trx, actor, [
          {
            action: 'retention.policy',
            target: key,
            before: { personal_data_retention_months: site.personal_data_retention_months },
            after: { personal_data_retention_months: months },
          },
        ]);
      }
      const [policy] = (await selectPolicies(trx)).filter((p) => p.key === key);
      return { key, displayName: policy!.display_name, months };
    });
  }

  /**
   * "Dry run" or "Run now" from the Admin screen: the run starts (or a dead run is continued) and goes on in the
   * background; the answer is its row, which the screen polls. Refused while another erasing run is alive.
   */
  async start(actor: Actor, dryRun: boolean): Promise<RetentionRun> {
    const run = await this.claim({ dryRun, trigger: 'manual', actor });
    if (!run) {
      throw new AppError('RETENTION_RUNNING', 'A retention run is already going on; wait for it to finish.');
    }
    await writeAudit(this.db, actor, [
      { action: 'retention.run', target: String(run.id), after: { dryRun, resumed: run.resumed > 0 } },
    ]);
    // The run outlives the request that started it: its statements are not that request's to cancel.
    outsideRequest(() => this.execute(run, actor)).catch((err: unknown) =>
      this.log.error({ err }, 'retention run failed'),
    );
    return toRun(run);
  }

  /** Waits for the runs this process is working on (tests). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.active]);
  }

  /** Shutdown: a run in progress stops after its batch and is left for another process to continue at once. */
  async close(): Promise<void> {
    this.stopping = true;
    await this.settled();
  }

  /**
   * The daily job (housekeeping, every hour in every process): continues a run whose process died, else starts
   * the day's run unless one started today (UTC). Returns the run it worked on, if any.
   */
  async runDaily(now = new Date()): Promise<RetentionRun | undefined> {
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const running = await selectRunningRun(this.db);
    if (!running && (await selectDailyRunSince(this.db, dayStart))) return undefined;
    const run = await this.claim({ dryRun: false, trigger: 'daily', actor: null });
    if (!run) return undefined;
    return this.execute(run, DAILY_ACTOR);
  }

  /**
   * Runs to the end in this call (tests and the CLI); `stopAfterBatches` leaves the run as a killed process would,
   * still marked running after that many batches.
   */
  async runNow(
    actor: Actor | null,
    dryRun: boolean,
    opts: { stopAfterBatches?: number } = {},
  ): Promise<RetentionRun | undefined> {
    const run = await this.claim({ dryRun, trigger: actor ? 'manual' : 'daily', actor });
    if (!run) return undefined;
    return this.execute(run, actor ?? DAILY_ACTOR, opts.stopAfterBatches);
  }

  /** A new run's row, or the dead erasing run's row taken over; undefined when a live run is erasing. */
  private async claim(req: { dryRun: boolean; trigger: 'daily' | 'manual'; actor: Actor | null }) {
    const values = {
      dryRun: req.dryRun,
      trigger: req.trigger,
      startedBy: req.actor?.id ?? null,
      startedByName: req.actor?.name ?? null,
      cutoff: new Date(),
    };
    if (req.dryRun) return insertRun(this.db, values);
    if (this.erasing) return undefined;
    const running = await selectRunningRun(this.db);
    if (running) return claimStaleRun(this.db, running.id, this.options.staleAfterMs);
    try {
      return await insertRun(this.db, values);
    } catch (err) {
      if (isUniqueViolation(err)) return undefined; // another process started one a moment ago
      throw err;
    }
  }

  /**
   * Works on a run until it ends (or stops), counted among this process's active runs meanwhile. Under the job's own
   * statement budget (db/statement-budget.ts): a batch read may walk the orders table to its end.
   */
  private execute(run: RunRow, actor: Actor, stopAfterBatches?: number): Promise<RetentionRun> {
    if (!run.dry_run) this.erasing = true;
    const walking = withStatementTimeout(RETENTION_STATEMENT_TIMEOUT_MS, () => this.walk(run, actor, stopAfterBatches));
    const working = walking.finally(() => {
      if (!run.dry_run) this.erasing = false;
      this.active.delete(working);
    });
    this.active.add(working);
    return working;
  }

  private async walk(run: RunRow, actor: Actor, stopAfterBatches?: number): Promise<RetentionRun> {
    const report = new ReportBuilder(run.report ? (run.report as RetentionReport) : undefined);
    const claim: RunClaim = { id: run.id, resumed: run.resumed };
    let last = run.last_order_key;
    let batches = 0;
    // Beats between batches too, so a slow batch (lock waits, a slow store) never looks dead. Should this process
    // still be taken for dead (a long pause), its next erasure or progress record finds the claim gone and it stops.
    const heartbeat = setInterval(
      () => {
        beat(this.db, claim).catch((err: unknown) => this.log.warn({ err, run: run.id }, 'retention heartbeat failed'));
      },
      Math.max(1_000, this.options.staleAfterMs / 3),
    );
    heartbeat.unref();
    try {
      // A run taken over from a process that died: what its last batch erased before it could record that is
      // counted with this process's first batch, in one progress record, so a second death counts nothing twice.
      let unrecorded = run.resumed > 0 && !run.dry_run ? await selectErasedPastProgress(this.db, run) : [];
      for (;;) {
        const due = await selectDueOrders(this.db, last, run.cutoff_at, this.options.batchSize);
        if (due.length === 0 && unrecorded.length === 0) break;
        let erased = unrecorded.length;
        let skipped = 0;
        const freed: string[] = [];
        for (const order of unrecorded) report.erased(order.order_id, order.landing_site, order.due_from);
        for (const order of due) {
          const skip = order.held
            ? ({ code: 'LEGAL_HOLD', reason: 'on legal hold' } as const)
            : order.disputed
              ? ({ code: 'DISPUTE_OPEN', reason: 'a dispute is open' } as const)
              : undefined;
          if (skip || run.dry_run) {
            if (skip) {
              skipped += 1;
              report.skipped({ orderId: order.order_id, site: order.landing_site, ...skip });
            } else report.erased(order.order_id, order.landing_site, order.due_from);
            continue;
          }
          const outcome = await this.erasure.erase(order.id, actor, { kind: 'retention', runId: run.id, claim });
          if (outcome.erased) {
            erased += 1;
            freed.push(...outcome.freedFiles);
            report.erased(order.order_id, order.landing_site, order.due_from);
          } else if (outcome.code !== 'ALREADY_ERASED') {
            skipped += 1;
            report.skipped({
              orderId: order.order_id,
              site: order.landing_site,
              code: outcome.code,
              reason: outcome.reason,
            });
          }
        }
        const files = freed.length > 0 ? await this.erasure.deleteFiles(freed) : { deleted: 0, failed: 0 };
        last = Math.max(last, due.at(-1)?.id ?? 0, unrecorded.at(-1)?.id ?? 0);
        unrecorded = [];
        const recorded = await recordProgress(this.db, claim, {
          lastOrderKey: last,
          erased,
          skipped,
          filesDeleted: files.deleted,
          fileFailures: files.failed,
          report: report.report,
        });
        if (!recorded) throw new RunTakenOver();
        batches += 1;
        if (stopAfterBatches !== undefined && batches >= stopAfterBatches) return this.run(run.id);
        if (this.stopping) {
          await handOverRun(this.db, claim);
          return this.run(run.id);
        }
      }
      // Files an earlier run could not delete (or freed just before a process died) are tried again.
      if (!run.dry_run) {
        const retried = await this.erasure.deleteFiles();
        if (retried.deleted + retried.failed > 0) {
          await recordProgress(this.db, claim, {
            lastOrderKey: last,
            erased: 0,
            skipped: 0,
            filesDeleted: retried.deleted,
            fileFailures: retried.failed,
            report: report.report,
          });
        }
      }
      const done = await finishRun(this.db, claim, { state: 'finished', report: report.report });
      if (!done) throw new RunTakenOver();
      if (!run.dry_run)
        this.log.info({ run: run.id, erased: done.erased, skipped: done.skipped }, 'retention run done');
      return toRun(done);
    } catch (err) {
      if (err instanceof RunTakenOver) {
        // Taken for dead while it paused: the process that took the run over goes on with it; this one stops.
        this.log.warn({ run: run.id }, 'retention run taken over by another process; this one stops');
        return this.run(run.id);
      }
      // The database went away mid-run (a restart, issue 32): the run is not failed but left running, to be continued
      // from its last recorded batch once its heartbeat is stale (the next hourly round here, or another server).
      if (isDatabaseUnavailable(err)) throw err;
      await finishRun(this.db, claim, {
        state: 'failed',
        report: report.report,
        error: err instanceof Error ? err.message.slice(0, 500) : 'failed',
      });
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Places (reason given) or releases (null) an Admin's legal hold on an order; audited. */
  async setLegalHold(actor: Actor, rawOrderId: string, reason: string | null): Promise<LegalHold | undefined> {
    const orderId = normalizeOrderId(rawOrderId);
    return this.db.transaction().execute(async (trx) => {
      const order = await lockOrderForHold(trx, orderId);
      if (!order) throw new AppError('ORDER_NOT_FOUND', `Order ${rawOrderId.trim()} was not found.`);
      const before = legalHoldOf(order);
      if (reason === null) {
        if (!before) throw new AppError('CONFLICT', `Order ${order.order_id} is not on legal hold.`);
        await setLegalHold(trx, order.id, null);
        await writeAudit(trx, actor, [
          { action: 'order.legal-hold-release', orderId: order.id, target: order.order_id, before },
        ]);
        return undefined;
      }
      if (order.erased_at) {
        throw new AppError('ORDER_ERASED', `Order ${order.order_id}'s personal data is already erased.`);
      }
      const hold = { at: new Date(), by: actor.id!, byName: actor.name ?? '', reason: reason.trim() };
      await setLegalHold(trx, order.id, hold);
      const after = { heldAt: isoTime(hold.at), heldBy: hold.byName, reason: hold.reason };
      await writeAudit(trx, actor, [
        { action: 'order.legal-hold', orderId: order.id, target: order.order_id, before: before ?? null, after },
      ]);
      return after;
    });
  }
}
