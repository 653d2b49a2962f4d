// A queue page (spec §2 "Queue pages"): the queue's title, Refresh and the shared order table.
import type { QueueName } from '@eta/contracts';
import { QUEUES } from '@eta/contracts/domain';
import type { SessionUser } from '../../../lib/auth/session';
import { OrderListView } from './order-list-view';

export function QueuePage({ queue, user }: { queue: QueueName; user: SessionUser }) {
  return <OrderListView title={QUEUES[queue].title} queue={queue} user={user} />;
}
