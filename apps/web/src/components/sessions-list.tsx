// Sessions as their owner or an Admin sees them (issue 34): browser and system, address and its country, signed in,
// last seen; End for an open one. A list of cards rather than a table: it reads the same at 360 px and 1280 px.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { StaffSession } from '@eta/contracts';
import { TimeText } from './time-text';

interface SessionsListProps {
  sessions: StaffSession[];
  busy: boolean;
  onEnd: (session: StaffSession) => void;
}

const FACTOR: Record<string, string> = { totp: 'with app code', recovery: 'with a recovery code' };

export function SessionsList({ sessions, busy, onEnd }: SessionsListProps) {
  if (sessions.length === 0) return <Typography color="text.secondary">No sessions yet.</Typography>;
  return (
    <Stack component="ul" aria-label="Sessions" gap={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {sessions.map((s) => {
        const open = s.endedAt === null;
        return (
          <Box
            component="li"
            key={s.id}
            sx={{
              border: 1,
              borderColor: s.current ? 'primary.main' : 'divider',
              borderRadius: 1,
              p: 1.5,
              display: 'flex',
              flexWrap: 'wrap',
              gap: 1,
              alignItems: 'center',
              opacity: open ? 1 : 0.7,
            }}
          >
            <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
              <Typography fontWeight={600}>
                {s.browser} on {s.os}
                {s.current && <Chip label="This session" color="primary" size="small" sx={{ ml: 1 }} />}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {s.ip} · {s.location}
                {s.secondFactor ? ` · signed in ${FACTOR[s.secondFactor] ?? s.secondFactor}` : ''}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Signed in <TimeText value={s.signedInAt} /> · last seen <TimeText value={s.lastSeenAt} />
              </Typography>
              {!open && (
                <Typography variant="body2" color="text.secondary">
                  Ended <TimeText value={s.endedAt} /> ({s.endedBy})
                </Typography>
              )}
            </Box>
            {open && !s.current && (
              <Button variant="outlined" color="error" size="small" disabled={busy} onClick={() => onEnd(s)}>
                End
              </Button>
            )}
          </Box>
        );
      })}
    </Stack>
  );
}
