// The portal's calls (spec §7 "Public"): plain fetch, no staff session, no console code. The proof track-order
// issues is kept in this tab's sessionStorage per order and sent with the history and download calls.
import type { ErrorCode } from '@eta/contracts/domain';
import { ERROR_CODES, TRACK_PROOF_HEADER } from '@eta/contracts/domain';

export interface MenuLink {
  label: string;
  url: string;
}

export interface LandingSite {
  key: string;
  display_name: string;
  logo_url: string | null;
  menu_links: MenuLink[];
  footer_contact: string;
  support_phone: string | null;
  translate_widget_url: string | null;
}

export interface TrackedOrder {
  orderId: string;
  proof: string;
  expiresAt: string;
  landingSite: string;
}

export interface CustomerDownload {
  order_id: string;
  create_ts: string;
  ip: string;
  device: string;
  device_type: string;
  browser: string;
  os: string;
  location: string;
}

export interface DownloadHistory {
  message: string;
  data: CustomerDownload[];
  mainResult: { order_id: string; customer_name: string; process_status: string; landing_site: string };
  path: { file1: string | null };
  /** The approval's number and expiry (YYYY-MM-DD) as the desk read them, when it did (issue 35). */
  approval?: { applicationNumber: string | null; expiresOn: string | null };
}

/** A failed call: the server's code and message, the wait of a 429, or status 0 when it was unreachable. */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

interface Envelope {
  status?: number;
  message?: string;
  code?: string;
  data?: unknown;
}

async function call<T>(path: string, init: { body?: unknown; proof?: string } = {}): Promise<T & Envelope> {
  let response: Response;
  try {
    response = await fetch(`/api/front/${path}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: {
        Accept: 'application/json',
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(init.proof ? { [TRACK_PROOF_HEADER]: init.proof } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new PortalError(0, 'The server could not be reached.');
  }
  const body = (await response.json().catch(() => ({}))) as T & Envelope;
  if (response.ok && body.status === 1) return body;
  const code = (ERROR_CODES as readonly string[]).includes(body.code ?? '') ? (body.code as ErrorCode) : undefined;
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new PortalError(
    response.status,
    body.message ?? `The request failed (${response.status}).`,
    code,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

export async function fetchLandingSite(key: string): Promise<LandingSite> {
  const body = await call<{ data: LandingSite }>(`landing-sites/${encodeURIComponent(key)}`);
  return body.data;
}

export async function trackOrder(orderId: string, email: string): Promise<TrackedOrder> {
  const body = await call<{ data: TrackedOrder }>('track-order', { body: { orderId, email } });
  saveProof(body.data);
  return body.data;
}

export const fetchDownloadHistory = (orderId: string, proof: string) =>
  call<DownloadHistory>('get-download-history', { body: { orderId }, proof });

export async function prepareDownload(
  body: { orderId: string; customername: string; file1: string; timezone?: string },
  proof: string,
): Promise<string> {
  const reply = await call<{ data: { url: string } }>('download-passport-doc-pdf', { body, proof });
  return reply.data.url;
}

const proofKey = (orderId: string) => `eta-track-proof:${orderId.trim().toUpperCase()}`;

function saveProof(order: TrackedOrder): void {
  try {
    sessionStorage.setItem(proofKey(order.orderId), JSON.stringify(order));
  } catch {
    // Storage refused (private mode): the page will ask to track again.
  }
}

/** This tab's current proof for the order, if it has one that has not expired. */
export function storedProof(orderId: string): TrackedOrder | null {
  try {
    const raw = sessionStorage.getItem(proofKey(orderId));
    const order = raw ? (JSON.parse(raw) as TrackedOrder) : null;
    if (order && new Date(order.expiresAt).getTime() > Date.now()) return order;
    sessionStorage.removeItem(proofKey(orderId));
  } catch {
    // Unreadable: treated as no proof.
  }
  return null;
}

export function forgetProof(orderId: string): void {
  try {
    sessionStorage.removeItem(proofKey(orderId));
  } catch {
    // Nothing to forget.
  }
}
