// Spec §2 "Country Order Details" and "Processed By", §3 "Reports", §7: order counts by citizen country and
// by the staff member who processed them, for an optional range of UTC dates, with a CSV of the same rows.
import { Type, type Static } from 'typebox';
import { Envelope } from './envelope.js';

const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
const day = (label: string) =>
  Type.Optional(
    Type.String({
      pattern: DATE,
      maxLength: 10,
      errorMessage: `${label} must be a date written as YYYY-MM-DD.`,
    }),
  );

/** Both dates are whole UTC days and inclusive; either may be left out (open range). */
export const ReportRangeBody = Type.Object({
  fromDate: day('From date'),
  toDate: day('To date'),
  /** Part of the country (or staff name), any case: the page's search box. */
  search: Type.Optional(Type.String({ maxLength: 200 })),
});
export type ReportRangeBody = Static<typeof ReportRangeBody>;
/** The CSV export takes the same filter in its query string. */
export const ReportRangeQuery = ReportRangeBody;

/** Spec §3 "Country summary rows". citizen_country is '' when the application gave none. */
export const CountryReportRow = Type.Object({
  citizen_country: Type.String(),
  count: Type.Integer({ minimum: 0 }),
  standard_count: Type.Integer({ minimum: 0 }),
  priority_count: Type.Integer({ minimum: 0 }),
  future_count: Type.Integer({ minimum: 0 }),
});
export type CountryReportRow = Static<typeof CountryReportRow>;
export const CountryReportResponse = Envelope(Type.Array(CountryReportRow));

/** Spec §3 "Processed-by rows", with the staff id and whether the account is still active. */
export const ProcessedReportRow = Type.Object({
  staff_id: Type.Integer(),
  processed_by: Type.String(),
  active: Type.Boolean(),
  count: Type.Integer({ minimum: 0 }),
});
export type ProcessedReportRow = Static<typeof ProcessedReportRow>;
export const ProcessedReportResponse = Envelope(Type.Array(ProcessedReportRow));
