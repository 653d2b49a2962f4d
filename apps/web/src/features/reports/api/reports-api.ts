// The reports (spec §7): counts for a date range and search. Spec §8: the server's message is a success
// toast when status is 1, an error toast otherwise (the API layer shows failures; the page shows successes).
// The Disputes report (issue 21) answers rows with their totals.
import type {
  ApiEnvelope,
  CountryReportRow,
  DisputesReportBody,
  DisputesReportRow,
  ProcessedReportRow,
  ReportRangeBody,
} from '@eta/contracts';
import { api } from '../../../lib/api';

export interface ReportAnswer<T> {
  rows: T[];
  message: string;
}

export interface DisputesReport {
  rows: DisputesReportRow[];
  totals: Omit<DisputesReportRow, 'month' | 'landing_site' | 'gateway_name' | 'reason'>;
}

export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    countryReport: build.query<ReportAnswer<CountryReportRow>, ReportRangeBody>({
      query: (body) => ({ url: 'admin/get-country-order-count', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<CountryReportRow[]>) => ({ rows: body.data!, message: body.message }),
      keepUnusedDataFor: 0,
    }),
    processedReport: build.query<ReportAnswer<ProcessedReportRow>, ReportRangeBody>({
      query: (body) => ({ url: 'admin/get-processed-by-count', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<ProcessedReportRow[]>) => ({ rows: body.data!, message: body.message }),
      keepUnusedDataFor: 0,
    }),
    disputesReport: build.query<DisputesReport, DisputesReportBody>({
      query: (body) => ({ url: 'admin/reports/disputes', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<DisputesReport>) => body.data!,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useCountryReportQuery, useProcessedReportQuery, useDisputesReportQuery } = reportsApi;
