// The landing site of the page (`?site=`, else the default) and its branding, loaded once per site. While it
// loads, or if it cannot be loaded, the service's own branding stands in.
import { useEffect, useState } from 'react';
import { fetchLandingSite, type LandingSite } from '../api/portal-client';

const SERVICE_NAME = 'Canada eTA';

export const fallbackSite = (key: string): LandingSite => ({
  key,
  display_name: SERVICE_NAME,
  logo_url: null,
  menu_links: [],
  footer_contact: '',
  support_phone: null,
  translate_widget_url: null,
});

const cache = new Map<string, Promise<LandingSite>>();

export function useLandingSite(key: string): LandingSite {
  const [site, setSite] = useState<LandingSite>(() => fallbackSite(key));
  useEffect(() => {
    let current = true;
    let loading = cache.get(key);
    if (!loading) {
      loading = fetchLandingSite(key);
      cache.set(key, loading);
      loading.catch(() => cache.delete(key));
    }
    loading.then(
      (loaded) => current && setSite(loaded),
      () => current && setSite(fallbackSite(key)),
    );
    return () => {
      current = false;
    };
  }, [key]);
  return site;
}
