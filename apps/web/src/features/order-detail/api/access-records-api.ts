// The order's "Viewed by" (issue 24, Admin and Manager): who opened its personal data, newest first, ten at a time.
// Optional data beside the order: a failure is the section's to show, not a toast.
import type { AccessRecordPage, ApiEnvelope } from '@eta/contracts';
import { api } from '../../../lib/api';

export const VIEWED_BY_PAGE = 10;

export interface ViewedByArgs {
  orderId: string;
  /** The `next` of the page before; absent for the newest. */
  cursor?: string;
}

const accessRecordsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getViewedBy: build.query<AccessRecordPage, ViewedByArgs>({
      query: ({ orderId, cursor }) => ({
        url: `admin/orders/${encodeURIComponent(orderId)}/access-records`,
        params: { limit: VIEWED_BY_PAGE, ...(cursor ? { cursor } : {}) },
        silent: true,
      }),
      transformResponse: (body: ApiEnvelope<AccessRecordPage>) => body.data!,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGetViewedByQuery } = accessRecordsApi;
