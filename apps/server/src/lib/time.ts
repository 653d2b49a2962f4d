// How times read to staff and customers (DESIGN §7): US Eastern for remarks and downloads, labelled EST or
// EDT as the date requires, 24-hour clock.
const US_EASTERN = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

/** { us_date: 'MM/DD/YYYY', us_time: 'HH:mm:ss EST' } in America/New_York. */
export function usEastern(at: Date): { us_date: string; us_time: string } {
  const part = Object.fromEntries(US_EASTERN.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    us_date: `${part.month}/${part.day}/${part.year}`,
    us_time: `${part.hour}:${part.minute}:${part.second} ${part.timeZoneName}`,
  };
}

/** 'DD/MM/YYYY HH:mm:ss UTC', as lists show times. */
export const utcText = (at: Date): string => {
  const iso = at.toISOString();
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)} UTC`;
};
