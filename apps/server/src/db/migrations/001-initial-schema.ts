// The whole data model of DESIGN §2: orders, remarks, documents, mails, downloads, staff, gateways,
// audit_log, landing_sites, plus the folder-count table the queues read (see 002).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);

  await sql`
    CREATE TABLE landing_sites (
      key text PRIMARY KEY CHECK (key ~ '^[a-z0-9-]{1,40}$'),
      display_name text NOT NULL,
      logo_url text NOT NULL,
      menu_links jsonb NOT NULL DEFAULT '[]'::jsonb,
      footer_contact text NOT NULL,
      mail_sender text NOT NULL,
      support_phone text,
      disclaimer text NOT NULL DEFAULT '',
      fee_text text NOT NULL DEFAULT '',
      intake_key_hash text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  await sql`
    CREATE TABLE staff (
      id serial PRIMARY KEY,
      name text NOT NULL CHECK (length(trim(name)) > 0),
      email text NOT NULL,
      password_hash text NOT NULL,
      type text NOT NULL CHECK (type IN ('Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff')),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      password_changed_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX staff_email_key ON staff (lower(email))`.execute(db);
  await sql`CREATE INDEX staff_name_idx ON staff (name)`.execute(db);

  await sql`
    CREATE TABLE gateways (
      id serial PRIMARY KEY,
      gateway_name text NOT NULL UNIQUE,
      is_active boolean NOT NULL DEFAULT false,
      secrets jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX gateways_one_active ON gateways (is_active) WHERE is_active`.execute(db);

  await sql`
    CREATE TABLE orders (
      id bigserial PRIMARY KEY,
      order_id text NOT NULL UNIQUE CHECK (order_id ~ '^ETA-[0-9]{9}$'),
      email text NOT NULL,
      landing_site text NOT NULL REFERENCES landing_sites (key),
      payment_status text NOT NULL DEFAULT 'Pending' CHECK (payment_status IN ('Success', 'Pending', 'Failed')),
      process_status text NOT NULL DEFAULT 'New' CHECK (process_status IN ('New', 'Pending', 'Awaiting',
        'AwaitingGovt', 'Customer Called', 'Contact Customer', 'Completed', 'Refunds', 'Refund Completed',
        'ChargeBack', 'Deleted')),
      processing_type text NOT NULL DEFAULT 'Standard' CHECK (processing_type IN ('Standard', 'Priority', 'Future')),
      processing_date date,
      assign_to integer REFERENCES staff (id),
      assign_date timestamptz,
      refund_date timestamptz,
      amount_cents integer NOT NULL DEFAULT 0 CHECK (amount_cents >= 0),
      currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
      gateway_id integer REFERENCES gateways (id),
      transaction_id text,
      merchant_name text,

      -- representative
      applying_for_someone boolean,
      applying_for_minor boolean,
      representative_is text,
      being_paid boolean,
      membership_id text,
      province_or_territory text,
      surname text,
      first_name text,
      firm_or_organization text,
      mailing_address text,
      telephone_number text,
      country_code text,
      postal_code text,
      fax_number text,
      email_address text,

      -- travel document
      travel_document text,
      country_on_passport text,
      taiwan_personal_identification_number text,
      confirm_taiwan_personal_identification_number text,
      lawful_permanent_resident_of_us boolean,
      uscis_number text,
      confirm_uscis_number text,
      uscis_exp_year smallint,
      citizen_country text,

      -- passport
      passport_number text,
      confirm_passport_number text,
      passport_surname text,
      passport_first_name text,
      birth_year smallint CHECK (birth_year BETWEEN 1900 AND 2100),
      birth_month smallint CHECK (birth_month BETWEEN 1 AND 12),
      birth_date smallint CHECK (birth_date BETWEEN 1 AND 31),
      gender text,
      country_of_birth text,
      city_of_birth text,
      passport_issue_year smallint,
      passport_issue_month smallint CHECK (passport_issue_month BETWEEN 1 AND 12),
      passport_issue_date smallint CHECK (passport_issue_date BETWEEN 1 AND 31),
      passport_exp_year smallint,
      passport_exp_month smallint CHECK (passport_exp_month BETWEEN 1 AND 12),
      passport_exp_date smallint CHECK (passport_exp_date BETWEEN 1 AND 31),

      -- personal
      country text,
      marital_status text,
      appliedd_for_visa_before boolean,
      uci_number text,
      confirm_uci_number text,

      -- employment
      occupation text,
      job_title text,
      employer_or_school_name text,
      job_country text,
      job_state text,
      job_city text,
      working_since smallint,

      -- contact and residence
      preferred_language text,
      apartment_number text,
      house_name text,
      street_name text,
      street_name_2 text,
      city text,
      res_state text,
      res_zip_code text,
      district text,

      -- travel plan
      do_you_know_when_travel_to_canada boolean,
      travel_to_canada_year date,
      travel_to_canada_hour text,

      -- background
      have_you_ever_been_refused_a_visa_or_permit boolean,
      country_that_refused_you_a_visa_or_permit text,
      have_you_ever_committed_been_arrested boolean,
      please_indicate_where_committed_been_arrested text,
      is_your_contact_with_tuberculosis boolean,
      have_you_ever_been_diagnosed_with_tuberculosis boolean,
      past_two_years_diagnosed_with_tuberculosis boolean,
      have_one_of_these_conditions boolean,
      additional_details text,

      -- evidence of the customer's consent
      customer_sign text,
      customer_date timestamptz,
      ip_address text,
      customer_browser text,
      customer_timezone text,

      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1,
      CHECK (processing_type <> 'Future' OR processing_date IS NOT NULL)
    )`.execute(db);

  // Queue lists: newest first with id as the tie-breaker; every queue shows paid orders only. Each list
  // pages over its index alone (index-only scan for the ids) and reads the heap only for the rows shown.
  await sql`CREATE INDEX orders_status_created_idx ON orders (process_status, created_at DESC, id DESC)
    WHERE payment_status = 'Success'`.execute(db);
  // New and Priority read unassigned New orders newest first; one partial index each keeps both a plain walk.
  // INCLUDE lets the New queue tell due Future orders from later ones inside an index-only scan.
  await sql`CREATE INDEX orders_new_queue_idx ON orders (created_at DESC, id DESC)
    INCLUDE (processing_type, processing_date)
    WHERE payment_status = 'Success' AND process_status = 'New' AND assign_to IS NULL
      AND processing_type <> 'Priority'`.execute(db);
  await sql`CREATE INDEX orders_priority_queue_idx ON orders (created_at DESC, id DESC)
    WHERE payment_status = 'Success' AND process_status = 'New' AND assign_to IS NULL
      AND processing_type = 'Priority'`.execute(db);
  await sql`CREATE INDEX orders_history_idx ON orders (created_at DESC, id DESC)
    WHERE payment_status = 'Success' AND process_status <> 'Deleted'`.execute(db);
  await sql`CREATE INDEX orders_assignee_idx ON orders (assign_to, created_at DESC, id DESC)
    WHERE payment_status = 'Success' AND assign_to IS NOT NULL
      AND process_status NOT IN ('Completed', 'Deleted', 'Refund Completed')`.execute(db);
  await sql`CREATE INDEX orders_future_idx ON orders (processing_date, created_at DESC, id DESC)
    WHERE payment_status = 'Success' AND process_status = 'New' AND processing_type = 'Future'`.execute(db);
  // Substring search over the fields staff type into the search box (order id, names, e-mail, telephone).
  await sql`CREATE INDEX orders_search_trgm_idx ON orders USING gin ((lower(
      order_id || ' ' || coalesce(passport_first_name, '') || ' ' || coalesce(passport_surname, '') || ' ' ||
      email || ' ' || coalesce(telephone_number, ''))) gin_trgm_ops)`.execute(db);
  // A larger sample of the search text lets the planner tell a common fragment ("smith": walk the queue
  // index newest first) from a rare one (an order id: use the trigram index); the default misjudges both.
  await sql`ALTER INDEX orders_search_trgm_idx ALTER COLUMN 1 SET STATISTICS 1000`.execute(db);
  await sql`CREATE INDEX orders_email_idx ON orders (lower(email))`.execute(db);
  await sql`CREATE INDEX orders_citizen_country_idx ON orders (created_at, citizen_country)
    WHERE payment_status = 'Success'`.execute(db);

  await sql`
    CREATE TABLE remarks (
      id bigserial PRIMARY KEY,
      order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      staff_id integer REFERENCES staff (id),
      remark_name text NOT NULL,
      remark text NOT NULL CHECK (length(remark) BETWEEN 1 AND 10000),
      whatsapp boolean NOT NULL DEFAULT false,
      telephone boolean NOT NULL DEFAULT false,
      status_refund boolean NOT NULL DEFAULT false,
      voided boolean NOT NULL DEFAULT false,
      chargeback boolean NOT NULL DEFAULT false,
      report_error boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX remarks_order_idx ON remarks (order_id, created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE documents (
      id bigserial PRIMARY KEY,
      order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      storage_key text NOT NULL UNIQUE,
      original_name text NOT NULL,
      content_type text NOT NULL,
      size_bytes integer NOT NULL CHECK (size_bytes > 0),
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      uploaded_by integer REFERENCES staff (id),
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX documents_order_idx ON documents (order_id, created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE mails (
      id bigserial PRIMARY KEY,
      order_id bigint REFERENCES orders (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('approval', 'invoice', 'resend', 'refund')),
      to_address text NOT NULL,
      subject text NOT NULL,
      html text NOT NULL,
      text text NOT NULL,
      provider text NOT NULL CHECK (provider IN ('AWS', 'Sendgrid')),
      state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      provider_message_id text,
      document_id bigint REFERENCES documents (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX mails_order_idx ON mails (order_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX mails_outbox_idx ON mails (next_attempt_at) WHERE state = 'queued'`.execute(db);

  await sql`
    CREATE TABLE downloads (
      id bigserial PRIMARY KEY,
      order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      document_id bigint REFERENCES documents (id),
      created_at timestamptz NOT NULL DEFAULT now(),
      ip text NOT NULL,
      user_agent text,
      browser text,
      os text,
      device text,
      device_type text,
      location text,
      timezone text
    )`.execute(db);
  await sql`CREATE INDEX downloads_order_idx ON downloads (order_id, created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE audit_log (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      actor_id integer REFERENCES staff (id),
      actor_name text,
      action text NOT NULL,
      order_id bigint REFERENCES orders (id),
      target text,
      before jsonb,
      after jsonb,
      ip text
    )`.execute(db);
  await sql`CREATE INDEX audit_log_order_idx ON audit_log (order_id, at DESC) WHERE order_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX audit_log_at_idx ON audit_log (at DESC)`.execute(db);
  // Append-only: the application role may insert and read, never rewrite history.
  await sql`
    CREATE FUNCTION audit_log_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only';
    END $$`.execute(db);
  await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_immutable()`.execute(db);
}
