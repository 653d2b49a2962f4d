// Pagination bar of the shared table: entries shown, rows per page (10/25/50/100/500/All) and the page buttons
// (one sibling each side, ellipsis beyond 7 pages; spec §9).
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PAGE_SIZE_OPTIONS } from '@eta/contracts/domain';
import type { PageSize } from '../hooks/use-list-params';

interface OrderTablePaginationProps {
  page: number;
  pageSize: PageSize;
  /** The limit actually asked for ("All" resolved to the total). */
  limit: number;
  total: number;
  /**
   * A search's total when it read only as far as this page and one more, or to its cap of 1,000: there are at least
   * `total` matches (the next page exists), and the bar says "51+", "1,000+".
   */
  totalIsLowerBound?: boolean;
  shownRows: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: PageSize) => void;
}

export function OrderTablePagination({
  page,
  pageSize,
  limit,
  total,
  totalIsLowerBound = false,
  shownRows,
  onPageChange,
  onPageSizeChange,
}: OrderTablePaginationProps) {
  const pageCount = Math.ceil(total / limit);
  const first = shownRows === 0 ? 0 : (page - 1) * limit + 1;
  const last = shownRows === 0 ? 0 : first + shownRows - 1;

  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      alignItems={{ md: 'center' }}
      justifyContent="space-between"
      gap={2}
      sx={{ mt: 2 }}
    >
      <Typography variant="body2" color="text.secondary">
        Showing {first} to {last} of {totalIsLowerBound ? `${total.toLocaleString('en')}+` : total} entries
      </Typography>
      <Stack direction="row" alignItems="center" gap={2} flexWrap="wrap">
        <TextField
          select
          id="rows-per-page"
          label="Rows per page"
          size="small"
          value={String(pageSize)}
          onChange={(event) => onPageSizeChange(event.target.value === 'all' ? 'all' : Number(event.target.value))}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 120 }}
        >
          {PAGE_SIZE_OPTIONS.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
          <option value="all">All</option>
        </TextField>
        <Pagination
          count={pageCount}
          page={Math.min(page, Math.max(pageCount, 1))}
          siblingCount={1}
          boundaryCount={1}
          color="primary"
          onChange={(_event, next) => onPageChange(next)}
        />
      </Stack>
    </Stack>
  );
}
