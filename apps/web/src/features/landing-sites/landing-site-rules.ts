// What the Landing Sites page checks and offers before the server judges: the legal texts' messages and length,
// typed against the contracts' constants (their TypeBox module stays out of the browser bundle, so a change there
// fails the build here), the grace periods a replaced intake key may keep working, and (issue 33) a site's key,
// branding and logo by the contracts' own rules (typebox-free, from '@eta/contracts/domain').
import {
  BRANDING_CHECKS,
  isLandingSiteKey,
  LANDING_SITE_LIMITS,
  LANDING_SITE_MESSAGES,
  LOGO_TYPES,
  type BrandingField,
} from '@eta/contracts/domain';
import type {
  LEGAL_MESSAGES as CONTRACT_LEGAL_MESSAGES,
  LEGAL_TEXT_MAX_LENGTH as CONTRACT_LEGAL_TEXT_MAX_LENGTH,
} from '@eta/contracts';

export const LEGAL_TEXT_MAX_LENGTH: typeof CONTRACT_LEGAL_TEXT_MAX_LENGTH = 20_000;

export const LEGAL_MESSAGES: typeof CONTRACT_LEGAL_MESSAGES = {
  disclaimer: 'Please enter the disclaimer text.',
  feeText: 'Please enter the fee text.',
  tooLong: 'The text may be at most 20000 characters.',
};

/** A text the server would refuse, in its words; true when it may be sent. */
export const checkLegalText = (requiredMessage: string) => (value: string) => {
  if (value.trim() === '') return requiredMessage;
  return value.length <= LEGAL_TEXT_MAX_LENGTH || LEGAL_MESSAGES.tooLong;
};

/**
 * How long the old key keeps working after a rotation: long enough for the landing site to deploy the new key
 * (at most the contracts' MAX_KEY_GRACE_MINUTES, a week; a test holds the two together).
 */
export const GRACE_CHOICES = [
  { minutes: 0, label: 'It stops at once' },
  { minutes: 60, label: '1 hour' },
  { minutes: 24 * 60, label: '24 hours' },
  { minutes: 7 * 24 * 60, label: '7 days' },
] as const;

/** A day: time to deploy the new key without leaving an old one working for long. */
export const DEFAULT_GRACE_MINUTES = 24 * 60;

/** A branding field's check for react-hook-form: the contracts' own rule and message (the server checks the same). */
export const checkBrandingField = (field: BrandingField) => (value: unknown) =>
  BRANDING_CHECKS[field](String(value ?? '')) ?? true;

export const checkSiteKey = (value: unknown) => {
  const key = String(value ?? '').trim();
  if (key === '') return LANDING_SITE_MESSAGES.keyRequired;
  return isLandingSiteKey(key) || LANDING_SITE_MESSAGES.key;
};

/** What the browser can tell of a chosen logo before sending it; the server judges its content. */
export function checkLogoFile(file: File | null): string | true {
  if (!file) return true;
  if (file.size === 0) return LANDING_SITE_MESSAGES.logoRequired;
  if (file.size > LANDING_SITE_LIMITS.logoBytes) return LANDING_SITE_MESSAGES.logoTooLarge;
  return Object.hasOwn(LOGO_TYPES, file.type) || LANDING_SITE_MESSAGES.logoType;
}

/** The file chooser's filter: the types the server takes. */
export const LOGO_ACCEPT = Object.keys(LOGO_TYPES).join(',');
