// Frame of the customer pages (spec §1): the translation bar (only when its widget is configured), the landing
// site's logo, name and menu, a language switch, the page, and a footer with the year and the contact.
import { useEffect, useState, type ReactNode } from 'react';
import { isPortalPath } from '@eta/contracts/domain';
import { usePortal } from '../hooks/portal-context';
import { PortalLink } from './portal-link';

export const TRANSLATION_BAR_ID = 'google_translate_element';

/** Relative links must be portal pages, absolute ones https/mailto/tel; anything else is left out. */
function menuTarget(url: string): { internal: boolean } | null {
  if (url.startsWith('/')) return isPortalPath(url.split(/[?#]/)[0] ?? '') ? { internal: true } : null;
  return /^(https:\/\/|mailto:|tel:)/i.test(url) ? { internal: false } : null;
}

function useTranslationWidget(url: string | null): void {
  useEffect(() => {
    if (!url || document.querySelector(`script[data-translate-widget]`)) return;
    const global = window as unknown as Record<string, unknown>;
    // Google's widget calls this back by name (its script URL says cb=googleTranslateElementInit).
    global.googleTranslateElementInit = () => {
      const google = global.google as
        { translate?: { TranslateElement?: new (options: object, id: string) => unknown } } | undefined;
      const Element = google?.translate?.TranslateElement;
      if (Element) new Element({ pageLanguage: document.documentElement.lang || 'en' }, TRANSLATION_BAR_ID);
    };
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.dataset.translateWidget = 'true';
    document.head.appendChild(script);
  }, [url]);
}

export function PortalLayout({ children }: { children: ReactNode }) {
  const { t, site, language, setLanguage, withSite } = usePortal();
  const [brokenLogo, setBrokenLogo] = useState<string | null>(null);
  useTranslationWidget(site.translate_widget_url);

  const links = site.menu_links.flatMap((link) => {
    const target = menuTarget(link.url);
    return target ? [{ ...link, ...target }] : [];
  });

  return (
    <div className="portal">
      {site.translate_widget_url ? (
        <div id={TRANSLATION_BAR_ID} className="portal-translate" aria-label={t.translateBar} />
      ) : null}
      <header className="portal-header">
        <div className="portal-header__inner">
          <PortalLink href={withSite('/track-order')} className="portal-brand">
            {site.logo_url && site.logo_url !== brokenLogo ? (
              <img src={site.logo_url} alt="" width={40} height={40} onError={() => setBrokenLogo(site.logo_url)} />
            ) : (
              <span className="portal-brand__mark" aria-hidden="true" />
            )}
            <span>{site.display_name}</span>
          </PortalLink>
          <button
            type="button"
            className="portal-language"
            lang={language === 'en' ? 'fr' : 'en'}
            aria-label={t.switchLabel}
            onClick={() => setLanguage(language === 'en' ? 'fr' : 'en')}
          >
            {t.switchTo}
          </button>
          {links.length > 0 ? (
            <nav aria-label={t.siteMenu} className="portal-menu">
              {links.map((link) =>
                link.internal ? (
                  <PortalLink key={`${link.label}-${link.url}`} href={withSite(link.url)}>
                    {link.label}
                  </PortalLink>
                ) : (
                  <a
                    key={`${link.label}-${link.url}`}
                    href={link.url}
                    {...(link.url.startsWith('https:') ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                  >
                    {link.label}
                  </a>
                ),
              )}
            </nav>
          ) : null}
        </div>
      </header>
      <main className="portal-main">{children}</main>
      <footer className="portal-footer" id="site-footer">
        <p>
          © {new Date().getFullYear()} {site.display_name}. {t.rightsReserved}
        </p>
        {site.footer_contact ? (
          <p>
            {t.contact}: <a href={`mailto:${site.footer_contact}`}>{site.footer_contact}</a>
          </p>
        ) : null}
        {site.support_phone ? (
          <p>
            {t.phone}: <a href={`tel:${site.support_phone.replace(/\s+/g, '')}`}>{site.support_phone}</a>
          </p>
        ) : null}
      </footer>
    </div>
  );
}
