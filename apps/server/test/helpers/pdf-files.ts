// Files for document tests: a real multi-page PDF with marker text, a real PNG, and the text of a PDF per
// page as a reader would extract it (pdf.js through unpdf).
import { once } from 'node:events';
import { createDeflate } from 'node:zlib';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { extractText } from 'unpdf';
import { greyscalePng } from '../../src/lib/png.js';

/** A PDF of `pages` pages, each saying "<marker> page i of n" in large type. */
export async function samplePdf(pages: number, marker: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i += 1) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${marker} page ${i} of ${pages}`, { x: 72, y: 700, size: 20, font });
    page.drawText('Electronic Travel Authorization approved.', { x: 72, y: 660, size: 12, font });
  }
  return Buffer.from(await doc.save());
}

/** A real greyscale PNG: a dark diagonal stroke on white, like a scribbled signature. */
export function samplePng(width = 300, height = 100): Buffer {
  return greyscalePng(width, height, (x, y) => {
    const curve = Math.round(height / 2 + (height / 3) * Math.sin((x / width) * Math.PI * 3));
    return Math.abs(curve - y) <= 2 ? 20 : 255;
  });
}

/** The text of each page, whitespace runs folded to one space. */
export async function pdfPages(bytes: Buffer | Uint8Array): Promise<string[]> {
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, ' '));
}

/**
 * A one-page PDF whose page content inflates to `inflatedMb` MB of blanks from a small file (deflate packs blanks
 * about 1,000 to 1): a compression bomb when the size is large, the largest document allowed when it is just under
 * the limit (lib/pdf/inspect.ts). Deflated in 1 MB steps, so the test never holds the inflated content.
 */
export async function inflatingPdf(inflatedMb: number, marker = 'INFLATING-PDF'): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (c: Buffer) => chunks.push(c));
  const blanks = Buffer.alloc(2 ** 20, 0x20);
  const text = Buffer.from(`BT /F1 20 Tf 72 700 Td (${marker}) Tj ET\n`);
  deflate.write(text);
  for (let i = 0; i < inflatedMb; i += 1) {
    if (!deflate.write(blanks)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.node.setFontDictionary(PDFName.of('F1'), font.ref);
  const content = doc.context.stream(Buffer.concat(chunks), { Filter: 'FlateDecode' });
  page.node.set(PDFName.of('Contents'), doc.context.register(content));
  return Buffer.from(await doc.save());
}
