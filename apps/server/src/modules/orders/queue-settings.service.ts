// What the queue screens need besides their rows (issue 35): the member's urgent-first choices (kept per member, on
// any device), the urgency window, and the target times an Admin sets per processing type.
import type { Kysely } from 'kysely';
import type { ProcessingTargets, QueueName, QueueSettings } from '@eta/contracts';
import type { DB, Staff } from '../../db/schema.js';
import { writeAudit, type Actor } from '../audit/audit.repository.js';
import { assertCan } from '../auth/permissions.js';
import {
  saveTargets,
  saveUrgentFirstQueues,
  selectTargets,
  selectUrgentFirstQueues,
} from './queue-settings.repository.js';

export class QueueSettingsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly urgentHours: number,
    /** The target times changed: the late orders are counted anew (this process; others within seconds). */
    private readonly onTargetsChanged: () => void = () => {},
  ) {}

  async forMember(staff: Staff): Promise<QueueSettings> {
    const [urgentFirstQueues, targets] = await Promise.all([
      selectUrgentFirstQueues(this.db, staff.id),
      selectTargets(this.db),
    ]);
    return { urgentFirstQueues, urgentTravelHours: this.urgentHours, targets };
  }

  /** Sorts one queue urgent first, or back in queue order, for this member. */
  async setUrgentFirst(staff: Staff, queue: QueueName, urgentFirst: boolean): Promise<QueueSettings> {
    await this.db.transaction().execute(async (trx) => {
      const queues = new Set(await selectUrgentFirstQueues(trx, staff.id));
      if (urgentFirst) queues.add(queue);
      else queues.delete(queue);
      await saveUrgentFirstQueues(trx, staff.id, [...queues]);
    });
    return this.forMember(staff);
  }

  /** An Admin's target times (minutes per processing type; null: none), audited with what they replaced. */
  async setTargets(staff: Staff, actor: Actor, targets: ProcessingTargets): Promise<QueueSettings> {
    assertCan(staff.type, 'manageTargets', 'set target times');
    await this.db.transaction().execute(async (trx) => {
      const before = await selectTargets(trx);
      await saveTargets(trx, targets, staff.id);
      await writeAudit(trx, actor, [
        { action: 'desk.processing-targets', target: 'processing-targets', before, after: targets },
      ]);
    });
    this.onTargetsChanged();
    return this.forMember(staff);
  }
}
