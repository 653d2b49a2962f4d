// How a chargeback stands against its evidence due date (issue 21), in the ChargeBack queue and on the order's
// Chargeback panel: overdue in red, the last three days in amber, and once evidence is submitted or the dispute is
// decided the date no longer presses, so that is what shows instead.
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { daysLeft, plural } from '@eta/contracts/domain';

/** Days left at which a due date turns amber. */
const SOON_DAYS = 3;

type ChipColor = 'error' | 'warning' | 'success' | 'default' | 'info';

export interface DueState {
  label: string;
  color: ChipColor;
}

interface DisputeStanding {
  evidence_due_by: string | null;
  evidence_state: 'draft' | 'submitted' | null;
  /** 'won' or 'lost' once decided; 'closed' when closed without either being known. */
  outcome?: string | null;
}

/** What the due date means today: null when there is nothing to say (no date, nothing pending). */
export function dueState(dispute: DisputeStanding, now: Date = new Date()): DueState | null {
  if (dispute.outcome === 'won') return { label: 'Won', color: 'success' };
  if (dispute.outcome === 'lost') return { label: 'Lost', color: 'default' };
  if (dispute.outcome === 'closed') return { label: 'Closed', color: 'default' };
  if (dispute.evidence_state === 'submitted') return { label: 'Evidence submitted', color: 'info' };
  if (!dispute.evidence_due_by) return null;
  const days = daysLeft(dispute.evidence_due_by, now);
  if (days < 0) return { label: `Overdue ${plural(-days, 'day')}`, color: 'error' };
  if (days === 0) return { label: 'Less than a day left', color: 'error' };
  if (days <= SOON_DAYS) return { label: `${plural(days, 'day')} left`, color: 'warning' };
  return { label: `${plural(days, 'day')} left`, color: 'default' };
}

/** The due state as a chip, and a saved draft beside it (evidence started but not yet sent for review). */
export function EvidenceDueChip({ dispute, now }: { dispute: DisputeStanding; now?: Date }) {
  const state = dueState(dispute, now);
  const isDraft = dispute.evidence_state === 'draft' && !dispute.outcome;
  if (!state && !isDraft) return null;
  return (
    <Stack direction="row" gap={0.5} flexWrap="wrap" component="span">
      {state ? (
        <Chip
          size="small"
          color={state.color}
          // Plain days left stay quiet beside the coloured ones.
          variant={state.color === 'default' ? 'outlined' : 'filled'}
          label={state.label}
        />
      ) : null}
      {isDraft ? <Chip size="small" variant="outlined" color="info" label="Draft saved" /> : null}
    </Stack>
  );
}
