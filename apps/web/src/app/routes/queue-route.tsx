// A queue's page (the order table, its virtual rows and row actions), a lazy chunk of its own.
import type { Capability, QueueName } from '@eta/contracts';
import { QueuePage } from '../../features/orders/components/queue-page';
import { Allowed, useStaffUser } from './staff-access';

export function QueueRoute({ queue, capability, title }: { queue: QueueName; capability: Capability; title: string }) {
  const user = useStaffUser();
  return (
    <Allowed capability={capability} title={title}>
      <QueuePage key={queue} queue={queue} user={user} />
    </Allowed>
  );
}
