// A queue's page (the order table, its virtual rows and row actions), and Waiting too long, the late orders across the
// queues (issue 35): a lazy chunk of their own.
import type { Capability, QueueName } from '@eta/contracts';
import { can } from '@eta/contracts/domain';
import { QueuePage } from '../../features/orders/components/queue-page';
import { WAITING_TOO_LONG_TITLE, WaitingTooLongPage } from '../../features/orders/components/waiting-too-long-page';
import { Allowed, useStaffUser } from './staff-access';

export function QueueRoute({ queue, capability, title }: { queue: QueueName; capability: Capability; title: string }) {
  const user = useStaffUser();
  return (
    <Allowed capability={capability} title={title}>
      <QueuePage key={queue} queue={queue} user={user} />
    </Allowed>
  );
}

/** For the roles that may open Order History: it reads across every queue. */
export function WaitingTooLongRoute() {
  const user = useStaffUser();
  return (
    <Allowed capability="viewOrderHistory" title={WAITING_TOO_LONG_TITLE}>
      <WaitingTooLongPage canEditTargets={can(user.type, 'manageTargets')} />
    </Allowed>
  );
}
