// An order's legal hold (Admin, issue 24): placed with a reason, released; either reloads the order.
import type { ApiEnvelope } from '@eta/contracts';
import { api } from '../../../lib/api';
import { detailTag } from './order-detail-api';

export const legalHoldApi = api.injectEndpoints({
  endpoints: (build) => ({
    placeLegalHold: build.mutation<string, { orderId: string; reason: string }>({
      query: (body) => ({ url: 'admin/legal-hold', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<unknown>) => body.message,
      invalidatesTags: (_result, _error, { orderId }) => [detailTag(orderId)],
    }),
    releaseLegalHold: build.mutation<string, { orderId: string }>({
      query: (body) => ({ url: 'admin/legal-hold/release', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<unknown>) => body.message,
      invalidatesTags: (_result, _error, { orderId }) => [detailTag(orderId)],
    }),
  }),
});

export const { usePlaceLegalHoldMutation, useReleaseLegalHoldMutation } = legalHoldApi;
