// The order's timeline from the audit trail (issue 7 "Activity"): who did what, from which status to which,
// and when (UTC, DD/MM/YYYY HH:mm:ss), oldest first.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ActivityEntry } from '@eta/contracts';
import { formatUtcDateTime } from '../../../lib/format';

function change(entry: ActivityEntry): string {
  if (entry.from && entry.to) return `${entry.from} → ${entry.to}`;
  if (entry.to) return `→ ${entry.to}`;
  return '';
}

export function ActivityTimeline({ activity }: { activity: readonly ActivityEntry[] }) {
  if (activity.length === 0)
    return <Typography color="text.secondary">Nothing has been done on this order yet.</Typography>;
  return (
    <Box component="ol" aria-label="Activity, oldest first" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
      {activity.map((entry, index) => (
        <Box
          component="li"
          key={`${entry.at}-${index}`}
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '170px minmax(0, 1fr)' },
            columnGap: 2,
            py: 0.75,
            borderTop: index === 0 ? 0 : 1,
            borderColor: 'divider',
          }}
        >
          <Typography variant="body2" color="text.secondary" component="span" sx={{ whiteSpace: 'nowrap' }}>
            {formatUtcDateTime(entry.at)}
          </Typography>
          <Typography variant="body2" component="span">
            <strong>{entry.actor}</strong> {entry.action}
            {change(entry) ? ` (${change(entry)})` : ''}
            {entry.detail ? ` — ${entry.detail}` : ''}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
