// The customer portal, its own page (portal.html): language, branding and toasts around the page the path names.
import { DEFAULT_LANDING_SITE } from '@eta/contracts/domain';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { LANGUAGES, MESSAGES, languageFromBrowser, type Language } from '../i18n/messages';
import { PortalContext, usePortal, type PortalContextValue } from '../hooks/portal-context';
import { useLandingSite } from '../hooks/use-landing-site';
import { usePortalLocation } from '../hooks/use-portal-location';
import { ContactPage } from './contact-page';
import { FaqPage } from './faq-page';
import { OrderDownloadPage, TRACK_AGAIN_NOTICE } from './order-download-page';
import { PageHeading } from './page-heading';
import { PortalLayout } from './portal-layout';
import { PortalLink } from './portal-link';
import { ToastRegion, useToasts } from './toasts';
import { TrackOrderPage } from './track-order-page';

const LANGUAGE_KEY = 'eta-portal-language';

function initialLanguage(): Language {
  try {
    const saved = localStorage.getItem(LANGUAGE_KEY);
    if (saved && (LANGUAGES as readonly string[]).includes(saved)) return saved as Language;
  } catch {
    // No storage: the browser's language decides.
  }
  return languageFromBrowser(navigator.languages ?? [navigator.language]);
}

const decode = (segment: string | undefined) => {
  try {
    return decodeURIComponent(segment ?? '').trim();
  } catch {
    return '';
  }
};

function PortalPage() {
  const { pathname, search } = usePortalLocation();
  const { t, withSite } = usePortal();
  const [, page, param] = pathname.split('/');
  if (page === 'track-order') {
    const orderId = decode(param);
    return (
      <TrackOrderPage
        key={orderId}
        orderId={orderId}
        notice={search.get('notice') === TRACK_AGAIN_NOTICE ? t.trackAgainNotice : undefined}
      />
    );
  }
  if (page === 'get-new-order-details' && decode(param))
    return <OrderDownloadPage key={param} orderId={decode(param)} />;
  if (page === 'faq') return <FaqPage />;
  if (page === 'contact') return <ContactPage />;
  return (
    <section className="portal-card portal-card--narrow">
      <PageHeading title={t.notFoundTitle} />
      <p>{t.notFoundText}</p>
      <PortalLink href={withSite('/track-order')} className="portal-button">
        {t.trackButton}
      </PortalLink>
    </section>
  );
}

export function PortalApp() {
  const { search } = usePortalLocation();
  const siteKey = search.get('site')?.trim() || DEFAULT_LANDING_SITE;
  const site = useLandingSite(siteKey);
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  const { toasts, notify, dismiss } = useToasts();

  useEffect(() => {
    document.documentElement.lang = language === 'fr' ? 'fr-CA' : 'en-CA';
  }, [language]);

  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next);
    try {
      localStorage.setItem(LANGUAGE_KEY, next);
    } catch {
      // Kept for this page only.
    }
  }, []);

  const withSite = useCallback(
    (path: string, key: string = siteKey) =>
      key === DEFAULT_LANDING_SITE ? path : `${path}${path.includes('?') ? '&' : '?'}site=${encodeURIComponent(key)}`,
    [siteKey],
  );

  const value = useMemo<PortalContextValue>(
    () => ({ language, t: MESSAGES[language], setLanguage, site, withSite, notify }),
    [language, setLanguage, site, withSite, notify],
  );

  return (
    <PortalContext.Provider value={value}>
      <PortalLayout>
        <PortalPage />
      </PortalLayout>
      <ToastRegion toasts={toasts} dismiss={dismiss} />
    </PortalContext.Provider>
  );
}
