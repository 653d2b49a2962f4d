// The other people on an order as small initials avatars (a list row, beside the order id), each named in a tooltip
// and to screen readers ("Priya is viewing"); those editing remarks in the warning colour.
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import type { PresencePerson } from '@eta/contracts';
import { describePresence } from '../lib/live-desk/use-live-order';

/** More than this many become one "+n" avatar naming the rest, so a busy order does not widen the id column. */
const SHOWN_PEOPLE = 2;

const AVATAR_SX = { width: 22, height: 22, fontSize: 11, fontWeight: 600 } as const;

/** "Priya Shah" → "PS", "Priya" → "P". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '?';
  const last = words.length > 1 ? (words.at(-1)?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

function PersonAvatar({ label, color, text }: { label: string; color: string; text: string }) {
  return (
    <Tooltip title={label}>
      {/* role="img" makes the tooltip's aria-label the avatar's name; the initials are only decoration. */}
      <Avatar component="span" role="img" sx={{ ...AVATAR_SX, bgcolor: color }}>
        {text}
      </Avatar>
    </Tooltip>
  );
}

export function PresenceAvatars({ people }: { people: readonly PresencePerson[] }) {
  if (people.length === 0) return null;
  const shown = people.slice(0, SHOWN_PEOPLE);
  const rest = people.slice(SHOWN_PEOPLE);
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 0.25 }}>
      {shown.map((person) => (
        <PersonAvatar
          key={person.staffId}
          label={describePresence(person)}
          color={person.activity === 'editing-remarks' ? 'warning.main' : 'primary.main'}
          text={initialsOf(person.name)}
        />
      ))}
      {rest.length > 0 ? (
        <PersonAvatar label={rest.map(describePresence).join(', ')} color="grey.600" text={`+${rest.length}`} />
      ) : null}
    </Box>
  );
}
