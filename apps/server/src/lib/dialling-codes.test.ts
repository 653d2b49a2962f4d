// Spec §3 "Country dialling codes": names map to codes (Canada 1, UK 44, USA 1, India 91), unknown names pass
// through unchanged; the WhatsApp link is the full international number.
import { describe, expect, it } from 'vitest';
import { diallingCodeOf, whatsappLink } from './dialling-codes.js';

describe('diallingCodeOf', () => {
  it.each([
    ['Canada', '1'],
    ['UK', '44'],
    ['USA', '1'],
    ['India', '91'],
    ['United Kingdom', '44'],
    ['germany', '49'],
    ['FR', '33'],
    ['+353', '353'],
    ['44', '44'],
  ])('%s → %s', (country, code) => {
    expect(diallingCodeOf(country)).toBe(code);
  });

  it('passes unknown names through unchanged', () => {
    expect(diallingCodeOf('Narnia')).toBe('Narnia');
    expect(diallingCodeOf('')).toBe('');
  });
});

describe('whatsappLink', () => {
  it('joins the dialling code and the national number, dropping the trunk prefix where the country does', () => {
    expect(whatsappLink('07700 900123', '44')).toBe('https://wa.me/447700900123');
    expect(whatsappLink('(415) 555-0100', 'USA')).toBe('https://wa.me/14155550100');
    expect(whatsappLink('98765 43210', 'India')).toBe('https://wa.me/919876543210');
  });

  it('takes a number already written internationally as it is', () => {
    expect(whatsappLink('+33 6 12 34 56 78', '44')).toBe('https://wa.me/33612345678');
    expect(whatsappLink('0033 6 12 34 56 78', null)).toBe('https://wa.me/33612345678');
  });

  it('tries the next hint when the first names no country, and gives up without any', () => {
    expect(whatsappLink('0612345678', 'Narnia', 'France')).toBe('https://wa.me/33612345678');
    expect(whatsappLink('0612345678', 'Narnia', null)).toBeUndefined();
    expect(whatsappLink(null, '44')).toBeUndefined();
    expect(whatsappLink('', '44')).toBeUndefined();
  });
});
