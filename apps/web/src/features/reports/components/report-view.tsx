// The frame both reports share (spec §2): From/To dates with Submit, a search box, the table (fixed header,
// pagination, 'No records found') with a bar chart of the same rows beside it, and a CSV of exactly the
// filtered rows. Dates are whole UTC days, both included. A From after To is refused by the form itself and
// clears the results shown, as a failed load does: no table, count or chart of an older range stays on screen.
import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import DownloadIcon from '@mui/icons-material/Download';
import type { ReportRangeBody } from '@eta/contracts';
import { PAGE_SIZE_OPTIONS } from '@eta/contracts/domain';
import { ListPagination } from '../../../components/list-pagination';
import { PageHeader } from '../../../components/page-header';
import { TableMessageRow } from '../../../components/table-message-row';
import { downloadFile } from '../../../lib/download-file';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback';
import { DateRangeFields, useDateRange } from './date-range-fields';
import { ReportBarChart, type Bar } from './report-bar-chart';

export interface ReportColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
}

interface ReportResult<T> {
  data?: { rows: T[]; message: string } | undefined;
  isFetching: boolean;
  isError: boolean;
  fulfilledTimeStamp?: number | undefined;
}

interface ReportViewProps<T> {
  title: string;
  searchLabel: string;
  chartTitle: string;
  columns: ReportColumn<T>[];
  csvUrl: string;
  csvName: string;
  useReport: (filter: ReportRangeBody) => ReportResult<T>;
  bar: (row: T) => Bar;
  rowKey: (row: T) => string;
}

const clean = (filter: ReportRangeBody): ReportRangeBody => ({
  ...(filter.fromDate ? { fromDate: filter.fromDate } : {}),
  ...(filter.toDate ? { toDate: filter.toDate } : {}),
  ...(filter.search ? { search: filter.search } : {}),
});

export function ReportView<T>(props: ReportViewProps<T>) {
  const { title, columns, useReport } = props;
  const range = useDateRange();
  const [searchText, setSearchText] = useState('');
  const [filter, setFilter] = useState<ReportRangeBody>({});
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(10);
  const [exporting, setExporting] = useState(false);
  const report = useReport(filter);
  const rows = range.isCleared || report.isError ? [] : (report.data?.rows ?? []);
  const shown = rows.slice(page * limit, page * limit + limit);

  const applySearch = useDebouncedCallback((value: string) => {
    setFilter((f) => clean({ ...f, search: value.trim() }));
    setPage(0);
  }, 500);

  // Spec §8: a report's message is a success toast when it loads (status 1); failures are the API layer's.
  const message = report.data?.message;
  useEffect(() => {
    if (message && report.fulfilledTimeStamp)
      toast.success(message, { toastId: `report-${report.fulfilledTimeStamp}` });
  }, [message, report.fulfilledTimeStamp]);

  const exportCsv = async () => {
    setExporting(true);
    const f = clean(filter);
    await downloadFile(
      props.csvUrl,
      { ...f },
      `${props.csvName}-${f.fromDate ?? 'start'}-to-${f.toDate ?? 'today'}.csv`,
    );
    setExporting(false);
  };

  return (
    <>
      <PageHeader
        title={title}
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
          direction={{ xs: 'column', sm: 'row' }}
          gap={2}
          alignItems={{ sm: 'flex-start' }}
          aria-label="Date filter"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setPage(0);
            if (range.accept()) {
              setFilter(clean({ fromDate: range.fromDate, toDate: range.toDate, search: searchText.trim() }));
            }
          }}
        >
          <DateRangeFields range={range} />
          <Button type="submit" variant="contained">
            Submit
          </Button>
          <Box sx={{ flex: 1 }} />
          <TextField
            size="small"
            label={props.searchLabel}
            value={searchText}
            onChange={(e) => {
              setSearchText(e.target.value);
              applySearch(e.target.value);
            }}
          />
        </Stack>
      </Paper>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' } }}>
        <Paper sx={{ p: 1, minWidth: 0 }}>
          <TableContainer sx={{ maxHeight: 550, containerType: 'inline-size' }}>
            <Table stickyHeader size="small" aria-label={title}>
              <TableHead>
                <TableRow>
                  <TableCell>S. No</TableCell>
                  {columns.map((c) => (
                    <TableCell key={c.header} align={c.numeric ? 'right' : 'left'}>
                      {c.header}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {range.isCleared ? (
                  <TableMessageRow colSpan={columns.length + 1}>
                    Choose a To date on or after the From date and Submit.
                  </TableMessageRow>
                ) : report.isFetching && rows.length === 0 ? (
                  <TableMessageRow colSpan={columns.length + 1}>Loading…</TableMessageRow>
                ) : report.isError ? (
                  <TableMessageRow colSpan={columns.length + 1}>The report could not be loaded.</TableMessageRow>
                ) : shown.length === 0 ? (
                  <TableMessageRow colSpan={columns.length + 1}>No records found</TableMessageRow>
                ) : (
                  shown.map((row, i) => (
                    <TableRow key={props.rowKey(row)} hover>
                      <TableCell>{page * limit + i + 1}</TableCell>
                      {columns.map((c) => (
                        <TableCell key={c.header} align={c.numeric ? 'right' : 'left'}>
                          {c.cell(row)}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <ListPagination
            count={rows.length}
            page={Math.min(page, Math.max(0, Math.ceil(rows.length / limit) - 1))}
            limit={limit}
            sizes={PAGE_SIZE_OPTIONS}
            onPageChange={setPage}
            onLimitChange={(next) => {
              setLimit(next);
              setPage(0);
            }}
          />
        </Paper>
        <Paper sx={{ p: 2, minWidth: 0 }}>
          <ReportBarChart title={props.chartTitle} bars={shown.map(props.bar)} />
        </Paper>
      </Box>
    </>
  );
}
