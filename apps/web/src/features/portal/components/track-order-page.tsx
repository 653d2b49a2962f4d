// Track order (spec §2 "Public routes", §5): the Order ID (from the link) and the e-mail prove the order;
// a match opens its download page, anything else says why in the customer's language.
import { DEFAULT_LANDING_SITE } from '@eta/contracts/domain';
import { useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { trackOrder } from '../api/portal-client';
import { usePortal } from '../hooks/portal-context';
import { useErrorText } from '../hooks/use-error-text';
import { navigate } from '../hooks/use-portal-location';
import { PageHeading } from './page-heading';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  name: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange(value: string): void;
};

/** A labelled input with its message under it, tied to it for screen readers. */
function PortalField({ name, label, value, error, onChange, ...input }: FieldProps) {
  return (
    <label className="portal-field">
      <span>{label}</span>
      <input
        {...input}
        name={name}
        value={value}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${name}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <span id={`${name}-error`} className="portal-field__error">
          {error}
        </span>
      ) : null}
    </label>
  );
}

export const orderDownloadPath = (orderId: string) => `/get-new-order-details/${encodeURIComponent(orderId)}`;

export function TrackOrderPage({ orderId: initialOrderId, notice }: { orderId: string; notice?: string }) {
  const { t, site, withSite, notify } = usePortal();
  const errorText = useErrorText();
  const [orderId, setOrderId] = useState(initialOrderId);
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ orderId?: string; email?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values = { orderId: orderId.trim(), email: email.trim() };
    const found = {
      ...(values.orderId ? {} : { orderId: t.orderIdRequired }),
      ...(values.email ? {} : { email: t.emailRequired }),
    };
    setErrors(found);
    if (found.orderId || found.email) return;
    setBusy(true);
    try {
      const tracked = await trackOrder(values.orderId, values.email);
      notify('success', t.orderFound);
      const siteKey = tracked.landingSite === DEFAULT_LANDING_SITE ? site.key : tracked.landingSite;
      navigate(withSite(orderDownloadPath(tracked.orderId), siteKey));
    } catch (error) {
      notify('error', errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const contact = site.footer_contact ? `mailto:${site.footer_contact}` : withSite('/contact');
  return (
    <section className="portal-card portal-card--narrow">
      <PageHeading title={t.trackTitle} />
      <p className="portal-muted">{t.trackIntro}</p>
      {notice ? (
        <p className="portal-alert portal-alert--info" role="status">
          {notice}
        </p>
      ) : null}
      <form noValidate onSubmit={(event) => void submit(event)} className="portal-form">
        <PortalField
          name="orderId"
          label={t.orderId}
          value={orderId}
          error={errors.orderId}
          onChange={setOrderId}
          autoComplete="off"
          autoCapitalize="characters"
        />
        <PortalField
          name="email"
          label={t.emailId}
          value={email}
          error={errors.email}
          onChange={setEmail}
          type="email"
          inputMode="email"
          autoComplete="email"
        />
        <div className="portal-actions">
          <button type="submit" className="portal-button" disabled={busy}>
            {busy ? t.tracking : t.trackButton}
          </button>
          <a href={contact}>{t.contactSupport}</a>
        </div>
      </form>
    </section>
  );
}
