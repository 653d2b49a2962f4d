// The outbox worker: delivers due mail in rounds, woken by a kick after each enqueue and by a polling timer
// (which also picks up retries whose time has come and mail whose worker died). One round at a time per
// process; several processes may each run one, their claims never overlap (SKIP LOCKED).
import type { FastifyBaseLogger } from 'fastify';
import { connectionFault, isDatabaseUnavailable } from '../../db/connection-errors.js';
import type { MailService } from './mail.service.js';

export class OutboxWorker {
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private kickedDuringRound = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly mail: MailService,
    private readonly pollIntervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.mail.onQueued(() => this.kick());
    this.kick();
  }

  /** Runs a round now, or right after the one in progress. */
  kick(): void {
    if (this.stopped) return;
    if (this.round) {
      this.kickedDuringRound = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.round = this.deliverAll().finally(() => {
      this.round = null;
      if (this.stopped) return;
      if (this.kickedDuringRound) {
        this.kickedDuringRound = false;
        this.kick();
      } else {
        this.timer = setTimeout(() => this.kick(), this.pollIntervalMs);
        this.timer.unref();
      }
    });
  }

  /** Batches until one comes back short: a backlog drains without waiting for the timer. */
  private async deliverAll(): Promise<void> {
    try {
      const batch = 10;
      while (!this.stopped && (await this.mail.deliverDue(batch)) === batch);
    } catch (err) {
      // The next round tries again. A database away (a restart) is no fault of the code: a warning, no stack.
      if (isDatabaseUnavailable(err)) {
        this.log.warn(
          { reason: connectionFault(err)?.reason },
          'mail outbox round stopped: the database is unavailable',
        );
      } else this.log.error({ err }, 'mail outbox round failed');
    }
  }

  /** Takes no new round or batch from now on; the round in flight goes on. */
  stopClaiming(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Stops taking new rounds and waits for the one in flight, so no send is cut off mid-way; with `waitMs`, waits at
   * most that long (shutdown: a provider that hangs must not hold the process). True when the round finished.
   */
  async stop(waitMs?: number): Promise<boolean> {
    this.stopClaiming();
    if (!this.round) return true;
    if (waitMs === undefined) {
      await this.round;
      return true;
    }
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
    const finished = await Promise.race([this.round.then(() => true as const), gaveUp]);
    clearTimeout(timer);
    return finished;
  }
}
