// Rows as PostgreSQL's COPY text format (tab-separated columns, \N for NULL, backslash escapes), written straight
// into a growing buffer, the way the demo loader streams them with COPY FROM STDIN. Each value becomes what
// json_populate_recordset made of the same row in JSON (the loader's other path, PGlite's): a missing or undefined
// value NULL, a boolean true or false, a number as JSON writes it, an object (the sealed fields) as its JSON text.
//
// The ids a row starts with (its own, and a child row's order) are not known while the rows are generated: they come
// from the tables' sequences afterwards. They are written as ID_WIDTH zeros and filled in later (fillId); COPY reads
// "000000000123" as 123.

/** Digits of an id placeholder: ids up to 999,999,999,999. */
export const ID_WIDTH = 12;
const MAX_ID = 10 ** ID_WIDTH - 1;

const TAB = 9;
const NEWLINE = 10;
const CR = 13;
const BACKSLASH = 92;
const ZERO = 48;
const SPECIALS = /[\\\t\n\r]/g;
/** Buffer's own UTF-8 write (what buf.write calls after sorting out its arguments): a few million calls a load. */
const utf8Write = (Buffer.prototype as unknown as { utf8Write(this: Buffer, s: string, offset: number): number })
  .utf8Write;
const ESCAPED: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** The rows of one table for one batch: their COPY text, where each row starts, and each child row's order. */
export interface CopyRows {
  columns: readonly string[];
  data: Uint8Array;
  /** Byte offset of each row's line. */
  lines: Int32Array;
  /** For rows that name an order (placeholders 2): that order's index in the batch. */
  parents: Int32Array | null;
}

export class CopyWriter {
  private buf = Buffer.allocUnsafeSlow(1 << 20);
  private pos = 0;
  private lines = new Int32Array(1024);
  private parents: Int32Array | null;
  private count = 0;
  /** Writes a row's columns after the placeholders: each value then its separator. */
  private readonly writeFields: (writer: CopyWriter, row: object) => void;

  /**
   * `columns` start with the ones written as placeholders: `id`, and for `placeholders` 2 the order's id (the
   * second column) too, given to `row` as the order's index in the batch. With `continued`, each line ends with a
   * tab instead of a line break: its last columns are written by another writer, and the two joined (joinLines).
   */
  constructor(
    readonly columns: readonly string[],
    private readonly placeholders: 0 | 1 | 2,
    continued = false,
  ) {
    // Compiled from the column names, so each column is read as a plain property (the same object shape for every
    // row of a table): a million rows of a hundred columns cost far less than through a loop of keyed reads.
    const fields = columns.slice(placeholders);
    const end = continued ? TAB : NEWLINE;
    this.writeFields = new Function(
      'w',
      'row',
      fields.map((c, i) => `w.value(row[${JSON.stringify(c)}], ${i === fields.length - 1 ? end : TAB});`).join('\n'),
    ) as (writer: CopyWriter, row: object) => void;
    this.parents = placeholders === 2 ? new Int32Array(1024) : null;
  }

