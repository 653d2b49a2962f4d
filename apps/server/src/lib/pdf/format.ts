// How facts read in a PDF: money with its currency, and times as unambiguous year-first stamps (a dispute is
// read by people in other countries, so no DD/MM against MM/DD guessing).
import { easternParts } from '@eta/contracts';

/** 8900, 'USD' → '89.00 USD' (amounts are integer cents, DESIGN §2). */
export const moneyText = (cents: number, currency: string): string => `${centsText(cents)} ${currency}`;

/** 8900 → '89.00'. */
export const centsText = (cents: number): string => (cents / 100).toFixed(2);

/** '2026-11-20 15:04:05 UTC'. */
export const utcStamp = (at: Date): string => `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** '2026-11-20 10:04:05 EST' in America/New_York on the 24-hour clock, EST or EDT as the date requires. */
export function easternStamp(at: Date): string {
  const p = easternParts(at);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${p.zone}`;
}

/** Both stamps, US Eastern first (spec §9: times for staff are US Eastern), one per line. */
export const bothZones = (at: Date): string => `${easternStamp(at)}\n${utcStamp(at)}`;

/** '2026-11-20'. */
export const dateOnly = (at: Date): string => at.toISOString().slice(0, 10);

/** 1536 → '1.5 KB'. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
