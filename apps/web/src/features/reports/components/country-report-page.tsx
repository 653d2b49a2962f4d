// Country Order Details (spec §2 /admin/country-order-list, §3 "Reports"): paid orders created in the range
// by citizen country, with the Standard, Priority and Future columns.
import type { CountryReportRow } from '@eta/contracts';
import { COUNTRY_NOT_GIVEN } from '@eta/contracts/domain';
import { useCountryReportQuery } from '../api/reports-api';
import { ReportView, type ReportColumn } from './report-view';

const countryName = (row: CountryReportRow) => row.citizen_country || COUNTRY_NOT_GIVEN;

const COLUMNS: ReportColumn<CountryReportRow>[] = [
  { header: 'State/Territory', cell: countryName },
  { header: 'Order Count', cell: (r) => r.count, numeric: true },
  { header: 'Standard Processing', cell: (r) => r.standard_count, numeric: true },
  { header: 'Priority Processing', cell: (r) => r.priority_count, numeric: true },
  { header: 'Future Order Processing', cell: (r) => r.future_count, numeric: true },
];

export function CountryReportPage() {
  return (
    <ReportView
      title="Country Order Details"
      searchLabel="Search country"
      chartTitle="Orders by country"
      columns={COLUMNS}
      csvUrl="admin/get-country-order-count/csv"
      csvName="country-orders"
      useReport={useCountryReportQuery}
      bar={(r) => ({ label: countryName(r), value: r.count })}
      rowKey={(r) => r.citizen_country}
    />
  );
}
