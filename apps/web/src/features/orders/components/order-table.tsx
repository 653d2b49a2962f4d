// The shared order table of spec §2: selectable rows, the queue's columns, an Action column, a fixed header
// in a 550 px container, and a message row when there is nothing to show. Cells are tight and names and
// e-mails may break so that every column, Action included, fits beside the open side menu at 1280 px.
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell, { tableCellClasses } from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import type { SxProps, Theme } from '@mui/material/styles';
import type { OrderListRow } from '@eta/contracts';
import type { OrderColumn } from '../order-columns';
import type { RowSelection } from '../hooks/use-row-selection';
import { TableMessageRow } from '../../../components/table-message-row';
import { OrderRowActions } from './order-row-actions';

export const TABLE_HEIGHT_PX = 550;

/** Cells give way so the table fits beside the side menu: long e-mails break, ids and dates do not. */
const CELL_WRAP = {
  normal: undefined,
  none: { whiteSpace: 'nowrap' },
  email: { overflowWrap: 'anywhere', minWidth: 160 },
} as const;

/** Tight cells: 8 px a side, 16 px at the right edge; checkbox and message cells keep their own padding. */
const PADDED_CELL = `.${tableCellClasses.root}:not(.${tableCellClasses.paddingCheckbox}):not(.${tableCellClasses.paddingNone})`;
const TABLE_STYLES: SxProps<Theme> = {
  [`& ${PADDED_CELL}`]: { px: 1 },
  [`& ${PADDED_CELL}:last-of-type`]: { pr: 2 },
};

interface OrderTableProps {
  label: string;
  rows: readonly OrderListRow[];
  columns: readonly OrderColumn[];
  isLoading: boolean;
  isFetching: boolean;
  /** Shown in the body when there are no rows and nothing is loading. */
  emptyText: string;
  /** Shown instead of emptyText when the list could not be loaded. */
  errorText?: string;
  selection: Pick<RowSelection, 'isSelected' | 'toggle' | 'toggleAll'>;
  canDelete: boolean;
  onDelete: (row: OrderListRow) => void;
}

/** A column's value; an e-mail gets a line-break opportunity after its '@'. */
function CellValue({ column, row }: { column: OrderColumn; row: OrderListRow }) {
  const value = column.render(row);
  const at = column.wrap === 'email' ? value.indexOf('@') : -1;
  if (at < 0) return value;
  return (
    <>
      {value.slice(0, at + 1)}
      <wbr />
      {value.slice(at + 1)}
    </>
  );
}

export function OrderTable({
  label,
  rows,
  columns,
  isLoading,
  isFetching,
  emptyText,
  errorText,
  selection,
  canDelete,
  onDelete,
}: OrderTableProps) {
  const colSpan = columns.length + 2;
  const selectedOnPage = rows.filter((row) => selection.isSelected(row.order_id)).length;
  const allSelected = rows.length > 0 && selectedOnPage === rows.length;

  let body: ReactNode;
  if (isLoading) {
    body = (
      <TableMessageRow colSpan={colSpan}>
        <CircularProgress size={28} aria-label="Loading orders" />
      </TableMessageRow>
    );
  } else if (rows.length === 0) {
    body = <TableMessageRow colSpan={colSpan}>{errorText ?? emptyText}</TableMessageRow>;
  } else {
    body = rows.map((row) => {
      const selected = selection.isSelected(row.order_id);
      return (
        <TableRow key={row.order_id} hover selected={selected}>
          <TableCell padding="checkbox">
            <Checkbox
              checked={selected}
              onChange={() => selection.toggle(row)}
              slotProps={{ input: { 'aria-label': `Select order ${row.order_id}` } }}
            />
          </TableCell>
          {columns.map((column) => (
            <TableCell key={column.key} sx={CELL_WRAP[column.wrap]}>
              <CellValue column={column} row={row} />
            </TableCell>
          ))}
          <TableCell sx={{ whiteSpace: 'nowrap' }}>
            <OrderRowActions row={row} canDelete={canDelete} onDelete={onDelete} />
          </TableCell>
        </TableRow>
      );
    });
  }

  return (
    <Paper variant="outlined">
      <Box sx={{ height: 4 }}>
        {isFetching && !isLoading ? <LinearProgress aria-label="Refreshing orders" /> : null}
      </Box>
      <TableContainer sx={{ maxHeight: TABLE_HEIGHT_PX, containerType: 'inline-size' }}>
        <Table stickyHeader size="small" aria-label={label} sx={TABLE_STYLES}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={allSelected}
                  indeterminate={selectedOnPage > 0 && !allSelected}
                  disabled={rows.length === 0}
                  onChange={() => selection.toggleAll(rows)}
                  slotProps={{ input: { 'aria-label': 'Select all orders on this page' } }}
                />
              </TableCell>
              {columns.map((column) => (
                <TableCell key={column.key} sx={{ fontWeight: 600, ...CELL_WRAP[column.wrap] }}>
                  {column.header}
                </TableCell>
              ))}
              <TableCell sx={{ fontWeight: 600 }}>Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
