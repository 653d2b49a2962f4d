// The one fetch helper: JSON in and out under /api (a multipart form out, a file in, where a call needs it), the
// staff token in `Authorization` (no Bearer prefix, spec §6), and the expired-session rule of spec §8 applied once
// for every staff call.
import { toast } from 'react-toastify';
import { getAccessToken, removeStoredUser } from './auth/session';
import { navigateTo } from './navigation';
import { paths } from '../config/paths';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryParams = Record<string, string | number | undefined>;

export interface HttpRequest {
  /** Path below /api/, e.g. 'admin/get-folder-count'. */
  url: string;
  method?: HttpMethod;
  params?: QueryParams;
  /** A JSON value, or a FormData for a multipart upload (spec §7 upload-visa-document). */
  body?: unknown;
  signal?: AbortSignal;
  /** Staff calls carry the token and treat 401 as an expired session; public calls do neither. */
  staff?: boolean;
  /**
   * Whether a 401 ends the session (default: for staff calls). Logout sends its token but is ending the session
   * itself, so a token that had already expired there is no news to show.
   */
  endsSessionOn401?: boolean;
}

export interface HttpOutcome {
  /** HTTP status; 0 when the server could not be reached or the call was aborted. */
  httpStatus: number;
  /** Parsed JSON body, or null when there was none. */
  body: unknown;
  aborted: boolean;
}

const API_ROOT = '/api/';
const NETWORK_ERROR_MESSAGE = 'Unable to reach the server. Please try again.';
const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
/** The expired-session toast's id: one toast however many calls fail, taken away once sign-in succeeds. */
export const SESSION_EXPIRED_TOAST_ID = 'session-expired';

export function buildUrl(url: string, params?: QueryParams): string {
  const query = new URLSearchParams();
  Object.entries(params ?? {}).forEach(([key, value]) => {
    if (value !== undefined) query.set(key, String(value));
  });
  const search = query.toString();
  return `${API_ROOT}${url.replace(/^\//, '')}${search ? `?${search}` : ''}`;
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** The envelope's `message`, when the body has one. */
export function messageOf(body: unknown): string | undefined {
  const message = field(body, 'message');
  return typeof message === 'string' && message.length > 0 ? message : undefined;
}

/** The envelope's `status` (1 success, 0 failure, 401 unauthorised). */
export function envelopeStatusOf(body: unknown): unknown {
  return field(body, 'status');
}

/** The failure envelope's machine-readable reason (`code`, ERROR_CODES), when it has one. */
export function envelopeCodeOf(body: unknown): string | undefined {
  const code = field(body, 'code');
  return typeof code === 'string' && code.length > 0 ? code : undefined;
}

/** The envelope's `data`; a failure may carry one too (a refused bulk move names the orders it skipped). */
export function envelopeDataOf(body: unknown): unknown {
  return field(body, 'data');
}

export function isSuccess(outcome: HttpOutcome): boolean {
  return outcome.httpStatus >= 200 && outcome.httpStatus < 300 && envelopeStatusOf(outcome.body) === 1;
}

export function failureMessage(outcome: HttpOutcome): string {
  if (outcome.httpStatus === 0) return NETWORK_ERROR_MESSAGE;
  return messageOf(outcome.body) ?? `Request failed (${outcome.httpStatus}).`;
}

function endStaffSession(message: string | undefined): void {
  // Several calls can fail together when a token expires; one toast is enough.
  toast.error(message ?? SESSION_EXPIRED_MESSAGE, { toastId: SESSION_EXPIRED_TOAST_ID });
  removeStoredUser();
  navigateTo(paths.entry);
}

async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function requestInit({ method = 'GET', body, signal, staff = true }: HttpRequest, accept: string): RequestInit {
  const headers: Record<string, string> = { Accept: accept };
  const isForm = body instanceof FormData;
  // A multipart body's Content-Type (with its boundary) is written by the browser.
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const token = staff ? getAccessToken() : null;
  if (token) headers.Authorization = token;
  return { method, headers, body: body === undefined ? undefined : isForm ? body : JSON.stringify(body), signal };
}

/** The answer, or null when the server could not be reached or the call was aborted. */
async function fetchApi(request: HttpRequest, accept: string): Promise<Response | null> {
  try {
    return await fetch(buildUrl(request.url, request.params), requestInit(request, accept));
  } catch {
    return null;
  }
}

function applySessionRule(request: HttpRequest, httpStatus: number, body: unknown): void {
  const { staff = true, endsSessionOn401 = staff } = request;
  if (endsSessionOn401 && (httpStatus === 401 || envelopeStatusOf(body) === 401)) endStaffSession(messageOf(body));
}

const unreachable = (request: HttpRequest): HttpOutcome => ({
  httpStatus: 0,
  body: null,
  aborted: request.signal?.aborted ?? false,
});

export async function sendRequest(request: HttpRequest): Promise<HttpOutcome> {
  const response = await fetchApi(request, 'application/json');
  if (!response) return unreachable(request);
  const parsed = await parseBody(response);
  applySessionRule(request, response.status, parsed);
  return { httpStatus: response.status, body: parsed, aborted: false };
}

export interface FileOutcome extends HttpOutcome {
  /** The file the server answered with; null on any failure (then `body` holds the failure envelope). */
  file: Blob | null;
}

/**
 * A call answered with a file (a defence pack's PDF): the file on success; a failure is answered in JSON, read
 * as every other answer, with the same expired-session rule.
 */
export async function requestFile(request: HttpRequest & { accept: string }): Promise<FileOutcome> {
  const response = await fetchApi(request, `${request.accept}, application/json`);
  if (!response) return { ...unreachable(request), file: null };
  const isJson = (response.headers.get('Content-Type') ?? '').includes('application/json');
  if (response.ok && !isJson) {
    try {
      return { httpStatus: response.status, body: null, aborted: false, file: await response.blob() };
    } catch {
      // The answer broke off while it was read.
      return { ...unreachable(request), file: null };
    }
  }
  const parsed = await parseBody(response);
  applySessionRule(request, response.status, parsed);
  return { httpStatus: response.status, body: parsed, aborted: false, file: null };
}
