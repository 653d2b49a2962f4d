// A queue's "Urgent first" choice (issue 35), kept per member on the server: whether the queue can sort so, whether
// this member sorts it so, and the switch. The list waits for the settings' first answer, so it is asked for once,
// in the member's order; settings that cannot be read leave the queue in queue order.
import type { QueueName } from '@eta/contracts';
import { holdsOpenOrders } from '@eta/contracts/domain';
import { useGetQueueSettingsQuery } from '../api/queue-settings-api';
import { useSetUrgentFirstMutation } from '../api/urgent-first-api';

/** A queue that holds no open order has nothing urgent to sort first. */
export const canSortUrgentFirst = holdsOpenOrders;

export function useUrgentFirst(queue: QueueName) {
  const canSort = canSortUrgentFirst(queue);
  const settings = useGetQueueSettingsQuery(undefined, { skip: !canSort });
  const [save, saving] = useSetUrgentFirstMutation();
  const isOn = canSort && (settings.data?.urgentFirstQueues.includes(queue) ?? false);
  return {
    canSort,
    isOn,
    /** False until the settings' first answer (or failure): the list waits, so it loads once. */
    isReady: !canSort || !settings.isLoading,
    /** The switch works once the settings are known and while no change is on its way. */
    isSwitchable: settings.data !== undefined && !saving.isLoading,
    setOn: (urgentFirst: boolean) => void save({ queue, urgentFirst }),
  };
}
