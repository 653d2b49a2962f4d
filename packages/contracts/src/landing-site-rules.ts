// A landing site's key and branding (issue 33): the rules as plain functions, checked by the server on every add and
// edit and by the console's forms before they send, with one wording. No TypeBox here: the browser takes these
// through '@eta/contracts/domain'.

export const LANDING_SITE_LIMITS = {
  key: 40,
  displayName: 80,
  mailSender: 200,
  email: 254,
  supportPhone: 30,
  portalUrl: 200,
  /** A logo is fetched by every mail that is opened: 512 KB is plenty for a header image. */
  logoBytes: 512 * 1024,
  logoMinPixels: 16,
  logoMaxPixels: 4096,
} as const;

/**
 * The logo's formats, judged by content: PNG and JPEG only, the two every mail program shows. SVG is refused (it can
 * carry script, and Gmail and Outlook do not show it); WebP too (Outlook for Windows does not show it).
 */
export const LOGO_TYPES = { 'image/png': 'png', 'image/jpeg': 'jpg' } as const;
export type LogoType = keyof typeof LOGO_TYPES;

/** The logo form's fields (multipart/form-data): the image, and the site's version the Admin saw. */
export const LOGO_FIELDS = { file: 'logo', version: 'version' } as const;

/** Lowercase letters, digits and inner hyphens: the key is in the portal's links (?site=) and the intake's orders. */
export const LANDING_SITE_KEY_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$';

export const LANDING_SITE_MESSAGES = {
  keyRequired: "Please enter the site's key.",
  key: 'The key is 1 to 40 lowercase letters, digits and hyphens, starting and ending with a letter or digit (e.g. eta-express).',
  displayName: "Please enter the site's name.",
  displayNameInvalid: 'The name is one line of at most 80 characters.',
  mailSender: 'Please enter the mail sender.',
  mailSenderInvalid:
    'Enter the sender as an address (noreply@example.com) or a name and address (Example Travel <noreply@example.com>); ' +
    'the name may not hold < > " , ; : ( ) [ ] or a backslash.',
  footerContact: 'Please enter the contact e-mail address.',
  footerContactInvalid: 'Please enter a valid e-mail address (e.g. support@example.com).',
  supportPhone: 'A telephone number has 6 to 20 digits and may hold spaces, brackets, hyphens, dots and a leading +.',
  portalUrl:
    'The portal URL starts with https:// (http:// only for localhost) and names a host, without a ?query or ' +
    '#fragment: e.g. https://www.example.com.',
  logoRequired: 'Please choose a logo file.',
  logoType: 'The logo must be a PNG or JPEG image.',
  logoTooLarge: 'The logo must be at most 512 KB.',
  logoPixels: 'The logo must be 16 to 4096 pixels wide and high.',
  version: "The site's version is missing: reload the page and try again.",
} as const;

