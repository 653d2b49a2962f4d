// Country Order Details and Processed By (spec §2, §3 "Reports", §7, §8): counts for an optional range of
// UTC dates (both ends inclusive) narrowed by the search box, as JSON for the page and as CSV with exactly
// the same rows.
import type { Kysely } from 'kysely';
import { COUNTRY_NOT_GIVEN, plural, type CountryReportRow, type ProcessedReportRow } from '@eta/contracts';
import type { DB } from '../../db/schema.js';
import { csvStream, type CsvCell } from '../../lib/csv.js';
import { checkDateRange } from '../../lib/date-filter.js';
import { REPORT_STATEMENT_TIMEOUT_MS, withStatementTimeout } from '../../db/statement-budget.js';
import { countByCountry, countByProcessor, type ReportFilter } from './reports.repository.js';

export interface ReportRange {
  fromDate?: string | undefined;
  toDate?: string | undefined;
  search?: string | undefined;
}

export function toFilter(range: ReportRange): ReportFilter {
  const { from, to } = checkDateRange(range);
  return { from, to, search: (range.search ?? '').trim().toLowerCase() };
}

const rangeWords = (f: ReportFilter) =>
  f.from && f.to ? `from ${f.from} to ${f.to}` : f.from ? `since ${f.from}` : f.to ? `until ${f.to}` : 'all dates';

const fileRange = (f: ReportFilter) => `${f.from ?? 'start'}-to-${f.to ?? 'today'}`;

async function* each<T>(rows: T[], cells: (row: T) => CsvCell[]): AsyncGenerator<CsvCell[]> {
  for (const row of rows) yield cells(row);
}

export class ReportsService {
  constructor(private readonly db: Kysely<DB>) {}

  // A report's statement has seconds, not the interactive budget (db/statement-budget.ts).
  private countries(filter: ReportFilter) {
    return withStatementTimeout(REPORT_STATEMENT_TIMEOUT_MS, () => countByCountry(this.db, filter));
  }

  private processors(filter: ReportFilter) {
    return withStatementTimeout(REPORT_STATEMENT_TIMEOUT_MS, () => countByProcessor(this.db, filter));
  }

  async countryReport(range: ReportRange): Promise<{ rows: CountryReportRow[]; message: string }> {
    const filter = toFilter(range);
    const rows = await this.countries(filter);
    return {
      rows,
      message: `Orders by country, ${rangeWords(filter)}: ${plural(rows.length, 'country', 'countries')}.`,
    };
  }

  async processedReport(range: ReportRange): Promise<{ rows: ProcessedReportRow[]; message: string }> {
    const filter = toFilter(range);
    const rows = await this.processors(filter);
    return { rows, message: `Orders processed, ${rangeWords(filter)}: ${plural(rows.length, 'staff member')}.` };
  }

  async countryCsv(range: ReportRange) {
    const filter = toFilter(range);
    const rows = await this.countries(filter);
    return {
      fileName: `country-orders-${fileRange(filter)}.csv`,
      stream: csvStream(
        [
          'S. No',
          'State/Territory',
          'Order Count',
          'Standard Processing',
          'Priority Processing',
          'Future Order Processing',
        ],
        each(
          rows.map((r, i) => [i, r] as const),
          ([i, r]) => [
            i + 1,
            r.citizen_country || COUNTRY_NOT_GIVEN,
            r.count,
            r.standard_count,
            r.priority_count,
            r.future_count,
          ],
        ),
      ),
    };
  }

  async processedCsv(range: ReportRange) {
    const filter = toFilter(range);
    const rows = await this.processors(filter);
    return {
      fileName: `processed-orders-${fileRange(filter)}.csv`,
      stream: csvStream(
        ['S. No', 'Name', 'Order Count'],
        each(
          rows.map((r, i) => [i, r] as const),
          ([i, r]) => [i + 1, r.processed_by, r.count],
        ),
      ),
    };
  }
}
