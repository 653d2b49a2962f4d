// Comment History (spec §2): newest first; each row names the staff member and the US date and time, and
// expands to show the remark and its flags. The remark is rendered as text: markup in it shows as typed.
import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Collapse from '@mui/material/Collapse';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { RemarkEntry } from '@eta/contracts';
import { describeTime } from '../../../lib/format';

const FLAG_LABELS: Record<
  'whatsapp' | 'telephone' | 'status_refund' | 'voided' | 'chargeback' | 'report_error',
  string
> = {
  whatsapp: 'WhatsApp',
  telephone: 'Telephone',
  status_refund: 'Status refund',
  voided: 'Voided',
  chargeback: 'Charge back',
  report_error: 'Report error',
};

const flagsOf = (remark: RemarkEntry): string[] =>
  (Object.keys(FLAG_LABELS) as (keyof typeof FLAG_LABELS)[]).filter((flag) => remark[flag]).map((f) => FLAG_LABELS[f]);

function CommentRow({ remark }: { remark: RemarkEntry }) {
  const [isOpen, setIsOpen] = useState(false);
  const bodyId = useId();
  const flags = flagsOf(remark);
  return (
    <Box component="li" sx={{ borderTop: 1, borderColor: 'divider', listStyle: 'none' }}>
      <ButtonBase
        aria-expanded={isOpen}
        aria-controls={isOpen ? bodyId : undefined}
        onClick={() => setIsOpen((open) => !open)}
        sx={{
          width: '100%',
          justifyContent: 'flex-start',
          textAlign: 'left',
          gap: 1,
          py: 1,
          px: 1,
          '&.Mui-focusVisible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
        }}
      >
        <ExpandMoreIcon
          fontSize="small"
          sx={{ transform: isOpen ? 'rotate(180deg)' : 'none', transition: 'transform 150ms', flexShrink: 0 }}
        />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
            {remark.remark_name}
          </Typography>
          <Typography variant="body2" component="span" color="text.secondary">
            {' · '}
            <time dateTime={remark.create_ts} title={describeTime(remark.create_ts, 'us-eastern')?.other}>
              {`${remark.us_date} ${remark.us_time}`}
            </time>
          </Typography>
          {isOpen ? null : (
            <Typography variant="body2" noWrap color="text.secondary" data-testid="remark-preview">
              {remark.remark}
            </Typography>
          )}
        </Box>
      </ButtonBase>
      <Collapse in={isOpen} unmountOnExit>
        <Box id={bodyId} sx={{ pl: 5, pr: 1, pb: 1.5 }}>
          <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{remark.remark}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {flags.length > 0 ? `Flags: ${flags.join(', ')}` : 'Flags: none'}
          </Typography>
        </Box>
      </Collapse>
    </Box>
  );
}

export function CommentHistory({ remarks }: { remarks: readonly RemarkEntry[] }) {
  if (remarks.length === 0) return <Typography color="text.secondary">No comments yet.</Typography>;
  return (
    <Box
      component="ul"
      aria-label="Comments, newest first"
      sx={{ m: 0, p: 0, borderBottom: 1, borderColor: 'divider' }}
    >
      {remarks.map((remark) => (
        <CommentRow key={remark.id} remark={remark} />
      ))}
    </Box>
  );
}