// Characters an address or a one-line value may never hold: whitespace and controls, and what would split a header.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const ADDRESS =
  // eslint-disable-next-line no-control-regex
  /^[^\s\u0000-\u001f\u007f@<>,;:"()[\]\\]+@[^\s\u0000-\u001f\u007f@<>,;:"()[\]\\]+\.[^\s\u0000-\u001f\u007f@<>,;:"()[\]\\]+$/;
const SENDER_NAME = /^[^<>",;:()[\]\\]+$/;
const PHONE = /^\+?[0-9 ().-]+$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const isLandingSiteKey = (key: string): boolean => new RegExp(LANDING_SITE_KEY_PATTERN).test(key);

export const isEmailAddress = (value: string): boolean =>
  value.length <= LANDING_SITE_LIMITS.email && ADDRESS.test(value);

/** "noreply@example.com" or "Example Travel <noreply@example.com>" as its parts; null when it is neither. */
export function parseMailSender(value: string): { name: string | null; address: string } | null {
  const text = value.trim();
  if (text.length > LANDING_SITE_LIMITS.mailSender || CONTROL.test(text)) return null;
  const named = /^(.*?)\s*<([^<>]*)>$/.exec(text);
  if (!named) return isEmailAddress(text) ? { name: null, address: text } : null;
  const name = named[1]!.trim();
  const address = named[2]!.trim();
  if (!isEmailAddress(address) || (name !== '' && !SENDER_NAME.test(name))) return null;
  return { name: name === '' ? null : name, address };
}

/**
 * The portal's address as stored (no trailing slash, as the mails' links are built on it), or null when it is not
 * one: https, or http on this machine only (a test desk); a host; no credentials, ?query or #fragment.
 */
export function normalizePortalUrl(value: string): string | null {
  const text = value.trim();
  if (text.length > LANDING_SITE_LIMITS.portalUrl || !/^https?:\/\/[^/?#\s]/i.test(text) || CONTROL.test(text)) {
    return null;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.username || url.password || text.includes('?') || text.includes('#') || /\s/.test(text)) return null;
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return null;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The branding an Admin types (the optional fields empty when not set). */
export interface LandingSiteBrandingValues {
  display_name: string;
  mail_sender: string;
  footer_contact: string;
  support_phone?: string;
  portal_url?: string;
}
export type BrandingField = keyof LandingSiteBrandingValues;

/** Each field's check: its message, or null when the value may be saved. */
export const BRANDING_CHECKS: Record<BrandingField, (value: string) => string | null> = {
  display_name: (value) => {
    const text = value.trim();
    if (text === '') return LANDING_SITE_MESSAGES.displayName;
    return text.length > LANDING_SITE_LIMITS.displayName || CONTROL.test(text)
      ? LANDING_SITE_MESSAGES.displayNameInvalid
      : null;
  },
  mail_sender: (value) => {
    if (value.trim() === '') return LANDING_SITE_MESSAGES.mailSender;
    return parseMailSender(value) ? null : LANDING_SITE_MESSAGES.mailSenderInvalid;
  },
  footer_contact: (value) => {
    const text = value.trim();
    if (text === '') return LANDING_SITE_MESSAGES.footerContact;
    return isEmailAddress(text) ? null : LANDING_SITE_MESSAGES.footerContactInvalid;
  },
  support_phone: (value) => {
    const text = value.trim();
    if (text === '') return null;
    const digits = text.replace(/\D/g, '').length;
    return text.length <= LANDING_SITE_LIMITS.supportPhone && PHONE.test(text) && digits >= 6 && digits <= 20
      ? null
      : LANDING_SITE_MESSAGES.supportPhone;
  },
  portal_url: (value) => (value.trim() === '' || normalizePortalUrl(value) ? null : LANDING_SITE_MESSAGES.portalUrl),
};

/** Every field's problem, by field; empty when the branding may be saved. */
export function brandingIssues(values: LandingSiteBrandingValues): Partial<Record<BrandingField, string>> {
  const issues: Partial<Record<BrandingField, string>> = {};
  for (const field of Object.keys(BRANDING_CHECKS) as BrandingField[]) {
    const message = BRANDING_CHECKS[field](values[field] ?? '');
    if (message) issues[field] = message;
  }
  return issues;
}

/** The branding as stored: trimmed, the portal URL without its trailing slash, an empty optional field null. */
export function normalizeBranding(values: LandingSiteBrandingValues): {
  display_name: string;
  mail_sender: string;
  footer_contact: string;
  support_phone: string | null;
  portal_url: string | null;
} {
  const sender = parseMailSender(values.mail_sender);
  const phone = values.support_phone?.trim() ?? '';
  const portal = values.portal_url?.trim() ?? '';
  return {
    display_name: values.display_name.trim(),
    mail_sender: sender?.name ? `${sender.name} <${sender.address}>` : (sender?.address ?? values.mail_sender.trim()),
    footer_contact: values.footer_contact.trim(),
    support_phone: phone === '' ? null : phone.replace(/\s+/g, ' '),
    portal_url: portal === '' ? null : normalizePortalUrl(portal),
  };
}
