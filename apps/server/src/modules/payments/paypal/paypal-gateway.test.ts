// PayPal writes amounts as decimal strings in the currency's own precision; the desk keeps minor units.
import { describe, expect, it } from 'vitest';
import { toMinorUnits } from './paypal-gateway.js';

describe('toMinorUnits', () => {
  it('reads amounts exactly, without floating-point error', () => {
    expect(toMinorUnits('89.00', 'USD')).toBe(8900);
    expect(toMinorUnits('19.29', 'USD')).toBe(1929);
    expect(toMinorUnits('0.29', 'EUR')).toBe(29);
    expect(toMinorUnits('1.1', 'USD')).toBe(110);
    expect(toMinorUnits('100', 'USD')).toBe(10000);
    expect(toMinorUnits('90071992547409.91', 'USD')).toBe(9007199254740991);
  });

  it('follows the currency: none for JPY, three for BHD; trailing zeros beyond them are fine', () => {
    expect(toMinorUnits('8900', 'JPY')).toBe(8900);
    expect(toMinorUnits('8900.00', 'JPY')).toBe(8900);
    expect(toMinorUnits('1.234', 'BHD')).toBe(1234);
    expect(toMinorUnits('89.000', 'USD')).toBe(8900);
  });

  it('refuses what is not an amount in that currency', () => {
    for (const [value, currency] of [
      ['89.001', 'USD'],
      ['12.5', 'JPY'],
      ['-1.00', 'USD'],
      ['1e3', 'USD'],
      ['', 'USD'],
      ['89,00', 'EUR'],
      ['90071992547409.92', 'USD'],
    ]) {
      expect(toMinorUnits(value!, currency!), `${value} ${currency}`).toBeNull();
    }
  });
});
