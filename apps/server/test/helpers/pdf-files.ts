// Files for document tests: a real multi-page PDF with marker text, a real PNG, and the text of a PDF per
// page as a reader would extract it (pdf.js through unpdf).
import { PDFDocument, StandardFonts } from 'pdf-lib';
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
