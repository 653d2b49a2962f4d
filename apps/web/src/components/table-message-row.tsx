// A message across a whole table ("No data available in table", a spinner). When the table scrolls
// sideways (narrow screens) the message stays centred in the visible part of its container, which must
// set `containerType: 'inline-size'`.
import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';

interface TableMessageRowProps {
  colSpan: number;
  children: ReactNode;
  /** Vertical padding in theme spacing units. */
  py?: number;
}

export function TableMessageRow({ colSpan, children, py = 6 }: TableMessageRowProps) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} padding="none" sx={{ color: 'text.secondary' }}>
        <Box
          sx={{ position: 'sticky', left: 0, width: '100cqi', boxSizing: 'border-box', py, px: 2, textAlign: 'center' }}
        >
          {children}
        </Box>
      </TableCell>
    </TableRow>
  );
}
