// The shared order table of spec §2: selectable rows, the queue's columns, an Action column, a fixed header
// in a 550 px container, and a message row when there is nothing to show. Cells are tight and names and
// e-mails may break so that every column, Action included, fits beside the open side menu at 1280 px.
// Long pages ("All" is up to 5,000 rows) render only the rows in view, and a row re-renders only when its own
// data or tick changes, so a page of any size opens and ticks without a pause (docs/PERFORMANCE.md).
// A tap or click on a row opens its order, as View does: on a phone the table scrolls sideways and View is off-screen.
// Its checkbox, buttons and links keep their own click, and a click that ends selecting text selects it; the
// keyboard opens an order with View, a link like any other.
import Box from '@mui/material/Box';
import { buttonBaseClasses } from '@mui/material/ButtonBase';
import Checkbox, { checkboxClasses } from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody, { tableBodyClasses } from '@mui/material/TableBody';
import TableCell, { tableCellClasses } from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { memo, useCallback, useRef, type MouseEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { SxProps, Theme } from '@mui/material/styles';
import type { OrderListRow } from '@eta/contracts';
import { orderDetailPath, type OrderLinkState } from '../../../lib/order-links';
import type { OrderColumn } from '../order-columns';
import { useIsSelected, useSelectedCount, type RowSelection } from '../hooks/use-row-selection';
import { TableMessageRow } from '../../../components/table-message-row';
import { OrderRowActions } from './order-row-actions';

export const TABLE_HEIGHT_PX = 550;

/**
 * Pages up to this size (10 to 100 rows) are rendered whole: cheap, and what a browser without layout (jsdom)
 * sees. Longer pages (500 and All) render the rows in the 550 px window plus OVERSCAN_ROWS each side.
 */
const RENDER_ALL_UP_TO = 100;
/** Most rows take two lines at 1280 and 360 px (an e-mail or a name wraps); each is measured once rendered. */
const ESTIMATED_ROW_PX = 53;
/** Also covers the sticky header's height, which the row offsets do not count. */
const OVERSCAN_ROWS = 5;

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
  '& tr[data-order-id]': { cursor: 'pointer' },
  [`& ${PADDED_CELL}:last-of-type`]: { pr: 2 },
  // Row checkboxes have no ripple (its animation slowed the frame that shows a tick); keyboard focus still shows.
  [`& .${tableBodyClasses.root} .${checkboxClasses.root}.${buttonBaseClasses.focusVisible}`]: (theme: Theme) => ({
    outline: `2px solid ${theme.palette.primary.main}`,
    outlineOffset: -6,
  }),
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
  selection: RowSelection;
  /** What View carries to the detail page; changes with the rows (rows are memoized on it). */
  linkState: OrderLinkState;
  canDelete: boolean;
  /** Must be stable: rows are memoized on it. */
  onDelete: (row: OrderListRow) => void;
}

/** A column's value; an e-mail gets a line-break opportunity after its '@'. */
function CellValue({ column, row }: { column: OrderColumn; row: OrderListRow }) {
  if (column.Cell) return <column.Cell row={row} />;
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

interface OrderTableRowProps {
  row: OrderListRow;
  /** The row's place in the page. */
  index: number;
  columns: readonly OrderColumn[];
  selection: RowSelection;
  linkState: OrderLinkState;
  canDelete: boolean;
  onDelete: (row: OrderListRow) => void;
  /** Windowed tables measure each rendered row. */
  measureRef?: (element: HTMLTableRowElement | null) => void;
}

const OrderTableRow = memo(function OrderTableRow({
  row,
  index,
  columns,
  selection,
  linkState,
  canDelete,
  onDelete,
  measureRef,
}: OrderTableRowProps) {
  const selected = useIsSelected(selection, row.order_id);
  return (
    <TableRow
      hover
      selected={selected}
      ref={measureRef}
      // Only a windowed table needs these: the virtualizer reads the index, screen readers the row number
      // (the header is row 1).
      data-index={measureRef ? index : undefined}
      aria-rowindex={measureRef ? index + 2 : undefined}
      data-order-id={row.order_id}
    >
      <TableCell padding="checkbox">
        <Checkbox
          checked={selected}
          disableRipple
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
        <OrderRowActions row={row} linkState={linkState} canDelete={canDelete} onDelete={onDelete} />
      </TableCell>
    </TableRow>
  );
});

function SelectAllCheckbox({ rows, selection }: { rows: readonly OrderListRow[]; selection: RowSelection }) {
  const selectedOnPage = useSelectedCount(selection, rows);
  const allSelected = rows.length > 0 && selectedOnPage === rows.length;
  return (
    <Checkbox
      checked={allSelected}
      indeterminate={selectedOnPage > 0 && !allSelected}
      disabled={rows.length === 0}
      onChange={() => selection.toggleAll(rows)}
      slotProps={{ input: { 'aria-label': 'Select all orders on this page' } }}
    />
  );
}

/** What keeps its own click inside a row: the checkbox's cell, buttons, links and form fields. */
const OWN_CLICK = `.${tableCellClasses.paddingCheckbox}, a, button, input, label, select, textarea, [role="button"]`;

/**
 * The order a click on a row opens: none when the click was meant for something in the row (OWN_CLICK), ended a
 * text selection, or asks for more than a plain click (a modifier key: View, a link, opens a new tab).
 */
function orderClicked(event: MouseEvent<HTMLElement>): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return null;
  const target = event.target as Element;
  const row = target.closest<HTMLElement>('tr[data-order-id]');
  if (!row || target.closest(OWN_CLICK)) return null;
  const selection = window.getSelection();
  if (selection && !selection.isCollapsed && row.contains(selection.anchorNode)) return null;
  return row.dataset.orderId ?? null;
}

