// Contact (a landing site's menu link): the site's support address and phone.
import { usePortal } from '../hooks/portal-context';
import { PageHeading } from './page-heading';

export function ContactPage() {
  const { t, site } = usePortal();
  return (
    <section className="portal-card portal-card--narrow">
      <PageHeading title={t.contactTitle} />
      <p>{t.contactIntro}</p>
      <dl className="portal-contact">
        {site.footer_contact ? (
          <>
            <dt>{t.contactEmail}</dt>
            <dd>
              <a href={`mailto:${site.footer_contact}`}>{site.footer_contact}</a>
            </dd>
          </>
        ) : null}
        {site.support_phone ? (
          <>
            <dt>{t.contactPhone}</dt>
            <dd>
              <a href={`tel:${site.support_phone.replace(/\s+/g, '')}`}>{site.support_phone}</a>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
