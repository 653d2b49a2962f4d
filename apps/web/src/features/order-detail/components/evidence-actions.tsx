// The action buttons of spec §2: View Email Content, Defence Pack 1, Defence Pack 2 and Enter Transaction
// Details; the last three only for Completed or Customer Called orders. The e-mail content and the packs are
// built with delivery and evidence (the next issue): until then they are shown disabled and say so.
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';

export const COMING_WITH_EVIDENCE = 'Coming with delivery and evidence';

function ComingSoonButton({ label }: { label: string }) {
  return (
    <Tooltip title={COMING_WITH_EVIDENCE}>
      {/* A disabled button gets no pointer events; the wrapper carries the tooltip. */}
      <span>
        <Button variant="outlined" disabled>
          {label}
        </Button>
      </span>
    </Tooltip>
  );
}

interface EvidenceActionsProps {
  showEvidence: boolean;
  onEnterTransaction: () => void;
}

export function EvidenceActions({ showEvidence, onEnterTransaction }: EvidenceActionsProps) {
  return (
    <>
      <Stack direction="row" flexWrap="wrap" gap={1}>
        <ComingSoonButton label="View Email Content" />
        {showEvidence ? (
          <>
            <ComingSoonButton label="Defence Pack 1" />
            <ComingSoonButton label="Defence Pack 2" />
            <Button variant="contained" onClick={onEnterTransaction}>
              Enter Transaction Details
            </Button>
          </>
        ) : null}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {showEvidence
          ? 'E-mail content and Defence Packs are coming with delivery and evidence.'
          : 'E-mail content is coming with delivery and evidence. Defence Packs and transaction details open once the order is Completed or Customer Called.'}
      </Typography>
    </>
  );
}
