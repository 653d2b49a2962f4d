// Twelve month tiles, Jan to Dec, each with the number of future orders that start processing in it.
import Box from '@mui/material/Box';
import { MONTH_LABELS } from '@eta/contracts/domain';
import { CountTile } from '../../../components/count-tile';
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
          <CountTile
            key={label}
            testId={`future-month-${month}`}
            label={label}
            count={count ?? '–'}
            countVariant="h4"
            onClick={() => onSelect(month)}
            ariaLabel={`${label}: ${count ?? 'loading'} orders`}
          />
        );
      })}
    </Box>
  );
}
