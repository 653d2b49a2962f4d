// Send Invoice (spec §7 `POST /admin/send-invoice {orderId}`): the invoice PDF of a paid order, mailed through the
// outbox. The page words every outcome itself (spec §8), so the API layer shows nothing.
import type { ApiEnvelope, SendInvoiceBody, SentInvoice } from '@eta/contracts';
import { api } from '../../../lib/api';

export interface InvoiceOutcome {
  message: string;
  invoice: SentInvoice;
}

export const invoicesApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendInvoice: build.mutation<InvoiceOutcome, SendInvoiceBody>({
      query: (body) => ({ url: 'admin/send-invoice', method: 'POST', body, silent: true }),
      transformResponse: (body: ApiEnvelope<SentInvoice>) => ({ message: body.message, invoice: body.data! }),
      // The invoice mail shows in that order's Email History.
      invalidatesTags: (result) => (result ? [{ type: 'OrderDetail', id: result.invoice.orderId.toUpperCase() }] : []),
    }),
  }),
});

export const { useSendInvoiceMutation } = invoicesApi;
