// The order detail page's calls (spec §7 "Staff orders", issues 7 and 8): the whole order in one answer, a comment,
// a Move-to button, transaction details, the holder actions through the queues' assign call, the approved
// document's upload, Resend and what a mail says. (The defence pack's PDF is a file, fetched outside the store.)
// Every change reloads the order; a status or holder change also reloads the lists and the folder counts,
// refused or not (a refusal means the order changed under the person).
import type {
  AddRemarkBody,
  ApiEnvelope,
  AssignOrderBody,
  BulkResult,
  MailContent,
  MailProvider,
  MoveOrderStatusBody,
  OrderDetails,
  RemarkEntry,
  ResendMailBody,
  ResendMailResult,
  SaveTransactionBody,
  UploadVisaDocumentAnswer,
} from '@eta/contracts';
import { api, type ApiError } from '../../../lib/api';
import { UPLOAD_FIELDS } from '../delivery-rules';

export interface OrderChange {
  orderId: string;
  version: number;
}

/** A successful change: the server's message (shown as the toast) and what it returned. */
export interface ChangeOutcome<T> {
  message: string;
  data?: T;
}

const outcome = <T>(body: ApiEnvelope<T>): ChangeOutcome<T> => ({ message: body.message, data: body.data });

/** The page reports a stale copy in its own words (who changed the order and when) and reloads. */
const isStale = (error: ApiError): boolean => error.code === 'STALE_VERSION';

type DetailTag = { type: 'OrderDetail'; id: string };
export const detailTag = (orderId: string): DetailTag => ({ type: 'OrderDetail', id: orderId.toUpperCase() });
const afterMove = (orderId: string) => [
  detailTag(orderId),
  'OrderList' as const,
  'FolderCounts' as const,
  'FutureOrderCounts' as const,
];

export interface AssignArgs {
  orderId: string;
  /** A staff name, or '' for Move to New orders. */
  assignto: string;
  version: number;
}

export interface UploadArgs {
  orderId: string;
  email: string;
  file: File;
  mailServiceProvider: MailProvider;
  /** Send a document the desk could not match to the order, for this reason (issue 35). */
  sendAnywayReason?: string;
  /** The member confirmed a mail to another address than the order's. */
  confirmEmailChange?: boolean;
}

/** Refusals the upload form shows itself (issue 35): what the document names, or the address to confirm. */
export const UPLOAD_QUESTIONS = ['DOCUMENT_MISMATCH', 'DOCUMENT_NOT_READ', 'EMAIL_CHANGE_UNCONFIRMED'] as const;

export interface MailContentArgs {
  orderId: string;
  /** A mail of the order; without it, its latest approval mail (or the one it would get now). */
  mailId?: number;
}

/** Spec §7: multipart with orderId, email, uploadVisaDoc and mailServiceProvider (and issue 35's answers). */
function uploadForm(args: UploadArgs): FormData {
  const form = new FormData();
  form.append(UPLOAD_FIELDS.orderId, args.orderId);
  form.append(UPLOAD_FIELDS.email, args.email);
  if (args.sendAnywayReason) form.append(UPLOAD_FIELDS.sendAnywayReason, args.sendAnywayReason);
  if (args.confirmEmailChange) form.append(UPLOAD_FIELDS.confirmEmailChange, 'true');
  form.append(UPLOAD_FIELDS.file, args.file, args.file.name);
  form.append(UPLOAD_FIELDS.provider, args.mailServiceProvider);
  return form;
}

export const orderDetailApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrderDetails: build.query<OrderDetails, string>({
      query: (orderId) => ({
        url: `admin/get-orders-details/${encodeURIComponent(orderId)}`,
        // An unknown order is the page's own "Order not found", not an error toast.
        silent: (error) => error.code === 'ORDER_NOT_FOUND',
      }),
      transformResponse: (body: ApiEnvelope<OrderDetails>) => body.data!,
      providesTags: (_result, _error, orderId) => [detailTag(orderId)],
    }),
    addRemark: build.mutation<ChangeOutcome<RemarkEntry>, AddRemarkBody>({
      query: (body) => ({ url: 'admin/add-new-remark', method: 'POST', body }),
      transformResponse: outcome<RemarkEntry>,
      invalidatesTags: (result, _error, { orderId }) => (result ? [detailTag(orderId)] : []),
    }),
    moveOrderStatus: build.mutation<ChangeOutcome<OrderChange>, MoveOrderStatusBody>({
      query: (body) => ({ url: 'admin/move-order-status', method: 'PUT', body, silent: isStale }),
      transformResponse: outcome<OrderChange>,
      invalidatesTags: (_result, _error, { orderId }) => afterMove(orderId),
    }),
    saveTransactionDetails: build.mutation<ChangeOutcome<OrderChange>, SaveTransactionBody>({
      query: (body) => ({ url: 'admin/save-transaction-details', method: 'POST', body, silent: isStale }),
      transformResponse: outcome<OrderChange>,
      invalidatesTags: (_result, _error, { orderId }) => [detailTag(orderId)],
    }),
    // The queues' call with one order; its 409 names the reason in `code` (and the skipped order in `data`).
    assignOrder: build.mutation<ChangeOutcome<BulkResult>, AssignArgs>({
      query: ({ orderId, assignto, version }) => ({
        url: 'admin/assign-order-status',
        method: 'PUT',
        body: { orderId: [orderId], assignto, versions: { [orderId]: version } } satisfies AssignOrderBody,
        silent: isStale,
      }),
      transformResponse: outcome<BulkResult>,
      invalidatesTags: (_result, _error, { orderId }) => afterMove(orderId),
    }),
    // The order becomes Completed, so its queues and counts reload too; a refusal reloads the order only.
    uploadVisaDocument: build.mutation<ChangeOutcome<UploadVisaDocumentAnswer>, UploadArgs>({
      query: (args) => ({
        url: 'admin/upload-visa-document',
        method: 'POST',
        body: uploadForm(args),
        silent: (error) => (UPLOAD_QUESTIONS as readonly string[]).includes(error.code ?? ''),
      }),
      transformResponse: outcome<UploadVisaDocumentAnswer>,
      invalidatesTags: (result, _error, { orderId }) => (result ? afterMove(orderId) : [detailTag(orderId)]),
    }),
    resendMail: build.mutation<ChangeOutcome<ResendMailResult>, ResendMailBody>({
      query: (body) => ({ url: 'admin/resend-mail', method: 'POST', body }),
      transformResponse: outcome<ResendMailResult>,
      invalidatesTags: (_result, _error, { orderId }) => [detailTag(orderId)],
    }),
    // Reloads with the order: a queued mail is sent meanwhile, a new one becomes the latest.
    getMailContent: build.query<MailContent, MailContentArgs>({
      query: ({ orderId, mailId }) => ({
        url: `admin/email-content/${encodeURIComponent(orderId)}`,
        params: { mailId },
      }),
      transformResponse: (body: ApiEnvelope<MailContent>) => body.data!,
      providesTags: (_result, _error, { orderId }) => [detailTag(orderId)],
    }),
  }),
});

export const {
  useGetOrderDetailsQuery,
  useAddRemarkMutation,
  useMoveOrderStatusMutation,
  useSaveTransactionDetailsMutation,
  useAssignOrderMutation,
  useUploadVisaDocumentMutation,
  useResendMailMutation,
  useGetMailContentQuery,
} = orderDetailApi;
