// A small layout vocabulary over pdfkit for the documents the server writes (defence packs, invoices):
// titles, section headings, paragraphs, key-value blocks, tables whose cells wrap and whose header repeats
// on every page, and images. US Letter; the bottom margin holds a footer with "Page n of m" on every page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';

export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;
const MARGIN = { top: 54, bottom: 60, left: 54, right: 54 };
const CONTENT_WIDTH = PAGE_WIDTH - MARGIN.left - MARGIN.right;
const CONTENT_BOTTOM = PAGE_HEIGHT - MARGIN.bottom;

const INK = '#1f2933';
const MUTED = '#52606d';
const RULE = '#cbd2d9';
const HEADER_FILL = '#e4e9f0';
const ZEBRA_FILL = '#f5f7fa';
const BODY_SIZE = 9.5;
const CELL_SIZE = 8.5;
const CELL_PAD = 4;
/** The footer's size and its distance from the bottom edge, shared with the pages assemble.ts appends. */
export const FOOTER_SIZE = 7.5;
export const FOOTER_FROM_BOTTOM = 32;
const CELL_LINE_GAP = 1;

/** A table cell ready to draw: its lines, each fitting the column. */
interface Cell {
  lines: string[];
  bold: boolean;
  height: number;
}

/** Character advances at the cell size, per font; fonts are process-wide, so are their advances. */
const REGULAR_ADVANCES = new Map<string, number>();
const BOLD_ADVANCES = new Map<string, number>();

// DejaVu Sans covers the Latin, Greek and Cyrillic letters of customers' names (Łukasz, Dvořák, Yılmaz);
// the PDF standard fonts stop at Western European. Its condensed cut lets a time stamp or an IPv4 address
// fit one line of a narrow column; one cut and its bold keep what each document embeds small (a font's
// subset is built for every document). Each font is read and parsed once per process and shared by every
// document (parsing it per document was most of a pack's time); pdfkit embeds only the glyphs used. The
// OpenType layout tables (GSUB, GPOS) are set aside: these alphabets need no shaping, kerning still comes
// from the font's kern table, no ligature glyph gets in the way of searching the text, and setting a line
// costs a third of the time.
const FONT_FILES = {
  regular: 'DejaVuSansCondensed.ttf',
  bold: 'DejaVuSansCondensed-Bold.ttf',
} as const;
type FontName = keyof typeof FONT_FILES;
const require = createRequire(import.meta.url);
let parsedFonts: [FontName, fontkit.Font][] | undefined;
const fonts = () =>
  (parsedFonts ??= Object.entries(FONT_FILES).map(([name, file]) => {
    const font = fontkit.create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
    if (!('layout' in font)) throw new Error(`${file} is a font collection, not a font`);
    const tables = (font as unknown as { directory?: { tables?: Record<string, unknown> } }).directory?.tables;
    if (tables) {
      delete tables.GSUB;
      delete tables.GPOS;
    }
    return [name as FontName, font];
  }));

export interface TableColumn {
  header: string;
  /** Share of the content width; the shares of a table add up to 1. */
  width: number;
}

/** Where a table cell was drawn, to be filled in once later content is known (an index's page numbers). */
export interface CellMark {
  page: number;
  x: number;
  y: number;
  width: number;
}

export interface DocumentInfo {
  title: string;
  author: string;
  subject: string;
}

