// The one RTK Query API; every feature adds its endpoints with `api.injectEndpoints`.
// Failures (HTTP error or envelope status other than 1) become { status, message, code, data } and are shown once,
// here, as an error toast (spec §8); the expired-session case is handled by `sendRequest`.
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { toast } from 'react-toastify';
import type { ErrorCode } from '@eta/contracts';
import { ERROR_CODES } from '@eta/contracts/domain';
import {
  envelopeCodeOf,
  envelopeDataOf,
  envelopeStatusOf,
  failureMessage,
  isSuccess,
  requestFile,
  sendRequest,
  type HttpMethod,
  type HttpOutcome,
  type QueryParams,
} from './http';

export interface ApiRequest {
  url: string;
  method?: HttpMethod;
  params?: QueryParams;
  body?: unknown;
  /** Public portal calls: no staff token, no expired-session handling. */
  isPublic?: boolean;
  /**
   * Leave the error toast to the caller (or to nobody, for optional data): for every failure, or for the failures
   * this function picks (the caller reports those in its own words).
   */
  silent?: boolean | ((error: ApiError) => boolean);
  /** Whether a 401 ends the session (default: for staff calls); background calls (the live desk's) leave it. */
  endsSessionOn401?: boolean;
}

export interface ApiError {
  /** HTTP status; 0 when the server could not be reached. */
  status: number;
  message: string;
  /** The failure envelope's reason code (clients branch on it, never on the wording), when it has one. */
  code?: ErrorCode;
  /** The failure envelope's `data`, when it has one. */
  data?: unknown;
}

function errorCodeOf(body: unknown): ErrorCode | undefined {
  const code = envelopeCodeOf(body);
  return (ERROR_CODES as readonly string[]).includes(code ?? '') ? (code as ErrorCode) : undefined;
}

/**
 * Failures every call of a page meets at once while the database or the server restarts or is overloaded (issue 32):
 * shown as one toast, not one per call.
 */
const SHARED_FAILURES: readonly ErrorCode[] = ['DATABASE_UNAVAILABLE', 'DATABASE_BUSY', 'SERVER_RESTARTING'];

/** A failed call as an ApiError, shown as an error toast unless the caller (or the expired-session rule) speaks. */
function reportFailure(outcome: HttpOutcome, { isPublic = false, silent = false }: ApiRequest): ApiError {
  const error: ApiError = {
    status: outcome.httpStatus,
    message: failureMessage(outcome),
    code: errorCodeOf(outcome.body),
    data: envelopeDataOf(outcome.body),
  };
  const alreadyShown = !isPublic && (outcome.httpStatus === 401 || envelopeStatusOf(outcome.body) === 401);
  const isSilent = typeof silent === 'function' ? silent(error) : silent;
  if (!isSilent && !outcome.aborted && !alreadyShown) {
    const shared = error.code !== undefined && SHARED_FAILURES.includes(error.code);
    toast.error(error.message, shared ? { toastId: error.code } : undefined);
  }
  return error;
}

export const apiBaseQuery: BaseQueryFn<ApiRequest, unknown, ApiError> = async (request, { signal }) => {
  const { isPublic = false, silent: _silent, ...rest } = request;
  const outcome = await sendRequest({ ...rest, signal, staff: !isPublic });
  if (isSuccess(outcome)) return { data: outcome.body };
  return { error: reportFailure(outcome, request) };
};

/**
 * A file from a staff call (a defence pack's PDF, a signature image), kept out of the store: the file, or the
 * failure reported as every other call's is (an aborted call, e.g. of a page that closed, is reported to nobody).
 */
export async function fetchFile(
  request: Omit<ApiRequest, 'isPublic'> & { accept: string; signal?: AbortSignal },
): Promise<{ file: Blob } | { error: ApiError }> {
  const { silent: _silent, ...rest } = request;
  const outcome = await requestFile(rest);
  if (outcome.file) return { file: outcome.file };
  return { error: reportFailure(outcome, request) };
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery: apiBaseQuery,
  tagTypes: [
    'FolderCounts',
    'OrderList',
    'FutureOrderCounts',
    'QueueSettings',
    'OrderDetail',
    'Team',
    'Gateways',
    'LandingSites',
    'Disputes',
    'Retention',
    'MySecurity',
    'Sessions',
    'SignInPolicy',
  ],
  endpoints: () => ({}),
});
