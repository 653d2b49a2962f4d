// What the queue screens need besides their rows (issue 35): the member's urgent-first queues, the urgency window and
// the target times per processing type. The dashboard reads it too, so the changes live in files of their own
// (urgent-first-api.ts, processing-targets-api.ts) and stay out of the dashboard's first load.
import type { ApiEnvelope, QueueSettings } from '@eta/contracts';
import { api } from '../../../lib/api';

export const settingsOf = (body: ApiEnvelope<QueueSettings>) => body.data!;

export const queueSettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Silent: without it a queue still lists in queue order, and its switch stays off and disabled.
    getQueueSettings: build.query<QueueSettings, void>({
      query: () => ({ url: 'admin/queue-settings', silent: true }),
      transformResponse: settingsOf,
      providesTags: ['QueueSettings'],
    }),
  }),
});

export const { useGetQueueSettingsQuery } = queueSettingsApi;
