// Folder counts (spec §3): one number per queue, shown in the side menu and on the dashboard tiles; beside them the
// urgent orders per queue and the orders waiting too long (issue 35), shown on the dashboard.
import type { ApiEnvelope, FolderCountsPayload } from '@eta/contracts';
import { api } from '../../../lib/api';

const folderCountsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFolderCounts: build.query<FolderCountsPayload | null, string>({
      query: (userName) => ({ url: 'admin/get-folder-count', params: { userName } }),
      transformResponse: (body: ApiEnvelope<FolderCountsPayload>) => body.data ?? null,
      providesTags: ['FolderCounts'],
    }),
  }),
});

export const { useGetFolderCountsQuery } = folderCountsApi;

/**
 * Counts pushed by the live desk take the place of the cached ones, so the menu and the tiles move at once. The live
 * desk sends the same payload as the call (urgent and waiting counts included), though its event is typed as counts.
 */
export const replaceFolderCounts = (userName: string, counts: FolderCountsPayload) =>
  folderCountsApi.util.updateQueryData('getFolderCounts', userName, () => counts);
