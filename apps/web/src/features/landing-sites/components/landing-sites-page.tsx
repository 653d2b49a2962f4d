// Landing Sites (Admin, issue 20): for each site its branding, the legal texts its customers agree to (versions,
// never edited in place) and the intake keys its application form sends orders with (shown once when made); (issue
// 33) Add landing site, and Edit branding per site with its logo.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import RefreshIcon from '@mui/icons-material/Refresh';
import type { LandingSiteAdmin } from '@eta/contracts';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import type { ApiError } from '../../../lib/api';
import { useLandingSitesQuery } from '../api/landing-sites-api';
import { AddLandingSiteDialog } from './add-landing-site-dialog';
import { BrandingForm } from './branding-form';
import { IntakeKeys } from './intake-keys';
import { LegalTexts } from './legal-texts';

/** The site's logo; a logo that does not load gives way to the name beside it (no broken-image box). */
function SiteLogo({ url }: { url: string }) {
  const [broken, setBroken] = useState<string | null>(null);
  if (!url || url === broken) return null;
  return (
    <Box
      component="img"
      src={url}
      alt=""
      onError={() => setBroken(url)}
      sx={{ width: 48, height: 48, objectFit: 'contain', flexShrink: 0 }}
    />
  );
}

function Branding({ site }: { site: LandingSiteAdmin }) {
  const [isEditing, setIsEditing] = useState(false);
  const rows: [string, string][] = [
    ['Logo', site.logo_url || 'None: the portal and the mails show the name alone'],
    ['Portal URL', site.portal_url ?? 'Not set: mails link to this server'],
    ['Mail sender', site.mail_sender],
    ['Footer contact', site.footer_contact],
    ['Support phone', site.support_phone ?? 'Not set'],
  ];
  return (
    <Box component="section" aria-label={`Branding of ${site.display_name}`}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" gap={1} flexWrap="wrap" sx={{ mb: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Branding
        </Typography>
        <Button variant="outlined" size="small" startIcon={<EditIcon />} onClick={() => setIsEditing(true)}>
          Edit branding
        </Button>
      </Stack>
      <BrandingList rows={rows} />
      {isEditing ? <BrandingForm site={site} onClose={() => setIsEditing(false)} /> : null}
    </Box>
  );
}

function BrandingList({ rows }: { rows: [string, string][] }) {
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' },
        columnGap: 2,
        rowGap: { xs: 0, sm: 0.5 },
      }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function LandingSiteCard({ site }: { site: LandingSiteAdmin }) {
  const headingId = `site-${site.key}-heading`;
  return (
    <Paper component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <Stack direction="row" alignItems="center" gap={2} sx={{ mb: 2 }}>
        <SiteLogo url={site.logo_url} />
        <Box sx={{ minWidth: 0 }}>
          <Typography id={headingId} variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {site.display_name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Key <Box component="code">{site.key}</Box>
          </Typography>
        </Box>
      </Stack>
      <Branding site={site} />
      <Divider sx={{ my: 3 }} />
      <LegalTexts site={site} />
      <Divider sx={{ my: 3 }} />
      <IntakeKeys site={site} />
    </Paper>
  );
}

export function LandingSitesPage() {
  const sites = useLandingSitesQuery();
  const error = sites.error as ApiError | undefined;
  const [isAdding, setIsAdding] = useState(false);

  return (
    <>
      <PageHeader
        title="Landing Sites"
        actions={
          <>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setIsAdding(true)}>
              Add landing site
            </Button>
            <Button
              variant="outlined"
              startIcon={<RefreshIcon />}
              disabled={sites.isFetching}
              onClick={() => void sites.refetch()}
            >
              Refresh
            </Button>
          </>
        }
      />
      {isAdding ? <AddLandingSiteDialog onClose={() => setIsAdding(false)} /> : null}
      {sites.isLoading ? (
        <PageLoader />
      ) : !sites.data ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void sites.refetch()}>
              Try again
            </Button>
          }
        >
          The landing sites could not be loaded. {error?.message ?? ''}
        </Alert>
      ) : sites.data.length === 0 ? (
        <Alert severity="info">No landing sites.</Alert>
      ) : (
        <Stack gap={3}>
          {sites.data.map((site) => (
            <LandingSiteCard key={site.key} site={site} />
          ))}
        </Stack>
      )}
    </>
  );
}
