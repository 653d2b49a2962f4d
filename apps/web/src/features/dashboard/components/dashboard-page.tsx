// Dashboard of spec §2: five tiles, each with its folder count, each linking to its queue. Issue 35: under a tile its
// queue's urgent orders ("3 urgent"), a "Waiting too long" tile for the roles that may open that list, and a panel of
// every queue with orders travelling within the urgency window.
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { FolderCountKey, FolderCountsPayload, QueueName, StaffType } from '@eta/contracts';
import { FOLDER_COUNT_KEYS, QUEUES, QUEUE_NAMES, can } from '@eta/contracts/domain';
import { CountTile } from '../../../components/count-tile';
import { PageHeader } from '../../../components/page-header';
import { paths } from '../../../config/paths';

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

/** The queue of each folder count, to list the urgent counts in the counts' own order. */
const QUEUE_OF_COUNT = new Map(QUEUE_NAMES.map((queue) => [QUEUES[queue].countKey, queue]));

interface DashboardPageProps {
  counts: FolderCountsPayload | undefined;
  role: StaffType;
  /** URGENT_TRAVEL_HOURS, from the queue settings; undefined until (or unless) they are read. */
  urgentHours: number | undefined;
}

/** A count as the server gave it: '1,234', or '5,000+' when it stopped counting there (a lower bound). */
const countText = (count: number, capped: boolean | undefined) => `${count.toLocaleString('en')}${capped ? '+' : ''}`;

/** "3 urgent" under a tile, linking to its queue; nothing when none is. */
function urgentLink(counts: FolderCountsPayload | undefined, key: FolderCountKey, tileLabel: string, to: string) {
  const count = counts?.urgentCounts?.[key];
  if (!count) return undefined;
  const text = `${countText(count, counts.urgentCapped)} urgent`;
  return (
    <Link
      component={RouterLink}
      to={to}
      variant="body2"
      color="warning.dark"
      fontWeight={600}
      aria-label={`${text} in ${tileLabel}`}
    >
      {text}
    </Link>
  );
}

function UrgentPanel({ counts, hours }: { counts: FolderCountsPayload | undefined; hours: number | undefined }) {
  const within = hours === undefined ? 'soon' : `within ${hours} h`;
  const urgent = FOLDER_COUNT_KEYS.flatMap((key) => {
    const count = counts?.urgentCounts?.[key] ?? 0;
    const queue = QUEUE_OF_COUNT.get(key);
    return count > 0 && queue ? [{ queue, count }] : [];
  });
  let body;
  if (!counts) body = <Skeleton width={240} />;
  else if (urgent.length === 0) body = <Typography color="text.secondary">No open order travels {within}.</Typography>;
  else {
    body = (
      <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', m: 0, p: 0 }}>
        {urgent.map(({ queue, count }) => (
          <li key={queue}>
            <Chip
              component={RouterLink}
              to={QUEUES[queue].path}
              clickable
              variant="outlined"
              color="warning"
              label={`${QUEUES[queue].title}: ${countText(count, counts?.urgentCapped)}`}
            />
          </li>
        ))}
      </Box>
    );
  }
  return (
    <Paper variant="outlined" component="section" aria-labelledby="urgent-heading" sx={{ p: 2, mt: 2 }}>
      <Typography id="urgent-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        Travelling {within}
      </Typography>
      {body}
    </Paper>
  );
}

export function DashboardPage({ counts, role, urgentHours }: DashboardPageProps) {
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
            footer={urgentLink(counts, countKey, label, QUEUES[queue].path)}
          />
        ))}
        {can(role, 'viewOrderHistory') ? (
          <CountTile
            testId="tile-waitingTooLong"
            label="Waiting too long"
            count={
              counts ? countText(counts.waitingTooLongCount ?? 0, counts.waitingTooLongCapped) : <Skeleton width={64} />
            }
            to={paths.waitingTooLong}
          />
        ) : null}
      </Box>
      <UrgentPanel counts={counts} hours={urgentHours} />
    </>
  );
}
