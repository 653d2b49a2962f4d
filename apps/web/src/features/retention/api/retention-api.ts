// Data Retention calls (Admin, issue 24): the policy per landing site and the last runs, a policy change, and a
// run started (dry or erasing). Changes reload the overview, which the page polls while a run is going on.
import type {
  ApiEnvelope,
  RetentionOverview,
  RetentionPolicy,
  RetentionRun,
  StartRetentionRunBody,
} from '@eta/contracts';
import { api } from '../../../lib/api';

export const retentionApi = api.injectEndpoints({
  endpoints: (build) => ({
    retentionOverview: build.query<RetentionOverview, void>({
      query: () => ({ url: 'admin/retention' }),
      transformResponse: (body: ApiEnvelope<RetentionOverview>) => body.data!,
      providesTags: ['Retention'],
    }),
    updateRetentionPolicy: build.mutation<string, { key: string; months: number }>({
      query: ({ key, months }) => ({
        url: `admin/retention/policies/${encodeURIComponent(key)}`,
        method: 'PUT',
        body: { months },
      }),
      transformResponse: (body: ApiEnvelope<RetentionPolicy>) => body.message,
      invalidatesTags: ['Retention'],
    }),
    startRetentionRun: build.mutation<{ message: string; run: RetentionRun }, StartRetentionRunBody>({
      query: (body) => ({ url: 'admin/retention/runs', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<RetentionRun>) => ({ message: body.message, run: body.data! }),
      invalidatesTags: ['Retention'],
    }),
  }),
});

export const { useRetentionOverviewQuery, useUpdateRetentionPolicyMutation, useStartRetentionRunMutation } =
  retentionApi;
