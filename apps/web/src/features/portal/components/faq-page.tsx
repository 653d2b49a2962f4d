// FAQ (a landing site's menu link): the questions customers ask about tracking and downloading.
import { usePortal } from '../hooks/portal-context';
import { PageHeading } from './page-heading';

export const OFFICIAL_ETA_URL =
  'https://www.canada.ca/en/immigration-refugees-citizenship/services/visit-canada/eta.html';

export function FaqPage() {
  const { t } = usePortal();
  return (
    <section className="portal-card">
      <PageHeading title={t.faqTitle} />
      {t.faq.map((item) => (
        <details key={item.q} className="portal-faq">
          <summary>{item.q}</summary>
          <p>{item.a}</p>
        </details>
      ))}
      <p>
        <a href={OFFICIAL_ETA_URL} target="_blank" rel="noopener noreferrer">
          {t.officialInfo}
        </a>
      </p>
    </section>
  );
}
