// The action buttons of spec §2: View Email Content, Defence Pack 1, Defence Pack 2 and Enter Transaction
// Details; the last three only for Completed or Customer Called orders (spec §4) and for ChargeBack, which an order
// reaches from them and where the pack is needed (issue 33).
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import type { DefencePackType } from '@eta/contracts';
import { DEFENCE_PACK_TYPES } from '@eta/contracts/domain';

interface EvidenceActionsProps {
  showEvidence: boolean;
  onViewEmail: () => void;
  onDefencePack: (type: DefencePackType) => void;
  /** The pack being prepared, if any. */
  pendingPack: DefencePackType | null;
  onEnterTransaction: () => void;
}

export function EvidenceActions({
  showEvidence,
  onViewEmail,
  onDefencePack,
  pendingPack,
  onEnterTransaction,
}: EvidenceActionsProps) {
  return (
    <>
      <Stack direction="row" flexWrap="wrap" gap={1}>
        <Button variant="outlined" startIcon={<MailOutlineIcon />} onClick={onViewEmail}>
          View Email Content
        </Button>
        {showEvidence ? (
          <>
            {DEFENCE_PACK_TYPES.map((type) => (
              <Button
                key={type}
                variant="outlined"
                startIcon={
                  pendingPack === type ? <CircularProgress size={16} aria-hidden="true" /> : <PictureAsPdfIcon />
                }
                disabled={pendingPack !== null}
                onClick={() => onDefencePack(type)}
              >
                {`Defence Pack ${type}`}
              </Button>
            ))}
            <Button variant="contained" onClick={onEnterTransaction}>
              Enter Transaction Details
            </Button>
          </>
        ) : null}
      </Stack>
      {showEvidence ? null : (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Defence Packs and transaction details open once the order is Completed, Customer Called or Charge Back.
        </Typography>
      )}
    </>
  );
}
