// Frame of the customer pages (spec §1): a slot for the external translation bar, the landing site's top
// navigation, the page, and a footer with the year and the contact address.
import { useState } from 'react';
import { Outlet } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { BrandLogo } from '../../../components/brand-logo';
import { useLoadLandingSite, type PortalOutletContext } from '../hooks/use-landing-site';

export const TRANSLATION_BAR_ID = 'google_translate_element';

export function PublicLayout() {
  const site = useLoadLandingSite();
  const context: PortalOutletContext = { site };
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <Box id={TRANSLATION_BAR_ID} data-testid="translation-bar" sx={{ minHeight: 8, bgcolor: 'grey.100' }} />
      <AppBar position="static" color="default" elevation={1}>
        <Toolbar sx={{ gap: 2, flexWrap: 'wrap' }}>
          {site.logo_url && site.logo_url !== brokenLogo ? (
            <Box
              component="img"
              src={site.logo_url}
              alt={`${site.display_name} logo`}
              onError={() => setBrokenLogo(site.logo_url)}
              sx={{ height: 40 }}
            />
          ) : (
            <BrandLogo size={40} />
          )}
          <Typography variant="h6" component="div" sx={{ flexGrow: 1 }}>
            {site.display_name}
          </Typography>
          <Stack component="nav" aria-label="Site menu" direction="row" gap={2} flexWrap="wrap">
            {site.menu_links.map((link) => (
              <Link key={`${link.label}-${link.url}`} href={link.url} underline="hover" color="inherit">
                {link.label}
              </Link>
            ))}
          </Stack>
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="lg" sx={{ flexGrow: 1, py: 4 }}>
        <Outlet context={context} />
      </Container>
      <Box component="footer" id="site-footer" sx={{ bgcolor: 'grey.900', color: 'grey.100', py: 3 }}>
        <Container maxWidth="lg">
          <Typography variant="body2">
            © {new Date().getFullYear()} {site.display_name}. All rights reserved.
          </Typography>
          {site.footer_contact ? <Typography variant="body2">Contact: {site.footer_contact}</Typography> : null}
          {site.support_phone ? <Typography variant="body2">Phone: {site.support_phone}</Typography> : null}
        </Container>
      </Box>
    </Box>
  );
}
