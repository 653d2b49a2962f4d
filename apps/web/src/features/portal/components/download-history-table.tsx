// Downloaded History of an order (spec §2): who downloaded the document, when (EST) and from what device.
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Paper from '@mui/material/Paper';
import { TableMessageRow } from '../../../components/table-message-row';
import { formatEasternDateTime } from '../../../lib/format';
import type { DownloadHistoryRow } from '../api/portal-api';

const HEADINGS = [
  '#',
  'Order ID',
  'Date & Time (EST)',
  'Device IP Address',
  'Device',
  'Device Type',
  'Browser',
  'OS',
  'Device Location',
];

export function DownloadHistoryTable({ rows, isLoading }: { rows: readonly DownloadHistoryRow[]; isLoading: boolean }) {
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ containerType: 'inline-size' }}>
      <Table size="small" aria-label="Downloaded History">
        <TableHead>
          <TableRow>
            {HEADINGS.map((heading) => (
              <TableCell key={heading} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {heading}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 ? (
            <TableMessageRow colSpan={HEADINGS.length} py={2}>
              {isLoading ? 'Loading…' : 'No data available in table'}
            </TableMessageRow>
          ) : (
            rows.map((row, index) => (
              <TableRow key={`${row.create_ts ?? ''}-${index}`}>
                <TableCell>{index + 1}</TableCell>
                <TableCell>{row.order_id ?? ''}</TableCell>
                <TableCell>{formatEasternDateTime(row.create_ts)}</TableCell>
                <TableCell>{row.ip ?? ''}</TableCell>
                <TableCell>{row.device ?? ''}</TableCell>
                <TableCell>{row.device_type ?? ''}</TableCell>
                <TableCell>{row.browser ?? ''}</TableCell>
                <TableCell>{row.os ?? ''}</TableCell>
                <TableCell>{row.location ?? ''}</TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
