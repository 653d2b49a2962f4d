import { describe, expect, it } from 'vitest';
import { readSearchText } from './search-text.js';

describe('readSearchText', () => {
  it('reads an order id with or without its prefix, in any case', () => {
    for (const typed of ['ETA-200548940', ' eta-200548940 ', 'eta 200548940', 'ETA200548940', '200548940']) {
      expect(readSearchText(typed)).toMatchObject({ orderId: 'ETA-200548940', whole: true });
    }
    expect(readSearchText('ETA-20054894').orderId).toBeUndefined();
  });

  it('reads an e-mail address whole, lower-cased', () => {
    expect(readSearchText(' Harry_Jones08@Outlook.com ')).toMatchObject({
      email: 'harry_jones08@outlook.com',
      whole: true,
    });
    expect(readSearchText('jones08@').email).toBeUndefined();
  });

  it('reads a telephone number as the digits it may be stored as, with or without its dialling code', () => {
    const text = readSearchText('+34 612-345-678');
    expect(text.whole).toBe(true);
    expect(text.telephone?.digits).toEqual(['34612345678']);
    expect(text.telephone?.withCountryCode).toContainEqual({ countryCode: '34', digits: '612345678' });
    // A trunk or international prefix is dropped.
    expect(readSearchText('0034 612 345 678').telephone?.withCountryCode).toContainEqual({
      countryCode: '34',
      digits: '612345678',
    });
    expect(readSearchText('(0)20 7946 0958').telephone?.digits).toEqual(['02079460958', '2079460958']);
    // Seven digits are looked up as a number and searched inside others too.
    expect(readSearchText('1234567')).toMatchObject({ whole: false, telephone: { digits: ['1234567'] } });
    expect(readSearchText('123456').telephone).toBeUndefined();
  });

  it('reads words of letters as a name: surname, first name, or full name in either order', () => {
    expect(readSearchText('Jones')).toMatchObject({ name: { fullNames: ['jones'] }, whole: false });
    expect(readSearchText('Harry  Jones').name?.fullNames).toEqual(['harry jones', 'jones harry']);
    expect(readSearchText('Mary Ann Smith').name?.fullNames).toEqual([
      'mary ann smith',
      'ann smith mary',
      'smith mary ann',
    ]);
    expect(readSearchText("Siobhán O'Neill-Walsh").name?.fullNames[0]).toBe("siobhán o'neill-walsh");
    expect(readSearchText('jones08').name).toBeUndefined();
    expect(readSearchText('gmail.com').name).toBeUndefined();
  });

  it('tells a fragment the trigram index can narrow from one it cannot', () => {
    expect(['zz', 'a.b', '1-2', ' x ', '@', 'Li'].map((t) => readSearchText(t).indexable)).toEqual(
      Array(6).fill(false),
    );
    expect(['abc', 'müll', '123', 'eta-2005', 'x@yz9'].every((t) => readSearchText(t).indexable)).toBe(true);
  });

  it('looks up a passport number for letters and digits, and keeps every text a fragment', () => {
    expect(readSearchText('p5512 0934')).toMatchObject({ passport: 'p5512 0934', fragment: 'p5512 0934' });
    expect(readSearchText('%_').fragment).toBe('%_');
  });
});
