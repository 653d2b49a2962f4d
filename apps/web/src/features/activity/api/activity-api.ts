// The Activity page's calls: one page of the audit trail (over keys), the people for the filters, one page of the
// reads of personal data (issue 24), and the unusual-reading alerts with their acknowledgement.
import type {
  AccessAlert,
  AccessAlertsPage,
  AccessKind,
  AccessRecordPage,
  ActivityPage,
  ApiEnvelope,
} from '@eta/contracts';
import { api } from '../../../lib/api';

export interface ActivityFilters {
  actorId?: number;
  orderId?: string;
  action?: string;
  fromDate?: string;
  toDate?: string;
}

export interface ReadsFilters {
  staffId?: number;
  orderId?: string;
  kind?: AccessKind;
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
    accessRecords: build.query<AccessRecordPage, ReadsFilters & { cursor?: string; limit: number }>({
      query: (params) => ({ url: 'admin/access-records', params: { ...params } }),
      transformResponse: (body: ApiEnvelope<AccessRecordPage>) => body.data!,
      keepUnusedDataFor: 0,
    }),
    // The panel says itself when the alerts cannot be read.
    accessAlerts: build.query<AccessAlertsPage, { page: number; limit: number }>({
      query: (params) => ({ url: 'admin/access-alerts', params: { ...params }, silent: true }),
      transformResponse: (body: ApiEnvelope<AccessAlertsPage>) => body.data!,
      keepUnusedDataFor: 0,
    }),
    acknowledgeAlert: build.mutation<{ message: string; alert: AccessAlert }, number>({
      query: (alertId) => ({ url: `admin/access-alerts/${alertId}/acknowledge`, method: 'POST' }),
      transformResponse: (body: ApiEnvelope<AccessAlert>) => ({ message: body.message, alert: body.data! }),
    }),
  }),
});

export const {
  useActivityQuery,
  useActivityPeopleQuery,
  useAccessRecordsQuery,
  useAccessAlertsQuery,
  useAcknowledgeAlertMutation,
} = activityApi;
