// Reference rows every installation needs: the default landing site and its two alternates (spec §1
// branding), and the payment gateways with exactly one active. Operators edit them afterwards.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    INSERT INTO landing_sites (key, display_name, logo_url, menu_links, footer_contact, mail_sender, support_phone, disclaimer, fee_text)
    VALUES
      ('default', 'Canada eTA Online', '/brand/default-logo.svg',
       '[{"label":"Home","url":"/"},{"label":"Track Order","url":"/track-order/"},{"label":"Contact","url":"mailto:support@canada-eta-online.example"}]',
       'support@canada-eta-online.example', 'Canada eTA Online <noreply@canada-eta-online.example>', '+1 800 555 0100',
       'We are a private agency, not affiliated with the Government of Canada. Our fee includes the government fee and our service of reviewing and submitting your application.',
       'Service fee: 89.00 USD including the 7.00 CAD government fee.'),
      ('eta-express', 'eTA Express Canada', '/brand/eta-express-logo.svg',
       '[{"label":"Home","url":"/"},{"label":"FAQ","url":"/faq"},{"label":"Track Order","url":"/track-order/"}]',
       'help@eta-express.example', 'eTA Express <noreply@eta-express.example>', '+1 800 555 0111',
       'eTA Express is a private application service and is not a government website.',
       'Service fee: 99.00 USD including the 7.00 CAD government fee.'),
      ('canada-travel-auth', 'Canada Travel Authorization Service', '/brand/canada-travel-auth-logo.svg',
       '[{"label":"Apply","url":"/"},{"label":"Track","url":"/track-order/"},{"label":"Support","url":"mailto:care@canada-travel-auth.example"}]',
       'care@canada-travel-auth.example', 'Canada Travel Authorization <noreply@canada-travel-auth.example>', '+1 800 555 0122',
       'This is a private service that assists travellers with their eTA application.',
       'Service fee: 79.00 USD including the 7.00 CAD government fee.')
  `.execute(db);
  await sql`
    INSERT INTO gateways (gateway_name, is_active) VALUES ('Stripe', true), ('PayPal', false), ('Authorize.Net', false)
  `.execute(db);
}
