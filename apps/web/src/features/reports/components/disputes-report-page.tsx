// The Disputes report (issue 21, Admin and Manager): chargebacks opened in a date range (whole UTC days, both
// included) by month opened, landing site, gateway and reason: how many were opened, won, lost and are still
// open, with the win rate of those decided; a totals row, a bar chart of disputes opened per month, and the CSV of
// the same range.
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import type { DisputesReportBody, DisputesReportRow } from '@eta/contracts';
import { MONTH_LABELS } from '@eta/contracts/domain';
import { PageHeader } from '../../../components/page-header';
import { TableMessageRow } from '../../../components/table-message-row';
import type { ApiError } from '../../../lib/api';
import { downloadFile } from '../../../lib/download-file';
import { formatGatewayCode } from '../../../lib/format';
import { useDisputesReportQuery } from '../api/reports-api';
import { DateRangeFields, useDateRange } from './date-range-fields';
import { ReportBarChart, type Bar } from './report-bar-chart';

const TITLE = 'Disputes Report';
const COUNTS = ['opened', 'won', 'lost', 'open'] as const;
const HEADINGS = ['Month', 'Landing site', 'Gateway', 'Reason', 'Opened', 'Won', 'Lost', 'Open', 'Win rate'];
const NUMERIC_FROM = 4;

/** 'YYYY-MM' as 'Mar 2026'. */
export function monthLabel(month: string): string {
  const [year, number] = month.split('-');
  const name = MONTH_LABELS[Number(number) - 1];
  return name && year ? `${name} ${year}` : month;
}

/** Won out of those decided; a dash while none is decided. */
const winRate = (rate: number | null): string => (rate === null ? '—' : `${Math.round(rate * 100)}%`);

/** Disputes opened per month, oldest month first. */
function openedByMonth(rows: readonly DisputesReportRow[]): Bar[] {
  const byMonth = new Map<string, number>();
  for (const row of rows) byMonth.set(row.month, (byMonth.get(row.month) ?? 0) + row.opened);
  return [...byMonth.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([month, opened]) => ({ label: monthLabel(month), value: opened }));
}

const clean = (filter: DisputesReportBody): DisputesReportBody => ({
  ...(filter.fromDate ? { fromDate: filter.fromDate } : {}),
  ...(filter.toDate ? { toDate: filter.toDate } : {}),
});

export function DisputesReportPage() {
  const range = useDateRange();
  const [filter, setFilter] = useState<DisputesReportBody>({});
  const [exporting, setExporting] = useState(false);
  const report = useDisputesReportQuery(filter);
  const rows = range.isCleared ? [] : (report.data?.rows ?? []);
  const totals = range.isCleared ? undefined : report.data?.totals;
  const error = report.error as ApiError | undefined;

  const exportCsv = async () => {
    setExporting(true);
    await downloadFile(
      'admin/reports/disputes/csv',
      { ...filter },
      `disputes-${filter.fromDate ?? 'start'}-to-${filter.toDate ?? 'today'}.csv`,
    );
    setExporting(false);
  };

  let body;
  if (range.isCleared) {
    body = (
      <TableMessageRow colSpan={HEADINGS.length}>
        Choose a To date on or after the From date and Submit.
      </TableMessageRow>
    );
  } else if (report.isFetching && rows.length === 0) {
    body = <TableMessageRow colSpan={HEADINGS.length}>Loading…</TableMessageRow>;
  } else if (error && !report.data) {
    body = <TableMessageRow colSpan={HEADINGS.length}>The report could not be loaded. {error.message}</TableMessageRow>;
  } else if (rows.length === 0) {
    body = (
      <TableMessageRow colSpan={HEADINGS.length}>
        No disputes were opened {filter.fromDate || filter.toDate ? 'in these dates' : 'yet'}.
      </TableMessageRow>
    );
  } else {
    body = rows.map((row) => (
      <TableRow key={`${row.month}|${row.landing_site}|${row.gateway_name}|${row.reason}`} hover>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{monthLabel(row.month)}</TableCell>
        <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.landing_site}</TableCell>
        <TableCell>{row.gateway_name}</TableCell>
        <TableCell>{formatGatewayCode(row.reason)}</TableCell>
        {COUNTS.map((key) => (
          <TableCell key={key} align="right">
            {row[key].toLocaleString('en')}
          </TableCell>
        ))}
        <TableCell align="right">{winRate(row.win_rate)}</TableCell>
      </TableRow>
    ));
  }

  return (
    <>
      <PageHeader
        title={TITLE}
        actions={
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            disabled={exporting || report.isFetching || range.isCleared}
            onClick={() => void exportCsv()}
          >
            Download CSV
          </Button>
        }
      />
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack
          component="form"
          noValidate
          direction={{ xs: 'column', sm: 'row' }}
          gap={2}
          alignItems={{ sm: 'flex-start' }}
          aria-label="Date filter"
          onSubmit={(event) => {
            event.preventDefault();
            if (range.accept()) setFilter(clean({ fromDate: range.fromDate, toDate: range.toDate }));
          }}
        >
          <DateRangeFields range={range} />
          <Button type="submit" variant="contained" sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}>
            Submit
          </Button>
        </Stack>
      </Paper>
      {/* Nine columns need the whole width up to a very wide screen; the chart goes under the table until then. */}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', xl: 'minmax(0, 3fr) minmax(0, 2fr)' } }}>
        <Paper sx={{ p: 1, minWidth: 0 }}>
          <TableContainer sx={{ maxHeight: 550, containerType: 'inline-size' }}>
            <Table stickyHeader size="small" aria-label={TITLE}>
              <TableHead>
                <TableRow>
                  {HEADINGS.map((heading, index) => (
                    <TableCell key={heading} align={index >= NUMERIC_FROM ? 'right' : 'left'}>
                      {heading}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>{body}</TableBody>
              {totals && rows.length > 0 ? (
                <TableFooter>
                  <TableRow sx={{ '& td': { fontWeight: 600, color: 'text.primary', fontSize: '0.875rem' } }}>
                    <TableCell colSpan={NUMERIC_FROM}>Total</TableCell>
                    {COUNTS.map((key) => (
                      <TableCell key={key} align="right">
                        {totals[key].toLocaleString('en')}
                      </TableCell>
                    ))}
                    <TableCell align="right">{winRate(totals.win_rate)}</TableCell>
                  </TableRow>
                </TableFooter>
              ) : null}
            </Table>
          </TableContainer>
          <Typography variant="caption" component="p" color="text.secondary" sx={{ px: 1, pt: 1 }}>
            Win rate: disputes won out of those decided (won or lost).
          </Typography>
        </Paper>
        <Paper sx={{ p: 2, minWidth: 0 }}>
          <ReportBarChart title="Disputes opened by month" bars={openedByMonth(rows)} />
        </Paper>
      </Box>
    </>
  );
}
