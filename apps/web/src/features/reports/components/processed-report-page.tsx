// Processed By (spec §2 /admin/processed-order, Admin only): orders moved to Completed in the range, by the
// person who did it as recorded at the time; a deleted member keeps their name, marked "(deleted)".
import type { ProcessedReportRow } from '@eta/contracts';
import { useProcessedReportQuery } from '../api/reports-api';
import { ReportView, type ReportColumn } from './report-view';

const name = (row: ProcessedReportRow) => `${row.processed_by}${row.active ? '' : ' (deleted)'}`;

const COLUMNS: ReportColumn<ProcessedReportRow>[] = [
  { header: 'Name', cell: name },
  { header: 'Order Count', cell: (r) => r.count, numeric: true },
];

export function ProcessedReportPage() {
  return (
    <ReportView
      title="Processed By"
      searchLabel="Search name"
      chartTitle="Orders processed by person"
      columns={COLUMNS}
      csvUrl="admin/get-processed-by-count/csv"
      csvName="processed-orders"
      useReport={useProcessedReportQuery}
      bar={(r) => ({ label: name(r), value: r.count })}
      rowKey={(r) => String(r.staff_id)}
    />
  );
}
