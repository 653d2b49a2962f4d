// Files for document tests: a real multi-page PDF with marker text, a real PNG, and the text of a PDF per
// page as a reader would extract it (pdf.js through unpdf).
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractText } from 'unpdf';

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

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real greyscale PNG: a dark diagonal stroke on white, like a scribbled signature. */
export function samplePng(width = 300, height = 100): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(width + 1, 255);
    row[0] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const curve = Math.round(height / 2 + (height / 3) * Math.sin((x / width) * Math.PI * 3));
      if (Math.abs(curve - y) <= 2) row[x + 1] = 20;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The text of each page, whitespace runs folded to one space. */
export async function pdfPages(bytes: Buffer | Uint8Array): Promise<string[]> {
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, ' '));
}
