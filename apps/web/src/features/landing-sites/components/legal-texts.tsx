// A site's legal texts: the current version (both texts as written, line breaks kept), who saved it and when,
// every earlier version (each opens in a dialog) and the form that saves a new version. Orders keep the version
// their customer agreed to, so no version is ever changed.
import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import EditIcon from '@mui/icons-material/Edit';
import type { LandingSiteAdmin, LegalTextVersion } from '@eta/contracts';
import type { ApiError } from '../../../lib/api';
import { formatUtcDateTime } from '../../../lib/format';
import { useLegalTextQuery } from '../api/landing-sites-api';
import { LegalTextForm } from './legal-text-form';

type VersionFacts = Omit<LegalTextVersion, 'disclaimer' | 'fee_text'>;

/** "Version 2, saved by Asha Rao on 20/11/2026 10:00:00 UTC"; the first version has no author. */
export function versionLine({ version, created_by, created_at }: VersionFacts): string {
  const when = `${formatUtcDateTime(created_at)} UTC`;
  return created_by
    ? `Version ${version}, saved by ${created_by} on ${when}`
    : `Version ${version}, the site's first texts (${when})`;
}

/** A legal text as written: line breaks kept; a long one scrolls inside its box. */
function LegalText({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="subtitle2" component="h4" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      <Box
        sx={{
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          maxHeight: 240,
          overflowY: 'auto',
          p: 1.5,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'grey.50',
          typography: 'body2',
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

function BothTexts({ legal }: { legal: Pick<LegalTextVersion, 'disclaimer' | 'fee_text'> }) {
  return (
    <Box
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}
    >
      <LegalText title="Disclaimer">{legal.disclaimer}</LegalText>
      <LegalText title="Fee text">{legal.fee_text}</LegalText>
    </Box>
  );
}

/** One version's texts, loaded when the dialog opens. */
function LegalVersionDialog({
  site,
  version,
  onClose,
}: {
  site: LandingSiteAdmin;
  version: number;
  onClose: () => void;
}) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const text = useLegalTextQuery({ site: site.key, version });
  const error = text.error as ApiError | undefined;
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth fullScreen={isPhone} aria-labelledby="legal-version-title">
      <DialogTitle id="legal-version-title">
        {site.display_name}: legal texts version {version}
      </DialogTitle>
      <DialogContent dividers>
        {text.isFetching && !text.data ? <LinearProgress aria-label="Loading the legal texts" /> : null}
        {text.data ? (
          <Stack gap={2}>
            <Typography variant="body2" color="text.secondary">
              {versionLine(text.data)}
            </Typography>
            <BothTexts legal={text.data} />
          </Stack>
        ) : null}
        {!text.data && error ? (
          <Alert severity="error">The legal texts could not be loaded. {error.message}</Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Every version, newest first; View comes first so that it stays in sight on a phone (the rest may scroll). */
function VersionHistory({ site, onView }: { site: LandingSiteAdmin; onView: (version: number) => void }) {
  return (
    <TableContainer
      sx={{
        maxHeight: 260,
        overflow: 'auto',
        border: 1,
        borderColor: 'divider',
        '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } },
      }}
    >
      <Table size="small" stickyHeader aria-label={`Legal text versions of ${site.display_name}`}>
        <TableHead>
          <TableRow>
            <TableCell>Texts</TableCell>
            <TableCell>Version</TableCell>
            <TableCell>Saved (UTC)</TableCell>
            <TableCell>Saved by</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {site.legalHistory.map((entry) => (
            <TableRow key={entry.version} hover>
              <TableCell>
                <Button size="small" onClick={() => onView(entry.version)} aria-label={`View version ${entry.version}`}>
                  View
                </Button>
              </TableCell>
              <TableCell>
                {entry.version}
                {entry.version === site.legal.version ? ' (current)' : ''}
              </TableCell>
              <TableCell sx={{ whiteSpace: { sm: 'nowrap' } }}>{formatUtcDateTime(entry.created_at)}</TableCell>
              <TableCell>{entry.created_by ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function LegalTexts({ site }: { site: LandingSiteAdmin }) {
  const [viewing, setViewing] = useState<number | null>(null);
  const [isEditing, setIsEditing] = useState(false);
  return (
    <Box component="section" aria-label={`Legal texts of ${site.display_name}`}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" gap={1} flexWrap="wrap" sx={{ mb: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Legal texts
        </Typography>
        <Button variant="outlined" size="small" startIcon={<EditIcon />} onClick={() => setIsEditing(true)}>
          Edit legal texts
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {versionLine(site.legal)}
      </Typography>
      <BothTexts legal={site.legal} />
      <Typography variant="subtitle2" component="h4" sx={{ mt: 2, mb: 0.5 }}>
        History
      </Typography>
      <VersionHistory site={site} onView={setViewing} />
      {viewing !== null ? <LegalVersionDialog site={site} version={viewing} onClose={() => setViewing(null)} /> : null}
      {isEditing ? <LegalTextForm site={site} onClose={() => setIsEditing(false)} /> : null}
    </Box>
  );
}
