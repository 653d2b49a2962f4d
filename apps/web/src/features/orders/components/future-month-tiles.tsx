// Twelve month tiles in time order from the current month, each named with its year and showing the number of
// future orders that start processing in it.
import Box from '@mui/material/Box';
import { plural } from '@eta/contracts/domain';
import { CountTile } from '../../../components/count-tile';
import type { FutureMonthCount } from '../api/orders-api';
import { futureMonths } from '../future-month-label';

interface FutureMonthTilesProps {
  counts: readonly FutureMonthCount[] | undefined;
  onSelect: (month: number) => void;
}

export function FutureMonthTiles({ counts, onSelect }: FutureMonthTilesProps) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}>
      {futureMonths().map(({ month, label }) => {
        const count = counts?.find((entry) => entry.month === month)?.count;
        return (
          <CountTile
            key={month}
            testId={`future-month-${month}`}
            label={label}
            count={count ?? '–'}
            countVariant="h4"
            onClick={() => onSelect(month)}
            ariaLabel={`${label}: ${count === undefined ? 'loading' : plural(count, 'order')}`}
          />
        );
      })}
    </Box>
  );
}
