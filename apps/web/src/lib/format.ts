// Display formats of the order lists (spec §3, DESIGN §7): UTC dates as DD/MM/YYYY, telephone with its dialling code.
import { easternParts } from '@eta/contracts/domain';

const pad = (value: number): string => String(value).padStart(2, '0');

function parseDate(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An ISO timestamp in UTC as DD/MM/YYYY hh:mm:ss (24-hour clock); '' when absent or unreadable. */
export function formatUtcDateTime(iso: string | null | undefined): string {
  const date = parseDate(iso);
  if (!date) return '';
  const day = `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
  return `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** A date (ISO timestamp or 'YYYY-MM-DD') as DD/MM/YYYY, read in UTC; '' when absent or unreadable. */
export function formatUtcDate(value: string | null | undefined): string {
  if (!value) return '';
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (plain) return `${plain[3]}/${plain[2]}/${plain[1]}`;
  const date = parseDate(value);
  return date ? `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}` : '';
}

/** An ISO timestamp in America/New_York, 24-hour, labelled EST or EDT as the date requires. */
export function formatEasternDateTime(iso: string | null | undefined): string {
  const date = parseDate(iso);
  if (!date) return '';
  const p = easternParts(date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}:${p.second} ${p.zone}`;
}

/**
 * The zones and formats a time is shown in (issue 22): the spec's UTC DD/MM/YYYY for lists and most of the console,
 * its EST for download history, and the server's US date and time (MM/DD/YYYY, America/New_York) for remarks.
 */
export type TimeFormat = 'utc' | 'eastern' | 'us-eastern';

/** The UTC format with its label: '20/11/2026 00:49:19 UTC'. */
const utcText = (iso: string) => `${formatUtcDateTime(iso)} UTC`;

/** The US format with its label: '11/19/2026 19:49:19 EST'. */
function usEasternText(iso: string): string {
  const us = formatUsEastern(iso);
  return us ? `${us.date} ${us.time}` : '';
}

/**
 * A moment as shown in `format`, always labelled with its zone, and the same moment in the other zone for a
 * hover: UTC shows the US Eastern time, Eastern shows UTC. Null when absent or unreadable.
 */
export function describeTime(
  iso: string | null | undefined,
  format: TimeFormat,
): { text: string; other: string } | null {
  if (!parseDate(iso)) return null;
  const value = iso!;
  if (format === 'utc') return { text: utcText(value), other: usEasternText(value) };
  if (format === 'eastern') return { text: formatEasternDateTime(value), other: utcText(value) };
  return { text: usEasternText(value), other: utcText(value) };
}

/** '+<country_code> <telephone_number>'; just the number when there is no code; '' when there is no number. */
export function formatTelephone(countryCode: string | null, telephone: string | null): string {
  if (!telephone) return '';
  const code = countryCode?.replace(/^\+/, '').trim();
  return code ? `+${code} ${telephone}` : telephone;
}

export function formatFullName(firstName: string | null, surname: string | null): string {
  return [firstName, surname].filter((part): part is string => Boolean(part?.trim())).join(' ');
}

/** An ISO timestamp as a US date and time (spec §9), as the server words remarks: 'MM/DD/YYYY', 'HH:mm:ss EST'. */
export function formatUsEastern(iso: string | null | undefined): { date: string; time: string } | null {
  const date = parseDate(iso);
  if (!date) return null;
  const p = easternParts(date);
  return { date: `${p.month}/${p.day}/${p.year}`, time: `${p.hour}:${p.minute}:${p.second} ${p.zone}` };
}

/** A calendar date kept as year, month and day numbers (birth, passport issue and expiry) as DD/MM/YYYY. */
export function formatDateParts(year?: number, month?: number, day?: number): string {
  if (year === undefined) return '';
  if (month === undefined || day === undefined) return String(year);
  return `${pad(day)}/${pad(month)}/${year}`;
}

/** An amount in cents with its currency, e.g. '89.00 USD' (gateways send 'usd'). */
export function formatAmount(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

/** A gateway's code word read as words: 'product_not_received' → 'Product not received'. */
export function formatGatewayCode(code: string): string {
  const words = code.replace(/_/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
