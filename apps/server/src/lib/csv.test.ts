import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvStream } from './csv.js';

describe('csv', () => {
  it('quotes only what needs quoting and doubles quotes', () => {
    expect(csvLine(['Canada', 12, null, 'a,b', 'say "hi"', 'two\nlines'])).toBe(
      'Canada,12,,"a,b","say ""hi""","two\nlines"\r\n'.replace('"two\nlines"', '"two\nlines"'),
    );
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-2)).toBe('-2');
  });

  it('streams a byte-order mark, the header and every row', async () => {
    async function* rows() {
      for (let i = 0; i < 3; i += 1) yield [`row ${i}`, i];
    }
    let text = '';
    for await (const part of csvStream(['Name', 'Count'], rows())) text += String(part);
    expect(text).toBe('\uFEFFName,Count\r\nrow 0,0\r\nrow 1,1\r\nrow 2,2\r\n');
  });
});
