// The order's timeline from the audit trail (issue 7 "Activity"): who did what, from which status to which,
// and when (UTC, DD/MM/YYYY HH:mm:ss, labelled; US Eastern on hover), oldest first. The server puts each action in
// words (AUDIT_ACTIONS, issue 33); an Admin has the raw records one click away, on the Activity page.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ActivityEntry } from '@eta/contracts';
import { TimeText } from '../../../components/time-text';

function change(entry: ActivityEntry): string {
  if (entry.from && entry.to) return `${entry.from} → ${entry.to}`;
  if (entry.to) return `→ ${entry.to}`;
  return '';
}

/** A list of timed lines, oldest first: the time (UTC) beside what happened; on a phone, the time above it. */
export function TimedList<T extends { at: string }>({
  label,
  items,
  empty,
  render,
}: {
  label: string;
  items: readonly T[];
  empty: string;
  render: (item: T) => ReactNode;
}) {
  if (items.length === 0) return <Typography color="text.secondary">{empty}</Typography>;
  return (
    <Box component="ol" aria-label={label} sx={{ m: 0, pl: 0, listStyle: 'none' }}>
      {items.map((item, index) => (
        <Box
          component="li"
          key={`${item.at}-${index}`}
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '200px minmax(0, 1fr)' },
            columnGap: 2,
            py: 0.75,
            borderTop: index === 0 ? 0 : 1,
            borderColor: 'divider',
          }}
        >
          <Typography variant="body2" color="text.secondary" component="span" sx={{ whiteSpace: 'nowrap' }}>
            <TimeText value={item.at} />
          </Typography>
          <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere' }}>
            {render(item)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

interface ActivityTimelineProps {
  activity: readonly ActivityEntry[];
  /** The order's records on the Activity page, as stored: for those who may read the trail (Admin). */
  recordsPath?: string | undefined;
}

export function ActivityTimeline({ activity, recordsPath }: ActivityTimelineProps) {
  return (
    <>
      <TimedList
        label="Activity, oldest first"
        items={activity}
        empty="Nothing has been done on this order yet."
        render={(entry) => (
          <>
            {/* A staff member's name; a line about the customer, a gateway or a landing site names them itself. */}
            {entry.actor ? (
              <>
                <strong>{entry.actor}</strong>{' '}
              </>
            ) : null}
            {entry.action}
            {change(entry) ? ` (${change(entry)})` : ''}
            {entry.detail ? ` — ${entry.detail}` : ''}
          </>
        )}
      />
      {recordsPath ? (
        <Link component={RouterLink} to={recordsPath} variant="body2" sx={{ display: 'inline-block', mt: 1 }}>
          Audit records of this order
        </Link>
      ) : null}
    </>
  );
}
