import { describe, expect, it } from 'vitest';
import { describeNamed, matchesTraveller, parseDate, readApproval } from './approval-reading.js';

const HARRIS = { surname: 'Harris', givenNames: 'Emily Rose', passportNumber: 'P55120934' };

const approval = (family: string, given: string, passport: string) => `
  Government of Canada   Gouvernement du Canada
  Electronic Travel Authorization (eTA) approval
  Application number: V123456789
  Family name: ${family}
  Given name(s): ${given}
  Passport number: ${passport}
  Date of approval: 2026-11-20
  eTA expiry date: November 19, 2031
`;

describe('reading an approved document (issue 35)', () => {
  it("finds the order's traveller, and the approval's number and dates", () => {
    const reading = readApproval(approval('HARRIS', 'EMILY ROSE', 'P55120934'), HARRIS);
    expect(reading).toMatchObject({
      readable: true,
      passportFound: true,
      surnameFound: true,
      givenNamesFound: true,
      named: { surname: 'HARRIS', givenNames: 'EMILY ROSE', passportNumber: 'P55120934' },
      facts: { applicationNumber: 'V123456789', approvedOn: '2026-11-20', expiresOn: '2031-11-19' },
    });
    expect(matchesTraveller(reading)).toBe(true);
  });

  it("names what another traveller's approval says instead", () => {
    const reading = readApproval(approval('WHITFIELD', 'KATE', 'K48213571'), HARRIS);
    expect(matchesTraveller(reading)).toBe(false);
    expect(describeNamed(reading.named)).toBe('WHITFIELD / K48213571');
  });

  it('takes the same surname with another passport number as another traveller, and a longer surname as another', () => {
    expect(matchesTraveller(readApproval(approval('HARRIS', 'EMILY', 'P55120935'), HARRIS))).toBe(false);
    const harrison = readApproval(approval('HARRISON', 'EMILY', 'P55120934'), HARRIS);
    expect(harrison.passportFound).toBe(true);
    expect(harrison.surnameFound).toBe(false);
  });

  it('forgives what a scan does: case, accents, spacing, and the characters OCR mixes up', () => {
    const scanned = 'family name  Müller-Lüdenscheidt\nPassport No. P5 5I2O934\nExpires 2031/11/19';
    const reading = readApproval(scanned, {
      surname: 'Muller Ludenscheidt',
      givenNames: 'Jo',
      passportNumber: 'p55120934',
    });
    expect(reading.passportFound).toBe(true);
    expect(reading.surnameFound).toBe(true);
    expect(reading.facts.expiresOn).toBe('2031-11-19');
  });

  it('says a document with no text to speak of cannot be read, rather than that it does not match', () => {
    const reading = readApproval('  \n 12 \n', HARRIS);
    expect(reading.readable).toBe(false);
    expect(describeNamed(reading.named)).toBe(
      'no surname the desk could find / no passport number the desk could find',
    );
  });

  it.each([
    ['2026-11-27', '2026-11-27'],
    ['2026 11 27', '2026-11-27'],
    ['27 NOVEMBER 2026', '2026-11-27'],
    ['NOV 27 2026', '2026-11-27'],
    ['2026 02 30', null],
    ['31 APR 2026', null],
  ])('reads the date %s as %s', (raw, expected) => {
    expect(parseDate(raw)).toBe(expected);
  });
});
