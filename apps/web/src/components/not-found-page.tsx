import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { PageTitle } from './page-title';

export function NotFoundPage({ homePath = '/' }: { homePath?: string }) {
  return (
    <Box sx={{ py: 8, px: 2, textAlign: 'center' }}>
      <PageTitle title="Page not found" />
      <Typography variant="h4" component="h1" gutterBottom>
        Page not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        The page you asked for does not exist or has moved.
      </Typography>
      <Button component={RouterLink} to={homePath} variant="contained">
        Go to the start page
      </Button>
    </Box>
  );
}
