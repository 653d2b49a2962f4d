// Twelve month tiles, Jan to Dec, each with the number of future orders that start processing in it.
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { MONTH_LABELS } from '@eta/contracts/domain';
import type { FutureMonthCount } from '../api/orders-api';

interface FutureMonthTilesProps {
  counts: readonly FutureMonthCount[] | undefined;
  onSelect: (month: number) => void;
}

export function FutureMonthTiles({ counts, onSelect }: FutureMonthTilesProps) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}>
      {MONTH_LABELS.map((label, index) => {
        const month = index + 1;
        const count = counts?.find((entry) => entry.month === month)?.count;
        return (
          <Card key={label} data-testid={`future-month-${month}`}>
            <CardActionArea onClick={() => onSelect(month)} aria-label={`${label}: ${count ?? 'loading'} orders`}>
              <CardContent>
                <Typography variant="h4" component="p" color="primary">
                  {count ?? '–'}
                </Typography>
                <Typography variant="subtitle1" component="h2">
                  {label}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        );
      })}
    </Box>
  );
}
