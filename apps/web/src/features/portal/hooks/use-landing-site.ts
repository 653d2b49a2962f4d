// The landing site of the page (`?site=` in the URL, default 'default') and its branding, with the service's
// own branding while it loads or when it cannot be loaded.
import { useOutletContext, useSearchParams } from 'react-router';
import { SERVICE_NAME } from '../../../config/brand';
import { useGetLandingSiteQuery, type LandingSite } from '../api/portal-api';

export const DEFAULT_SITE_KEY = 'default';

export function fallbackSite(key: string): LandingSite {
  return { key, display_name: SERVICE_NAME, logo_url: null, menu_links: [], footer_contact: '' };
}

export function useLandingSiteKey(): string {
  const [searchParams] = useSearchParams();
  return searchParams.get('site')?.trim() || DEFAULT_SITE_KEY;
}

export function useLoadLandingSite(): LandingSite {
  const key = useLandingSiteKey();
  const { data } = useGetLandingSiteQuery(key);
  return data ?? fallbackSite(key);
}

export interface PortalOutletContext {
  site: LandingSite;
}

/** The branding the public layout loaded, for the pages inside it. */
export function useLandingSite(): LandingSite {
  return useOutletContext<PortalOutletContext>().site;
}

/** Keeps `?site=` on links between portal pages so the branding stays the same. */
export function useWithSite(): (path: string) => string {
  const key = useLandingSiteKey();
  return (path) => (key === DEFAULT_SITE_KEY ? path : `${path}?site=${encodeURIComponent(key)}`);
}
