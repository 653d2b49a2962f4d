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
