// Placeholder for console screens a later issue builds; never a blank page.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { PageHeader } from './page-header';

export function ComingSoonPage({ title }: { title: string }) {
  return (
    <Box>
      <PageHeader title={title} />
      <Alert severity="info">This page is coming soon. It is not available in this version of the console yet.</Alert>
    </Box>
  );
}
