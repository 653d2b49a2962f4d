// The order's chargebacks (issue 21): its disputes with their history, the evidence a defence pack would send
// (previewed), and sending it to the gateway as a draft or for review. (The preview's PDF is a file, fetched outside
// the store.) Sending reloads the disputes, the order (its activity) and the lists (the ChargeBack queue shows the
// evidence's state), refused or not: a refusal may mean someone else sent it meanwhile.
import type { ApiEnvelope, DefencePackType, Dispute, EvidencePreview, SubmitEvidenceBody } from '@eta/contracts';
import { api } from '../../../lib/api';
import { detailTag } from './order-detail-api';

export interface EvidenceArgs {
  orderId: string;
  defencePackType: DefencePackType;
}

type DisputesTag = { type: 'Disputes'; id: string };
const disputesTag = (orderId: string): DisputesTag => ({ type: 'Disputes', id: orderId.toUpperCase() });

/** A successful send: the server's message (the toast) and the dispute as it now stands. */
export interface EvidenceSent {
  message: string;
  dispute: Dispute;
}

export const disputesApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Asked for every order; most have none, and a failure is the panel's to show, not a toast.
    getDisputes: build.query<Dispute[], string>({
      query: (orderId) => ({ url: `admin/disputes/${encodeURIComponent(orderId)}`, silent: true }),
      transformResponse: (body: ApiEnvelope<Dispute[]>) => body.data ?? [],
      providesTags: (_result, _error, orderId) => [disputesTag(orderId)],
    }),
    // The dialog shows why a preview cannot be made (no gateway dispute, a gateway without a dispute API).
    getEvidencePreview: build.query<EvidencePreview, EvidenceArgs>({
      query: ({ orderId, defencePackType }) => ({
        url: `admin/disputes/${encodeURIComponent(orderId)}/evidence`,
        params: { defencePackType },
        silent: true,
      }),
      transformResponse: (body: ApiEnvelope<EvidencePreview>) => body.data!,
      keepUnusedDataFor: 0,
    }),
    // The dialog shows a refusal in its own place, where it stays until the person acts on it.
    submitEvidence: build.mutation<EvidenceSent, SubmitEvidenceBody & { orderId: string }>({
      query: ({ orderId, ...body }) => ({
        url: `admin/disputes/${encodeURIComponent(orderId)}/evidence`,
        method: 'POST',
        body,
        silent: true,
      }),
      transformResponse: (body: ApiEnvelope<Dispute>) => ({ message: body.message, dispute: body.data! }),
      invalidatesTags: (_result, _error, { orderId }) => [disputesTag(orderId), detailTag(orderId), 'OrderList'],
    }),
  }),
});

/** The page's Refresh: a webhook may have changed the disputes since they were read. */
export const reloadDisputes = (orderId: string) => api.util.invalidateTags([disputesTag(orderId)]);

export const { useGetDisputesQuery, useGetEvidencePreviewQuery, useSubmitEvidenceMutation } = disputesApi;
