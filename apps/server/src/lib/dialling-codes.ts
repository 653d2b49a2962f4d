// Country dialling codes (spec §3 "Country dialling codes": a country name maps to its code, e.g. Canada 1,
// UK 44, USA 1, India 91; unknown names pass through unchanged) and the WhatsApp link built from them. The
// data comes from libphonenumber-js (calling codes, number rules) and i18n-iso-countries (English names and
// their common short forms), never from a hand-typed table.
import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';

countries.registerLocale(english);

/** The dialling code (digits, no '+') for a country name or a code already written in digits; else the input. */
export function diallingCodeOf(country: string): string {
  const value = country.trim();
  const digits = value.replace(/^\+/, '');
  if (/^\d{1,4}$/.test(digits)) return digits;
  const alpha2 =
    countries.getAlpha2Code(value, 'en') ?? (/^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : undefined);
  if (alpha2 && isSupportedCountry(alpha2)) return getCountryCallingCode(alpha2 as CountryCode);
  return country;
}

/**
 * https://wa.me/<digits> for a customer's number: the national number with its dialling code, the trunk
 * prefix dropped where the country's rules say so (UK 07700 900123 → 447700900123). The code comes from the
 * order's country_code, else from its country names. Undefined when no full international number results.
 */
export function whatsappLink(
  telephone: string | null | undefined,
  ...countryHints: (string | null | undefined)[]
): string | undefined {
  const national = telephone?.replace(/[^\d+]/g, '');
  if (!national) return undefined;
  if (national.startsWith('+') || national.startsWith('00')) {
    const international = parsePhoneNumberFromString(`+${national.replace(/^(\+|00)/, '')}`);
    return international ? `https://wa.me/${international.number.slice(1)}` : undefined;
  }
  for (const hint of countryHints) {
    if (!hint?.trim()) continue;
    const code = diallingCodeOf(hint);
    if (!/^\d{1,4}$/.test(code)) continue;
    const parsed = parsePhoneNumberFromString(national, { defaultCallingCode: code });
    if (parsed) return `https://wa.me/${parsed.number.slice(1)}`;
  }
  return undefined;
}
