// Periodic clean-up that needs no person: on PostgreSQL, a few times a second, the search indexes' pending lists are
// merged, so that no order's write merges them inside its own statement (mergeSearchPending); every minute the
// counters' stripes are folded (migration 015), the Future orders that came due are marked for New's index (migration
// 036) and the shared limit counters whose windows have passed are deleted; every hour intake idempotency keys past
// their keeping time are forgotten and the day's retention run is started if the day has none (issue 24). Runs in
// every process (a fold and a merge take an advisory lock, the marks and deletes are idempotent, one retention run
// claims its row); a failure is logged and tried again on the next round.
import fp from 'fastify-plugin';
import type { Database } from '../db/database.js';
import { purgePassedCounters } from '../lib/limits/postgres-counters.js';
import { mergeSearchPending } from '../modules/orders/orders.repository.js';

const MINUTE_MS = 60_000;
/**
 * The pause between two merges of the search indexes' pending lists when the last one found nothing: 256 kB (a list's
 * limit) is some 220 new or changed orders, so writes would have to come at over 1,000 a second for one of them to
 * pass the limit between two rounds and merge it itself. After a round that merged something the next one starts at
 * once: a merge takes only what was pending when it began, and what was written meanwhile (under load at ten million
 * orders a round took up to 2 s) must not wait for a write to take it past the limit.
 */
const SEARCH_MERGE_IDLE_MS = 200;

export default fp<{ maintenanceDb?: Database | undefined }>(
  async (app, { maintenanceDb }) => {
    const timers: NodeJS.Timeout[] = [];
    const every = (ms: number, what: string, job: () => Promise<void>) => {
      const timer = setInterval(() => {
        job().catch((err: unknown) => app.log.warn({ err }, `housekeeping: ${what} failed`));
      }, ms);
      timer.unref();
      timers.push(timer);
    };
    // One merge round at a time, each started when the last has ended; closing waits for the one running.
    let closing = false;
    let mergeTimer: NodeJS.Timeout | undefined;
    let merging: Promise<void> | undefined;
    let mergeWarned = 0;
    const mergeRound = async (on: Database) => {
      let merged = 0;
      try {
        merged = await mergeSearchPending(on);
      } catch (err) {
        // Logged at most once a minute: the rounds come five times a second.
        if (Date.now() - mergeWarned >= MINUTE_MS) {
          mergeWarned = Date.now();
          app.log.warn({ err }, "housekeeping: merging the search indexes' pending lists failed");
        }
      }
      if (closing) return;
      const next = () => {
        merging = mergeRound(on);
      };
      mergeTimer = setTimeout(next, merged > 0 ? 0 : SEARCH_MERGE_IDLE_MS).unref();
    };
    app.addHook('onReady', async () => {
      if (maintenanceDb) merging = mergeRound(maintenanceDb);
      every(MINUTE_MS, 'folding counter stripes', () => app.services.orderQueries.foldCounters());
      every(MINUTE_MS, 'marking due Future orders', async () => {
        await app.services.orderQueries.markDueFutureOrders();
      });
      every(MINUTE_MS, 'checking payments again', async () => {
        const settled = await app.services.payments.recheckDuePayments();
        if (settled > 0) app.log.info({ settled }, 'payments settled by a second check');
      });
      if (app.dbKind === 'postgres') {
        every(MINUTE_MS, 'forgetting passed limit counters', async () => {
          await purgePassedCounters(app.db);
        });
      }
      // The retention job runs once a day (the first hourly round of a UTC day, in whichever process claims it) and
      // continues a run whose process died; it erases in batches and records its progress.
      every(60 * MINUTE_MS, 'running retention', async () => {
        const run = await app.services.retention.runDaily();
        if (run) app.log.info({ run: run.id, erased: run.erased, skipped: run.skipped }, 'retention run finished');
      });
      every(60 * MINUTE_MS, 'forgetting idempotency keys', async () => {
        const purged = await app.services.intake.purgeIdempotencyKeys();
        if (purged > 0) app.log.info({ purged }, 'old intake idempotency keys forgotten');
      });
    });
    app.addHook('onClose', async () => {
      closing = true;
      clearTimeout(mergeTimer);
      await merging;
      for (const timer of timers) clearInterval(timer);
    });
  },
  { name: 'housekeeping' },
);
