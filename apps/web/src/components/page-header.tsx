// A page's heading with its actions on the right (Refresh, Back, ...).
import type { ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PageTitle } from './page-title';

export function PageHeader({ title, actions }: { title: string; actions?: ReactNode }) {
  return (
    <Stack direction="row" alignItems="center" justifyContent="space-between" gap={2} flexWrap="wrap" sx={{ mb: 2 }}>
      <PageTitle title={title} />
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      {actions ? (
        <Stack direction="row" gap={1} flexWrap="wrap" alignItems="center">
          {actions}
        </Stack>
      ) : null}
    </Stack>
  );
}