/** pdfkit takes a Buffer; bytes that crossed into a worker thread arrive as a Uint8Array (viewed, not copied). */
const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export class PdfBuilder {
  private readonly doc: PDFKit.PDFDocument;
  private readonly output: Promise<Buffer>;

  constructor(info: DocumentInfo) {
    this.doc = new PDFDocument({
      size: 'LETTER',
      margins: MARGIN,
      info: { Title: info.title, Author: info.author, Subject: info.subject, Creator: 'eTA Desk' },
      lang: 'en-US',
      displayTitle: true,
      // Pages stay open until the end, so an index can be given the pages of the sections that follow it.
      bufferPages: true,
      // No standard font: loading Helvetica's metrics for every document costs time and it is never used.
      font: '',
    });
    const chunks: Buffer[] = [];
    this.output = new Promise((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    // pdfkit takes a parsed fontkit font as it is (its types know only files and bytes).
    for (const [name, font] of fonts()) this.doc.registerFont(name, font as unknown as Buffer);
    this.doc.font('regular').fontSize(BODY_SIZE).fillColor(INK);
  }

  /** The document's title block: a large title, a line under it and an optional subtitle. */
  title(text: string, subtitle?: string): this {
    const { doc } = this;
    doc.font('bold').fontSize(18).fillColor(INK).text(text, MARGIN.left, doc.y, { width: CONTENT_WIDTH });
    if (subtitle) doc.font('regular').fontSize(10).fillColor(MUTED).text(subtitle, { width: CONTENT_WIDTH });
    this.rule(6);
    return this;
  }

  /** A section heading; starts a new page when fewer than `keepWithNext` points are left for what follows. */
  heading(text: string, keepWithNext = 90): this {
    const { doc } = this;
    if (doc.y > MARGIN.top) doc.moveDown(0.8);
    this.ensureSpace(keepWithNext);
    doc.font('bold').fontSize(13).fillColor(INK).text(text, MARGIN.left, doc.y, { width: CONTENT_WIDTH });
    this.rule(3);
    return this;
  }

  /** A heading inside a section, kept on one page with the `keepWithNext` points that follow it. */
  subheading(text: string, keepWithNext = 50): this {
    const { doc } = this;
    doc.moveDown(0.4);
    this.ensureSpace(keepWithNext);
    doc.font('bold').fontSize(10).fillColor(INK).text(text, MARGIN.left, doc.y, { width: CONTENT_WIDTH });
    doc.moveDown(0.2);
    return this;
  }

  paragraph(text: string, options: { muted?: boolean; size?: number } = {}): this {
    const { doc } = this;
    doc
      .font('regular')
      .fontSize(options.size ?? BODY_SIZE)
      .fillColor(options.muted ? MUTED : INK)
      .text(text, MARGIN.left, doc.y, { width: CONTENT_WIDTH, lineGap: 1.5 });
    doc.moveDown(0.4);
    return this;
  }

  /** Label-value rows, labels bold in the narrow first column. */
  facts(rows: [label: string, value: string][]): this {
    return this.grid(
      [
        { header: '', width: 0.3 },
        { header: '', width: 0.7 },
      ],
      rows,
      { header: false, boldFirst: true },
    );
  }

  /**
   * A table with a shaded header row repeated on every page it spans; `empty` is printed when there are no
   * rows. `marks` collects where each row's cell of one column was drawn, for `fill`.
   */
  table(columns: TableColumn[], rows: string[][], empty: string, marks?: { column: number; into: CellMark[] }): this {
    if (rows.length === 0) return this.paragraph(empty, { muted: true });
    return this.grid(columns, rows, { header: true, boldFirst: false, marks });
  }

  /** The page being written, counting from 1. */
  pageNumber(): number {
    return this.doc.bufferedPageRange().count;
  }

  /** Writes text into a cell drawn earlier (see `table`); call it after all other content. */
  fill(mark: CellMark, text: string): this {
    const { doc } = this;
    const last = doc.bufferedPageRange().count - 1;
    doc.switchToPage(mark.page);
    doc
      .font('regular')
      .fontSize(CELL_SIZE)
      .fillColor(INK)
      .text(text, mark.x + CELL_PAD, mark.y + CELL_PAD, { width: mark.width - 2 * CELL_PAD, lineBreak: false });
    doc.switchToPage(last);
    return this;
  }

  /** An image in a thin frame at the current position, scaled to fit the box with its proportions kept. */
  image(bytes: Uint8Array, box: { width: number; height: number }, caption?: string): this {
    const { doc } = this;
    this.ensureSpace(box.height + 24);
    const top = doc.y;
    doc.image(asBuffer(bytes), MARGIN.left + 4, top + 4, {
      fit: [box.width - 8, box.height - 8],
      align: 'center',
      valign: 'center',
    });
    doc.rect(MARGIN.left, top, box.width, box.height).lineWidth(0.7).strokeColor(RULE).stroke();
    doc.x = MARGIN.left;
    doc.y = top + box.height + 3;
    if (caption) doc.font('regular').fontSize(8).fillColor(MUTED).text(caption, { width: CONTENT_WIDTH });
    doc.moveDown(0.4);
    return this;
  }

  /** An image on a page of its own, under a caption, as large as the page allows. */
  imagePage(bytes: Uint8Array, caption: string): this {
    this.newPage();
    this.subheading(caption);
    const top = this.doc.y + 6;
    this.doc.image(asBuffer(bytes), MARGIN.left, top, {
      fit: [CONTENT_WIDTH, CONTENT_BOTTOM - top],
      align: 'center',
    });
    return this;
  }

  newPage(): this {
    this.doc.addPage();
    this.doc.x = MARGIN.left;
    this.doc.y = MARGIN.top;
    return this;
  }

  /**
   * Ends the document and gives its bytes. With a footer, every page carries it on the left and "Page n of m"
   * on the right, m counting `pagesAfter` pages that will be appended to this document (assemble.ts).
   */
  async toBytes(footer?: { text: string; pagesAfter?: number }): Promise<Buffer> {
    const { doc } = this;
    if (footer) {
      const count = doc.bufferedPageRange().count;
      const total = count + (footer.pagesAfter ?? 0);
      for (let i = 0; i < count; i += 1) {
        doc.switchToPage(i);
        // Text below the bottom margin would start a new page; the footer lives there on purpose.
        doc.page.margins.bottom = 0;
        const y = PAGE_HEIGHT - FOOTER_FROM_BOTTOM;
        const right = `Page ${i + 1} of ${total}`;
        doc.font('regular').fontSize(FOOTER_SIZE).fillColor(MUTED);
        doc.text(footer.text, MARGIN.left, y, { lineBreak: false });
        doc.text(right, PAGE_WIDTH - MARGIN.right - doc.widthOfString(right), y, { lineBreak: false });
      }
    }
    doc.end();
    return this.output;
  }

  private ensureSpace(height: number): void {
    if (this.doc.y + height > CONTENT_BOTTOM) this.newPage();
  }

  private rule(gapAfter: number): void {
    const { doc } = this;
    const y = doc.y + 2;
    doc
      .moveTo(MARGIN.left, y)
      .lineTo(MARGIN.left + CONTENT_WIDTH, y)
      .lineWidth(0.7)
      .strokeColor(RULE)
      .stroke();
    doc.y = y + gapAfter;
  }

  /** Width of a text at the cell size: the sum of its characters' advances, each measured once per process. */
  private cellWidth(text: string, bold: boolean): number {
    const advances = bold ? BOLD_ADVANCES : REGULAR_ADVANCES;
    let width = 0;
    for (const char of text) {
      let advance = advances.get(char);
      if (advance === undefined) {
        advance = this.doc
          .font(bold ? 'bold' : 'regular')
          .fontSize(CELL_SIZE)
          .widthOfString(char);
        advances.set(char, advance);
      }
      width += advance;
    }
    return width;
  }

  /**
   * A cell's lines as drawn and its height. Cells are wrapped here, at spaces and inside words too long for
   * the column (message ids, hashes, long addresses), from cached character advances: pdfkit's wrapper lays
   * out every candidate piece of a long word, which was most of a table's time. Kerning only tightens a
   * line, so a line measured this way always fits. A row never spans pages: a cell taller than a page is cut
   * short with an ellipsis.
   */
  private fitCell(text: string, width: number, bold: boolean, maxHeight: number): Cell {
    const inner = width - 2 * CELL_PAD;
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      for (const word of paragraph.split(' ')) {
        const joined = line ? `${line} ${word}` : word;
        if (this.cellWidth(joined, bold) <= inner) {
          line = joined;
          continue;
        }
        if (line) lines.push(line);
        line = '';
        for (const char of word) {
          if (line && this.cellWidth(line + char, bold) > inner) {
            lines.push(line);
            line = '';
          }
          line += char;
        }
      }
      lines.push(line);
    }
    const lineHeight =
      this.doc
        .font(bold ? 'bold' : 'regular')
        .fontSize(CELL_SIZE)
        .currentLineHeight(true) + CELL_LINE_GAP;
    const fitting = Math.max(1, Math.floor(maxHeight / lineHeight));
    if (lines.length > fitting) lines.splice(fitting - 1, lines.length, `${lines[fitting - 1]!.slice(0, -1)}…`);
    return { lines, bold, height: lines.length * lineHeight };
  }

  private drawCell(cell: Cell, x: number, y: number): void {
    const { doc } = this;
    doc
      .font(cell.bold ? 'bold' : 'regular')
      .fontSize(CELL_SIZE)
      .fillColor(INK);
    const step = doc.currentLineHeight(true) + CELL_LINE_GAP;
    cell.lines.forEach((line, i) => doc.text(line, x + CELL_PAD, y + CELL_PAD + i * step, { lineBreak: false }));
  }

  private grid(
    columns: TableColumn[],
    rows: string[][],
    options: { header: boolean; boldFirst: boolean; marks?: { column: number; into: CellMark[] } | undefined },
  ): this {
    const { doc } = this;
    const widths = columns.map((c) => c.width * CONTENT_WIDTH);
    const maxRowHeight = CONTENT_BOTTOM - MARGIN.top - 60;
    const measure = (row: string[], header: boolean) => {
      const cells = row.map((text, i) =>
        this.fitCell(text, widths[i] ?? 0, header || (options.boldFirst && i === 0), maxRowHeight),
      );
      return { cells, height: Math.max(...cells.map((c) => c.height)) + 2 * CELL_PAD };
    };

    const drawRow = (cells: Cell[], height: number, kind: 'header' | 'even' | 'odd') => {
      const top = doc.y;
      const fill = kind === 'header' ? HEADER_FILL : kind === 'odd' ? ZEBRA_FILL : undefined;
      if (fill) doc.rect(MARGIN.left, top, CONTENT_WIDTH, height).fill(fill);
      let x = MARGIN.left;
      cells.forEach((cell, i) => {
        const width = widths[i] ?? 0;
        if (kind !== 'header' && options.marks?.column === i) {
          options.marks.into.push({ page: this.pageNumber() - 1, x, y: top, width });
        }
        this.drawCell(cell, x, top);
        x += width;
      });
      doc
        .moveTo(MARGIN.left, top + height)
        .lineTo(MARGIN.left + CONTENT_WIDTH, top + height)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      doc.x = MARGIN.left;
      doc.y = top + height;
    };

    const header = options.header
      ? measure(
          columns.map((c) => c.header),
          true,
        )
      : undefined;
    const drawHeader = () => {
      if (header) drawRow(header.cells, header.height, 'header');
    };
    const body = rows.map((row) => measure(row, false));
    this.ensureSpace((header?.height ?? 0) + (body[0]?.height ?? 0));
    drawHeader();
    body.forEach((row, index) => {
      if (doc.y + row.height > CONTENT_BOTTOM) {
        this.newPage();
        drawHeader();
      }
      drawRow(row.cells, row.height, index % 2 === 1 ? 'odd' : 'even');
    });
    doc.moveDown(0.6);
    return this;
  }
}
