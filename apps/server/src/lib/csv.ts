// CSV as spreadsheets read it (RFC 4180): every cell quoted when it needs to be, lines ended with CRLF, and a
// cell that a spreadsheet would run as a formula (= + - @, tab, CR) prefixed with an apostrophe, since names,
// e-mails and audit targets are typed by people outside the office.
import { Readable } from 'node:stream';

export type CsvCell = string | number | boolean | null | undefined;

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly CsvCell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * A CSV stream: a byte-order mark (so spreadsheet programs read UTF-8 names right), the header, then the rows
 * as the source yields them, one page at a time, never all in memory.
 */
export function csvStream(header: readonly string[], rows: AsyncIterable<readonly CsvCell[]>): Readable {
  async function* lines() {
    yield `\uFEFF${csvLine(header)}`;
    let chunk = '';
    for await (const row of rows) {
      chunk += csvLine(row);
      if (chunk.length >= 64 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(lines(), { objectMode: false });
}

/** `attachment; filename="…"` for a generated name (ASCII letters, digits, dots and dashes only). */
export const attachment = (fileName: string): string =>
  `attachment; filename="${fileName.replace(/[^A-Za-z0-9.-]/g, '-')}"`;
