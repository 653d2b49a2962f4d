// A queue sorted urgent first or back in queue order, for the signed-in member (issue 35; every role).
import type { QueueName, QueueSettings } from '@eta/contracts';
import { queueSettingsApi, settingsOf } from './queue-settings-api';

const urgentFirstApi = queueSettingsApi.injectEndpoints({
  endpoints: (build) => ({
    // The answer is the member's settings: they replace the cached ones, so the list asks again in its new order.
    setUrgentFirst: build.mutation<QueueSettings, { queue: QueueName; urgentFirst: boolean }>({
      query: (body) => ({ url: 'admin/queue-settings/urgent-first', method: 'PUT', body }),
      transformResponse: settingsOf,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          void dispatch(queueSettingsApi.util.upsertQueryData('getQueueSettings', undefined, data));
        } catch {
          // The API layer showed the server's message; the switch stays as it was.
        }
      },
    }),
  }),
});

export const { useSetUrgentFirstMutation } = urgentFirstApi;
