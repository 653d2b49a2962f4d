// The target time per processing type (issue 35; Admin): new targets change which orders are late, so the lists and
// the counts reload with the settings.
import type { ProcessingTargets, QueueSettings } from '@eta/contracts';
import { queueSettingsApi, settingsOf } from './queue-settings-api';

const processingTargetsApi = queueSettingsApi.injectEndpoints({
  endpoints: (build) => ({
    setProcessingTargets: build.mutation<QueueSettings, ProcessingTargets>({
      query: (body) => ({ url: 'admin/processing-targets', method: 'PUT', body }),
      transformResponse: settingsOf,
      invalidatesTags: (result) => (result ? ['QueueSettings', 'OrderList', 'FolderCounts'] : []),
    }),
  }),
});

export const { useSetProcessingTargetsMutation } = processingTargetsApi;
