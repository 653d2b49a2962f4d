// View Email Content (spec §2): exactly what was or will be sent (a mail of Email History, else the order's latest
// approval mail, else the one it would get now), with "Send Whatsapp Message" for the customer's number (spec §3
// dialling codes). The HTML is shown in a sandboxed frame: no script runs and nothing in it can reach the console.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import type { MailContent } from '@eta/contracts';
import type { ApiError } from '../../../lib/api';
import { formatUtcDateTime } from '../../../lib/format';
import { useGetMailContentQuery } from '../api/order-detail-api';

export const NO_WHATSAPP_TEXT = "No WhatsApp link: the customer's telephone number has no known dialling code.";

function stateText(mail: MailContent): string {
  if (mail.state === 'preview') return 'Preview: the approval mail this order would get now. Nothing has been sent.';
  const via = mail.provider ? ` through ${mail.provider}` : '';
  if (mail.state === 'sent') return `Sent${via} at ${formatUtcDateTime(mail.sent_at)} UTC.`;
  if (mail.state === 'failed') return `Not sent${via}: ${mail.last_error ?? 'failed'}.`;
  return `Queued${via}, not sent yet${mail.attempts ? ` (${mail.attempts} attempts so far)` : ''}.`;
}

function MailFacts({ mail }: { mail: MailContent }) {
  const rows: [string, string][] = [
    ['Subject', mail.subject],
    ['From', mail.from],
    ['To', mail.to],
  ];
  if (mail.attachments.length > 0) {
    rows.push(['Attachments', mail.attachments.map((file) => `${file.filename} (${file.contentType})`).join(', ')]);
  }
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 2, m: 0 }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, mb: { xs: 1, sm: 0.5 }, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function MailBody({ mail }: { mail: MailContent }) {
  const [tab, setTab] = useState<'html' | 'text'>('html');
  return (
    <>
      <Tabs value={tab} onChange={(_event, value: 'html' | 'text') => setTab(value)} aria-label="Mail format">
        <Tab label="HTML" value="html" id="mail-tab-html" aria-controls="mail-panel-html" />
        <Tab label="Text" value="text" id="mail-tab-text" aria-controls="mail-panel-text" />
      </Tabs>
      <Box
        role="tabpanel"
        id="mail-panel-html"
        aria-labelledby="mail-tab-html"
        hidden={tab !== 'html'}
        sx={{ pt: 1.5 }}
      >
        {/* sandbox="": no scripts, no forms, no navigation, an opaque origin; the mail is shown, never run. */}
        <Box
          component="iframe"
          title={`Email content: ${mail.subject}`}
          sandbox=""
          referrerPolicy="no-referrer"
          srcDoc={mail.html}
          sx={{ width: '100%', height: { xs: 420, sm: 480 }, border: 1, borderColor: 'divider', bgcolor: 'white' }}
        />
      </Box>
      <Box
        role="tabpanel"
        id="mail-panel-text"
        aria-labelledby="mail-tab-text"
        hidden={tab !== 'text'}
        sx={{ pt: 1.5 }}
      >
        <Box
          component="pre"
          sx={{
            m: 0,
            p: 1.5,
            border: 1,
            borderColor: 'divider',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            fontSize: '0.8125rem',
          }}
        >
          {mail.text}
        </Box>
      </Box>
    </>
  );
}

interface MailContentDialogProps {
  orderId: string;
  /** A mail of Email History; without it the order's latest approval mail. */
  mailId?: number;
  onClose: () => void;
}

/** Rendered while open; it loads the mail when it opens. */
export function MailContentDialog({ orderId, mailId, onClose }: MailContentDialogProps) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const content = useGetMailContentQuery({ orderId, mailId }, { refetchOnMountOrArgChange: true });
  const mail = content.data;
  const error = content.error as ApiError | undefined;

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth fullScreen={isPhone} aria-labelledby="mail-dialog-title">
      <DialogTitle id="mail-dialog-title">Email Content</DialogTitle>
      <DialogContent dividers>
        {content.isFetching ? <LinearProgress aria-label="Loading the mail" sx={{ mb: 2 }} /> : null}
        {mail ? (
          <Stack gap={1.5}>
            <Alert severity={mail.state === 'failed' ? 'error' : mail.state === 'sent' ? 'success' : 'info'}>
              {stateText(mail)}
            </Alert>
            <MailFacts mail={mail} />
            <MailBody mail={mail} />
          </Stack>
        ) : null}
        {!mail && error ? <Alert severity="error">The mail could not be loaded. {error.message}</Alert> : null}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {mail && !mail.whatsappLink ? (
          <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
            {NO_WHATSAPP_TEXT}
          </Typography>
        ) : null}
        {mail?.whatsappLink ? (
          <Button
            component="a"
            href={mail.whatsappLink}
            target="_blank"
            rel="noopener noreferrer"
            variant="outlined"
            color="success"
            startIcon={<WhatsAppIcon />}
          >
            Send Whatsapp Message
          </Button>
        ) : (
          <Button variant="outlined" color="success" startIcon={<WhatsAppIcon />} disabled>
            Send Whatsapp Message
          </Button>
        )}
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
