// Dashboard of spec §2: five tiles, each with its folder count, each linking to its queue.
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import type { FolderCountKey, FolderCounts, QueueName } from '@eta/contracts';
import { QUEUES } from '@eta/contracts/domain';
import { CountTile } from '../../../components/count-tile';
import { PageHeader } from '../../../components/page-header';

interface Tile {
  label: string;
  queue: QueueName;
  countKey: FolderCountKey;
}

const tile = (label: string, queue: QueueName): Tile => ({ label, queue, countKey: QUEUES[queue].countKey });

const TILES: readonly Tile[] = [
  tile('My Orders', 'myOrder'),
  tile('New Orders', 'newOrder'),
  tile('Priority Order', 'priorityOrder'),
  tile('Pending Orders', 'pendingOrder'),
  tile('Completed Orders', 'completedOrder'),
];

export function DashboardPage({ counts }: { counts: FolderCounts | undefined }) {
  return (
    <>
      <PageHeader title="Dashboard" />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}>
        {TILES.map(({ label, queue, countKey }) => (
          <CountTile
            key={queue}
            testId={`tile-${countKey}`}
            label={label}
            count={counts ? counts[countKey] : <Skeleton width={64} />}
            to={QUEUES[queue].path}
          />
        ))}
      </Box>
    </>
  );
}
