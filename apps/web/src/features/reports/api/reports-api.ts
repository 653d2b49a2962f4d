// The two reports (spec §7): counts for a date range and search. Spec §8: the server's message is a success
// toast when status is 1, an error toast otherwise (the API layer shows failures; the page shows successes).
import type { ApiEnvelope, CountryReportRow, ProcessedReportRow, ReportRangeBody } from '@eta/contracts';
import { api } from '../../../lib/api';

export interface ReportAnswer<T> {
  rows: T[];
  message: string;
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
  }),
});

export const { useCountryReportQuery, useProcessedReportQuery } = reportsApi;
