// Twelve month tiles, Jan to Dec, each with the number of future orders that start processing in it; a month
// that falls in next year shows that year.
import Box from '@mui/material/Box';
import { MONTH_LABELS, plural } from '@eta/contracts/domain';
import { CountTile } from '../../../components/count-tile';
import type { FutureMonthCount } from '../api/orders-api';
import { futureMonthLabel } from '../future-month-label';

interface FutureMonthTilesProps {
  counts: readonly FutureMonthCount[] | undefined;
  onSelect: (month: number) => void;
}

export function FutureMonthTiles({ counts, onSelect }: FutureMonthTilesProps) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))' }}>
      {MONTH_LABELS.map((_, index) => {
        const month = index + 1;
        const label = futureMonthLabel(month);
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
