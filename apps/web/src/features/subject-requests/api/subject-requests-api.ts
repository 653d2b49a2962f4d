// Customer Requests calls (Admin, issue 24): the summary of a person's orders by e-mail address and the erasure
// request (both audited by the server, so both are mutations: nothing is read again behind the Admin's back), and
// the two exports, which are files kept out of the store.
import type { ApiEnvelope, ErasureResult, SubjectSummary } from '@eta/contracts';
import { api, fetchFile } from '../../../lib/api';

export const subjectRequestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    subjectSummary: build.mutation<SubjectSummary, { email: string }>({
      query: (body) => ({ url: 'admin/subject-requests/summary', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<SubjectSummary>) => body.data!,
    }),
    eraseSubject: build.mutation<{ message: string; result: ErasureResult }, { email: string }>({
      query: ({ email }) => ({ url: 'admin/subject-requests/erase', method: 'POST', body: { email, confirm: true } }),
      transformResponse: (body: ApiEnvelope<ErasureResult>) => ({ message: body.message, result: body.data! }),
      invalidatesTags: ['OrderDetail', 'Retention'],
    }),
  }),
});

export const { useSubjectSummaryMutation, useEraseSubjectMutation } = subjectRequestsApi;

export const EXPORT_FORMATS = {
  json: { url: 'admin/subject-requests/export.json', accept: 'application/vnd.eta-desk.subject-access+json' },
  pdf: { url: 'admin/subject-requests/export.pdf', accept: 'application/pdf' },
} as const;

/** Saves an export under a name with today's date; false when the call failed (already reported). */
export async function downloadExport(format: keyof typeof EXPORT_FORMATS, email: string): Promise<boolean> {
  const { url, accept } = EXPORT_FORMATS[format];
  const outcome = await fetchFile({ url, method: 'POST', body: { email }, accept });
  if ('error' in outcome) return false;
  const href = URL.createObjectURL(outcome.file);
  const link = document.createElement('a');
  link.href = href;
  link.download = `subject-access-${new Date().toISOString().slice(0, 10)}.${format}`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return true;
}
