// Folder counts (spec §3): one number per queue, shown in the side menu and on the dashboard tiles.
import type { ApiEnvelope, FolderCounts } from '@eta/contracts';
import { api } from '../../../lib/api';

const folderCountsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFolderCounts: build.query<FolderCounts | null, string>({
      query: (userName) => ({ url: 'admin/get-folder-count', params: { userName } }),
      transformResponse: (body: ApiEnvelope<FolderCounts>) => body.data ?? null,
      providesTags: ['FolderCounts'],
    }),
  }),
});

export const { useGetFolderCountsQuery } = folderCountsApi;

/** Counts pushed by the live desk take the place of the cached ones, so the menu and the tiles move at once. */
export const replaceFolderCounts = (userName: string, counts: FolderCounts) =>
  folderCountsApi.util.updateQueryData('getFolderCounts', userName, () => counts);