/** Stands in for the rows above or below the window, so the scroll bar stays true to the whole page. */
function SpacerRow({ colSpan, height }: { colSpan: number; height: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true">
      <td colSpan={colSpan} style={{ height, padding: 0, border: 0 }} />
    </tr>
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
  linkState,
  canDelete,
  onDelete,
}: OrderTableProps) {
  const colSpan = columns.length + 2;
  const navigate = useNavigate();
  // One listener for the whole body, so the rows stay memoized (a row's own handler would change with linkState).
  const openClickedOrder = (event: MouseEvent<HTMLElement>) => {
    const orderId = orderClicked(event);
    if (orderId) void navigate(orderDetailPath(orderId), { state: linkState });
  };

  const scrollRef = useRef<HTMLDivElement>(null);
  const isWindowed = !isLoading && rows.length > RENDER_ALL_UP_TO;
  const getItemKey = useCallback((index: number) => rows[index]?.order_id ?? index, [rows]);
  const virtualizer = useVirtualizer({
    enabled: isWindowed,
    count: isWindowed ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: OVERSCAN_ROWS,
    getItemKey,
  });

  const renderRow = (row: OrderListRow, index: number, measureRef?: OrderTableRowProps['measureRef']) => (
    <OrderTableRow
      key={row.order_id}
      row={row}
      index={index}
      columns={columns}
      selection={selection}
      linkState={linkState}
      canDelete={canDelete}
      onDelete={onDelete}
      measureRef={measureRef}
    />
  );

  let body: ReactNode;
  if (isLoading) {
    body = (
      <TableMessageRow colSpan={colSpan}>
        <CircularProgress size={28} aria-label="Loading orders" />
      </TableMessageRow>
    );
  } else if (rows.length === 0) {
    body = <TableMessageRow colSpan={colSpan}>{errorText ?? emptyText}</TableMessageRow>;
  } else if (isWindowed) {
    const items = virtualizer.getVirtualItems();
    const rowsAbove = items[0]?.start ?? 0;
    const rowsBelow = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
    body = (
      <>
        <SpacerRow colSpan={colSpan} height={rowsAbove} />
        {items.map((item) => {
          const row = rows[item.index];
          return row ? renderRow(row, item.index, virtualizer.measureElement) : null;
        })}
        <SpacerRow colSpan={colSpan} height={rowsBelow} />
      </>
    );
  } else {
    body = rows.map((row, index) => renderRow(row, index));
  }

  return (
    <Paper variant="outlined">
      <Box sx={{ height: 4 }}>
        {isFetching && !isLoading ? <LinearProgress aria-label="Refreshing orders" /> : null}
      </Box>
      <TableContainer ref={scrollRef} sx={{ maxHeight: TABLE_HEIGHT_PX, containerType: 'inline-size' }}>
        <Table
          stickyHeader
          size="small"
          aria-label={label}
          aria-rowcount={isWindowed ? rows.length + 1 : undefined}
          sx={TABLE_STYLES}
        >
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <SelectAllCheckbox rows={rows} selection={selection} />
              </TableCell>
              {columns.map((column) => (
                <TableCell key={column.key} sx={{ fontWeight: 600, ...CELL_WRAP[column.wrap] }}>
                  {column.header}
                </TableCell>
              ))}
              <TableCell sx={{ fontWeight: 600 }}>Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody onClick={openClickedOrder}>{body}</TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
