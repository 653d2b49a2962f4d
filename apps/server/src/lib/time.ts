// How times read to staff and customers (DESIGN §7): US Eastern for remarks and downloads, UTC in lists.
import { easternParts } from '@eta/contracts';

/** { us_date: 'MM/DD/YYYY', us_time: 'HH:mm:ss EST' } in America/New_York. */
export function usEastern(at: Date): { us_date: string; us_time: string } {
  const p = easternParts(at);
  return { us_date: `${p.month}/${p.day}/${p.year}`, us_time: `${p.hour}:${p.minute}:${p.second} ${p.zone}` };
}

/** 'DD/MM/YYYY HH:mm:ss UTC', as lists show times. */
export const utcText = (at: Date): string => {
  const iso = at.toISOString();
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)} UTC`;
};

/** PostgreSQL's text for a UTC timestamptz, as row_to_json/json_agg ('T', '+00:00') or the text protocol write it. */
const PG_UTC_TEXT = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00(?::00)?$/;

/**
 * An instant as Date#toISOString writes it ('2026-11-20T11:57:57.070Z'). Timestamps read as text from the
 * database (the connections run in UTC) are rewritten without building a Date, a fifth of the cost; the
 * fraction is cut to milliseconds, as Date does. Anything else goes through Date.
 */
export function isoTime(value: Date | string): string {
  if (typeof value === 'string') {
    const m = PG_UTC_TEXT.exec(value);
    if (m) return `${m[1]}T${m[2]}.${`${m[3] ?? ''}000`.slice(0, 3)}Z`;
  }
  return new Date(value).toISOString();
}
