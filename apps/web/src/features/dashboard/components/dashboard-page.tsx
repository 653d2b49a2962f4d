// Dashboard of spec §2: five tiles, each with its folder count, each linking to its queue.
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { FolderCountKey, FolderCounts, QueueName } from '@eta/contracts';
import { QUEUES } from '@eta/contracts/domain';
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
          <Card key={queue} data-testid={`tile-${countKey}`}>
            <CardActionArea component={RouterLink} to={QUEUES[queue].path} sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="h3" component="p" color="primary">
                  {counts ? counts[countKey] : <Skeleton width={64} />}
                </Typography>
                <Typography variant="subtitle1" component="h2">
                  {label}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </>
  );
}
