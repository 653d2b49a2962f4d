// Public portal calls (spec §7 "Public"): no login; an order is identified by order ID plus e-mail.
import type { ApiEnvelope } from '@eta/contracts';
import { api } from '../../../lib/api';

export interface MenuLink {
  label: string;
  url: string;
}

/** Branding of a landing site (spec §1): logo, menu links and footer contact. */
export interface LandingSite {
  key: string;
  display_name: string;
  logo_url: string | null;
  menu_links: MenuLink[];
  footer_contact: string;
  support_phone?: string;
}

export interface TrackOrderBody {
  orderId: string;
  email: string;
}

export interface DownloadHistoryRow {
  order_id?: string;
  create_ts?: string;
  ip?: string;
  device?: string;
  device_type?: string;
  browser?: string;
  os?: string;
  location?: string;
}

export interface DownloadHistory {
  rows: DownloadHistoryRow[];
  fileName: string | null;
}

interface DownloadHistoryBody {
  status: number;
  message: string;
  data?: unknown;
  mainResult?: unknown;
  path?: { file1?: unknown } | null;
}

function toDownloadHistory(body: DownloadHistoryBody): DownloadHistory {
  const rows = Array.isArray(body.data) ? (body.data as DownloadHistoryRow[]) : [];
  const file = body.path?.file1;
  return { rows, fileName: typeof file === 'string' && file.length > 0 ? file : null };
}

const portalApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLandingSite: build.query<LandingSite | null, string>({
      // Branding is optional: on failure the portal shows the service's own branding, without a toast.
      query: (key) => ({ url: `front/landing-sites/${encodeURIComponent(key)}`, isPublic: true, silent: true }),
      transformResponse: (body: ApiEnvelope<LandingSite>) => body.data ?? null,
    }),
    trackOrder: build.mutation<ApiEnvelope, TrackOrderBody>({
      query: (body) => ({ url: 'front/track-order', method: 'POST', body, isPublic: true }),
    }),
    getDownloadHistory: build.query<DownloadHistory, { orderId: string; email?: string }>({
      query: (body) => ({ url: 'front/get-download-history', method: 'POST', body, isPublic: true, silent: true }),
      transformResponse: toDownloadHistory,
    }),
  }),
});

export const { useGetLandingSiteQuery, useTrackOrderMutation, useGetDownloadHistoryQuery } = portalApi;
