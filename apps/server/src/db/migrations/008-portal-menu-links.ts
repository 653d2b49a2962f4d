// The landing sites' menu links lead to real pages: the portal's own (track order, FAQ, contact) or the
// Government of Canada's eTA page. Before, "Home" opened the staff sign-in page and "FAQ" a 404. And the
// reference sites' portal_url (example.* hosts that do not exist) is cleared, so their mails link to this
// server's portal (PUBLIC_URL) until an operator gives a site its own portal address.
import { sql, type Kysely } from 'kysely';

const OFFICIAL_ETA = 'https://www.canada.ca/en/immigration-refugees-citizenship/services/visit-canada/eta.html';

const MENUS: Record<string, { label: string; url: string }[]> = {
  default: [
    { label: 'Home', url: '/track-order' },
    { label: 'FAQ', url: '/faq' },
    { label: 'Contact', url: '/contact' },
    { label: 'Official eTA information', url: OFFICIAL_ETA },
  ],
  'eta-express': [
    { label: 'Home', url: '/track-order' },
    { label: 'FAQ', url: '/faq' },
    { label: 'Contact', url: '/contact' },
  ],
  'canada-travel-auth': [
    { label: 'Track', url: '/track-order' },
    { label: 'FAQ', url: '/faq' },
    { label: 'Support', url: '/contact' },
    { label: 'Government of Canada eTA', url: OFFICIAL_ETA },
  ],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [key, links] of Object.entries(MENUS)) {
    await sql`UPDATE landing_sites SET menu_links = ${JSON.stringify(links)} WHERE key = ${key}`.execute(db);
  }
  await sql`UPDATE landing_sites SET portal_url = NULL WHERE portal_url LIKE 'https://www.%.example'`.execute(db);
}
