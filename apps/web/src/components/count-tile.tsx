// A clickable tile with a big number and a label: the dashboard's queue tiles and the Future month tiles. A footer
// (the dashboard's "3 urgent" link) sits under the clickable part, not inside it.
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface CountTileProps {
  label: string;
  count: ReactNode;
  testId: string;
  countVariant?: 'h3' | 'h4';
  /** A route to open, or a handler; exactly one. */
  to?: string;
  onClick?: () => void;
  ariaLabel?: string;
  footer?: ReactNode;
}

export function CountTile({
  label,
  count,
  testId,
  countVariant = 'h3',
  to,
  onClick,
  ariaLabel,
  footer,
}: CountTileProps) {
  const content = (
    <CardContent>
      <Typography variant={countVariant} component="p" color="primary">
        {count}
      </Typography>
      <Typography variant="subtitle1" component="h2">
        {label}
      </Typography>
    </CardContent>
  );
  return (
    <Card data-testid={testId} sx={{ display: 'flex', flexDirection: 'column' }}>
      {to ? (
        <CardActionArea component={RouterLink} to={to} aria-label={ariaLabel} sx={{ flexGrow: 1 }}>
          {content}
        </CardActionArea>
      ) : (
        <CardActionArea onClick={onClick} aria-label={ariaLabel}>
          {content}
        </CardActionArea>
      )}
      {footer ? <Box sx={{ px: 2, pb: 1.5 }}>{footer}</Box> : null}
    </Card>
  );
}
