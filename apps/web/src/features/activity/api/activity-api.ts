// The Activity page's calls: one page of the audit trail (over keys), and the people for the filter.
import type { ActivityPage, ApiEnvelope } from '@eta/contracts';
import { api } from '../../../lib/api';

export interface ActivityFilters {
  actorId?: number;
  orderId?: string;
  action?: string;
  fromDate?: string;
  toDate?: string;
}

export const activityApi = api.injectEndpoints({
  endpoints: (build) => ({
    activity: build.query<ActivityPage, ActivityFilters & { cursor?: string; limit: number }>({
      query: (params) => ({ url: 'admin/activity', params: { ...params } }),
      transformResponse: (body: ApiEnvelope<ActivityPage>) => body.data!,
      keepUnusedDataFor: 0,
    }),
    activityPeople: build.query<{ id: number; name: string; active: boolean }[], void>({
      query: () => ({ url: 'admin/activity-people' }),
      transformResponse: (body: ApiEnvelope<{ id: number; name: string; active: boolean }[]>) => body.data!,
    }),
  }),
});

export const { useActivityQuery, useActivityPeopleQuery } = activityApi;