  get rows(): number {
    return this.count;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + bytes) size *= 2;
    const grown = Buffer.allocUnsafeSlow(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  /** Appends one row; `parent` is the index in the batch of the order it belongs to (placeholders 2). */
  row(row: object, parent = -1): void {
    if (this.count === this.lines.length) {
      const lines = new Int32Array(this.count * 2);
      lines.set(this.lines);
      this.lines = lines;
      if (this.parents) {
        const parents = new Int32Array(this.count * 2);
        parents.set(this.parents);
        this.parents = parents;
      }
    }
    this.lines[this.count] = this.pos;
    if (this.parents) this.parents[this.count] = parent;
    this.count++;
    this.ensure(this.placeholders * (ID_WIDTH + 1));
    const buf = this.buf;
    for (let p = 0; p < this.placeholders; p++) {
      buf.fill(ZERO, this.pos, this.pos + ID_WIDTH);
      this.pos += ID_WIDTH;
      buf[this.pos++] = TAB;
    }
    this.writeFields(this, row);
  }

  /** Writes a value and `separator` after it (called by writeFields). */
  value(value: unknown, separator: number): void {
    switch (typeof value) {
      case 'string':
        this.text(value);
        break;
      case 'number':
        if (Number.isInteger(value) && value >= 0 && value <= 0x7fff_ffff) this.integer(value);
        else this.text(Number.isFinite(value) ? String(value) : null);
        break;
      case 'boolean':
        this.text(value ? 'true' : 'false');
        break;
      case 'object':
        this.text(value === null ? null : JSON.stringify(value));
        break;
      default:
        this.text(null);
    }
    this.buf[this.pos - 1] = separator;
  }

  private integer(n: number): void {
    this.ensure(11);
    const buf = this.buf;
    if (n < 10) {
      buf[this.pos++] = ZERO + n;
    } else {
      const digits = n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : Math.floor(Math.log10(n)) + 1;
      for (let d = this.pos + digits - 1; d >= this.pos; d--) {
        buf[d] = ZERO + (n % 10);
        n = Math.floor(n / 10);
      }
      this.pos += digits;
    }
    this.pos++;
  }

  private text(s: string | null): void {
    if (s === null) {
      this.ensure(3);
      this.buf[this.pos++] = BACKSLASH;
      this.buf[this.pos++] = 78; // N
      this.pos++;
      return;
    }
    this.ensure(s.length * 3 + 1);
    const start = this.pos;
    const end = start + utf8Write.call(this.buf, s, start);
    const buf = this.buf;
    for (let i = start; i < end; i++) {
      const b = buf[i]!;
      if (b === BACKSLASH || b === TAB || b === NEWLINE || b === CR) {
        // Rare (the mails' text has line breaks): write it again, escaped.
        const escaped = s.replace(SPECIALS, (ch) => ESCAPED[ch]!);
        this.ensure(escaped.length * 3 + 1);
        this.pos = start + utf8Write.call(this.buf, escaped, start) + 1;
        return;
      }
    }
    this.pos = end + 1;
  }

  /** The rows written, their buffer handed over (the writer starts afresh). */
  take(): CopyRows {
    const taken: CopyRows = {
      columns: this.columns,
      data: new Uint8Array(this.buf.buffer, 0, this.pos),
      lines: this.lines.slice(0, this.count),
      parents: this.parents ? this.parents.slice(0, this.count) : null,
    };
    this.buf = Buffer.allocUnsafeSlow(Math.max(1 << 20, this.buf.length));
    this.pos = 0;
    this.count = 0;
    return taken;
  }
}

/** Each line of `heads` (written `continued`) followed by the same line of `tails`: the rows whole. */
export function joinLines(heads: CopyRows, tails: CopyRows): CopyRows {
  const n = heads.lines.length;
  if (tails.lines.length !== n) throw new Error(`${n} lines to join with ${tails.lines.length}`);
  const head = Buffer.from(heads.data.buffer, heads.data.byteOffset, heads.data.byteLength);
  const tail = Buffer.from(tails.data.buffer, tails.data.byteOffset, tails.data.byteLength);
  const out = Buffer.allocUnsafeSlow(head.length + tail.length);
  const lines = new Int32Array(n);
  let pos = 0;
  for (let k = 0; k < n; k++) {
    lines[k] = pos;
    pos += head.copy(out, pos, heads.lines[k]!, k + 1 < n ? heads.lines[k + 1]! : head.length);
    pos += tail.copy(out, pos, tails.lines[k]!, k + 1 < n ? tails.lines[k + 1]! : tail.length);
  }
  return { columns: [...heads.columns, ...tails.columns], data: out, lines, parents: heads.parents };
}

/** Writes `id` into the placeholder at `at`. */
export function fillId(data: Uint8Array, at: number, id: number): void {
  if (!Number.isSafeInteger(id) || id < 0 || id > MAX_ID) throw new RangeError(`id ${id} does not fit the COPY text`);
  for (let d = at + ID_WIDTH - 1; id > 0; d--) {
    data[d] = ZERO + (id % 10);
    id = Math.floor(id / 10);
  }
}
