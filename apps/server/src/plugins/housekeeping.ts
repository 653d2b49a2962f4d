// Periodic clean-up that needs no person: every minute the counters' stripes are folded (migration 015), the Future
// orders that came due are marked for New's index (migration 036) and the shared limit counters whose windows have
// passed are deleted; every hour intake idempotency keys past their keeping time are forgotten and the day's retention
// run is started if the day has none (issue 24). Runs in every process (a fold takes an advisory lock, the marks and
// deletes are idempotent, one retention run claims its row); a failure is logged and tried again on the next round.
import fp from 'fastify-plugin';
import { purgePassedCounters } from '../lib/limits/postgres-counters.js';

const MINUTE_MS = 60_000;

export default fp(
  async (app) => {
    const timers: NodeJS.Timeout[] = [];
    const every = (ms: number, what: string, job: () => Promise<void>) => {
      const timer = setInterval(() => {
        job().catch((err: unknown) => app.log.warn({ err }, `housekeeping: ${what} failed`));
      }, ms);
      timer.unref();
      timers.push(timer);
    };
    app.addHook('onReady', async () => {
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
      for (const timer of timers) clearInterval(timer);
    });
  },
  { name: 'housekeeping' },
);
