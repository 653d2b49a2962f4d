// The order's timeline from the audit trail (issue 7 "Activity"): who did what, from which status to which,
// and when (UTC, DD/MM/YYYY HH:mm:ss, labelled; US Eastern on hover), oldest first.
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
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

export function ActivityTimeline({ activity }: { activity: readonly ActivityEntry[] }) {
  return (
    <TimedList
      label="Activity, oldest first"
      items={activity}
      empty="Nothing has been done on this order yet."
      render={(entry) => (
        <>
          <strong>{entry.actor}</strong> {entry.action}
          {change(entry) ? ` (${change(entry)})` : ''}
          {entry.detail ? ` — ${entry.detail}` : ''}
        </>
      )}
    />
  );
}
