// What every portal page reads: the customer's language and its words, the landing site's branding and key,
// and the toasts.
import { createContext, useContext } from 'react';
import type { LandingSite } from '../api/portal-client';
import type { Language, Messages } from '../i18n/messages';

export type ToastKind = 'success' | 'error' | 'info';

export interface PortalContextValue {
  language: Language;
  t: Messages;
  setLanguage(language: Language): void;
  site: LandingSite;
  /** Links between portal pages keep the landing site (?site=) so the branding stays the same. */
  withSite(path: string, siteKey?: string): string;
  notify(kind: ToastKind, text: string): void;
}

export const PortalContext = createContext<PortalContextValue | null>(null);

export function usePortal(): PortalContextValue {
  const value = useContext(PortalContext);
  if (!value) throw new Error('usePortal outside the portal');
  return value;
}
