// What the Landing Sites page checks and offers before the server judges: the legal texts' messages and length,
// typed against the contracts' constants (their TypeBox module stays out of the browser bundle, so a change there
// fails the build here), and the grace periods a replaced intake key may keep working.
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
